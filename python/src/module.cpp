// argx._core: the nanobind extension behind the argx Python package. The public API, its
// docs and defaults live in argx/__init__.py; this module holds what must be C++.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <argx/argx.hpp>

#include "errors.hpp"
#include "framework.hpp"
#include "reduce_args.hpp"
#include "reduce_binding.hpp"
#include "testing_binding.hpp"

namespace nb = nanobind;
namespace py = argx::python;

NB_MODULE(_core, m) {
  m.doc() = "argx's C++ core (use the argx package)";
  m.attr("version") = argx::version_string;
  // Positional, from argx/__init__.py. Every argument is an object (None included): bad values
  // are argx errors, not binding errors, and flags take any truth value.
  m.def(
      "reduce",
      [](nb::handle x, nb::handle op, nb::handle dim, nb::handle keepdim, nb::handle nan, nb::handle ties,
         nb::handle abs, nb::handle out, nb::handle values, nb::handle backend, nb::handle stream) {
        return py::reduce(x, op, dim, py::truth(keepdim), nan, ties, py::truth(abs), out, py::truth(values), backend,
                          stream);
      },
      nb::arg("x").none(), nb::arg("op").none(), nb::arg("dim").none(), nb::arg("keepdim").none(),
      nb::arg("nan").none(), nb::arg("ties").none(), nb::arg("abs").none(), nb::arg("out").none(),
      nb::arg("values").none(), nb::arg("backend").none(), nb::arg("stream").none());
  m.def("describe", &py::describe);
  m.def("set_error_types", &py::set_error_types);
  m.attr("error_codes") = py::error_codes();
  m.def("set_framework_lookup", &py::set_framework_lookup);
  m.def("available", [](const std::string& name) {
    const auto p = argx::policy::from_name(name);
    if (!p) throw argx::error(argx::errc::bad_argument, "unknown backend \"" + name + "\"");
    return argx::available(*p);
  });
  m.def("built_with_cuda", &argx::built_with_cuda);
  m.def("cpu_simd_target", &argx::cpu_simd_target);
  m.def("gpus", [] {
    nb::list out;
    for (const auto& g : argx::gpus()) {
      nb::dict d;
      d["ordinal"] = g.ordinal;
      d["name"] = g.name;
      d["compute_capability"] = nb::make_tuple(g.compute_major, g.compute_minor);
      d["multiprocessors"] = g.multiprocessors;
      d["memory_bytes"] = g.memory_bytes;
      out.append(d);
    }
    return out;
  });
  py::bind_testing(m);
}
