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
#include "docs.hpp"
#include "testing_binding.hpp"

namespace nb = nanobind;
namespace py = argx::python;

NB_MODULE(_core, m) {
  m.doc() = "argx's C++ core (use the argx package)";
  m.attr("version") = argx::version_string;
  // argmax and argmin are these functions themselves (no Python wrapper: a frame costs as much
  // as a tenth of a small reduction). Every argument is an object, None included: bad values
  // are argx errors, not binding errors, and flags take any truth value.
  for (const char* op : {"argmax", "argmin"}) {
    const std::string name = op;
    m.def(
        op,
        [name](nb::handle x, nb::handle dim, nb::handle keepdim, nb::handle nan, nb::handle ties, nb::handle abs,
               nb::handle out, nb::handle values, nb::handle backend, nb::handle stream) {
          return py::reduce(x, name == "argmax" ? argx::op::argmax : argx::op::argmin, dim, py::truth(keepdim), nan,
                            ties, py::truth(abs), out, py::truth(values), backend, stream);
        },
        nb::arg("x").none(), nb::arg("dim").none() = nb::none(), nb::kw_only(), nb::arg("keepdim").none() = false,
        nb::arg("nan").none() = "propagate", nb::arg("ties").none() = "first", nb::arg("abs").none() = false,
        nb::arg("out").none() = nb::none(), nb::arg("values").none() = false, nb::arg("backend").none() = "auto",
        nb::arg("stream").none() = nb::none(),
        nb::sig(("def " + name + "(x, dim=None, *, keepdim=False, nan='propagate', ties='first', abs=False, out=None, "
                 "values=False, backend='auto', stream=None)").c_str()),
        name == "argmax" ? py::argmax_doc : py::argmin_doc);
  }
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
      d["supported"] = g.supported;
      out.append(d);
    }
    return out;
  });
  py::bind_testing(m);
}
