// The testing bindings. Answers arrive as bytes (argx/testing.py brings them to the host
// as int64 indices and raw value bytes); the input is read in place, like a reduction's.
#include "testing_binding.hpp"

#include <cstring>
#include <string>

#include <nanobind/stl/string.h>

#include <argx/testing.hpp>

#include "array_import.hpp"
#include "framework.hpp"
#include "reduce_args.hpp"

namespace argx::python {
namespace {

using argx::testing::answer;
using argx::testing::report;

// Raw bytes (None: none) as an answer part.
std::vector<unsigned char> byte_vector(nb::handle b) {
  if (b.is_none()) return {};
  char* p = nullptr;
  Py_ssize_t n = 0;
  if (PyBytes_AsStringAndSize(b.ptr(), &p, &n) != 0) throw nb::python_error();
  return {reinterpret_cast<unsigned char*>(p), reinterpret_cast<unsigned char*>(p) + n};
}

answer make_answer(nb::handle indices, nb::handle values) {
  const std::vector<unsigned char> raw = byte_vector(indices);
  answer a;
  a.indices.resize(raw.size() / sizeof(std::int64_t));
  std::memcpy(a.indices.data(), raw.data(), a.indices.size() * sizeof(std::int64_t));
  a.values = byte_vector(values);
  return a;
}

report compare(nb::handle x, nb::handle op, nb::handle dim, bool keepdim, nb::handle nan, nb::handle ties, bool abs,
               nb::handle indices, nb::handle values, nb::handle reference) {
  const argx::op o = make_op(op);
  const argx::spec s = make_spec(dim, keepdim, nan, ties, abs);
  const imported_array in = import_input(x, std::nullopt);
  // argx's reference: seq where it can read the input, else cuda (tested against seq bit for bit).
  const argx::policy pol = !reference.is_none()                     ? make_policy(reference, in.stream)
                           : in.view.space == memory_space::host ? argx::policy(argx::seq)
                                                                  : argx::cuda.on(reinterpret_cast<void*>(in.stream));
  const answer actual = make_answer(indices, values);
  nb::gil_scoped_release released;
  return argx::testing::compare(in.view, o, s, actual, pol);
}

report compare_answers(nb::handle x, nb::handle op, nb::handle dim, bool keepdim, nb::handle nan, nb::handle ties,
                       bool abs, nb::handle expected_indices, nb::handle expected_values, nb::handle actual_indices,
                       nb::handle actual_values, std::string expected_name, std::string actual_name) {
  const argx::op o = make_op(op);
  const argx::spec s = make_spec(dim, keepdim, nan, ties, abs);
  const imported_array in = import_input(x, std::nullopt);
  return argx::testing::compare_answers(in.view, o, s, make_answer(expected_indices, expected_values),
                                        make_answer(actual_indices, actual_values), std::move(expected_name),
                                        std::move(actual_name));
}

std::string format_element(const std::string& type, std::uint64_t bits) {
  const auto t = argx::parse_dtype(type);
  if (!t) throw error(errc::unsupported_dtype, "format_element: unknown dtype \"" + type + "\"");
  return argx::testing::format_element(*t, bits);
}

}  // namespace

void bind_testing(nb::module_& m) {
  nb::class_<report>(m, "Report",
                     "The outcome of argx.testing.compare: true when the answers agree, else the first difference.")
      .def_ro("equal", &report::equal)
      .def_ro("problem", &report::problem, "set when the answers cannot be compared (wrong sizes)")
      .def_ro("outputs", &report::outputs, "output elements compared")
      .def_ro("differing", &report::differing, "outputs whose index or value differ")
      .def_ro("output", &report::output, "first differing output, flat row-major (-1: none)")
      .def_prop_ro("position", [](const report& r) { return shape_tuple(r.position); }, "its index in the output shape")
      .def_ro("expected_index", &report::expected_index)
      .def_ro("actual_index", &report::actual_index)
      .def_prop_ro("expected_element", [](const report& r) { return shape_tuple(r.expected_element); },
                   "input coordinates of expected_index (() for -1)")
      .def_prop_ro("actual_element", [](const report& r) { return shape_tuple(r.actual_element); },
                   "input coordinates of actual_index (() for -1 or out of range)")
      .def_ro("values_compared", &report::values_compared)
      .def_prop_ro("value_type", [](const report& r) { return std::string(name(r.value_type)); })
      .def_ro("expected_bits", &report::expected_bits)
      .def_ro("actual_bits", &report::actual_bits)
      .def_ro("expected_name", &report::expected_name)
      .def_ro("actual_name", &report::actual_name)
      .def("__bool__", [](const report& r) { return r.equal; })
      .def("__str__", &report::to_string)
      .def("__repr__", [](const report& r) { return "<argx.testing.Report: " + r.to_string() + ">"; });
  m.def(
      "compare",
      [](nb::handle x, nb::handle op, nb::handle dim, nb::handle keepdim, nb::handle nan, nb::handle ties,
         nb::handle abs, nb::handle indices, nb::handle values, nb::handle reference) {
        return compare(x, op, dim, truth(keepdim), nan, ties, truth(abs), indices, values, reference);
      },
      nb::arg("x").none(), nb::arg("op").none(), nb::arg("dim").none(), nb::arg("keepdim").none(),
      nb::arg("nan").none(), nb::arg("ties").none(), nb::arg("abs").none(), nb::arg("indices"),
      nb::arg("values").none(), nb::arg("reference").none());
  m.def(
      "compare_answers",
      [](nb::handle x, nb::handle op, nb::handle dim, nb::handle keepdim, nb::handle nan, nb::handle ties,
         nb::handle abs, nb::handle expected_indices, nb::handle expected_values, nb::handle actual_indices,
         nb::handle actual_values, std::string expected_name, std::string actual_name) {
        return compare_answers(x, op, dim, truth(keepdim), nan, ties, truth(abs), expected_indices, expected_values,
                               actual_indices, actual_values, std::move(expected_name), std::move(actual_name));
      },
      nb::arg("x").none(), nb::arg("op").none(), nb::arg("dim").none(), nb::arg("keepdim").none(),
      nb::arg("nan").none(), nb::arg("ties").none(), nb::arg("abs").none(), nb::arg("expected_indices"),
      nb::arg("expected_values").none(), nb::arg("actual_indices"), nb::arg("actual_values").none(),
      nb::arg("expected_name"), nb::arg("actual_name"));
  m.def("format_element", &format_element);
}

}  // namespace argx::python
