// The translator from argx::error to the Python class of its code.
#include "errors.hpp"

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nanobind/stl/string.h>

#include <argx/error.hpp>

namespace argx::python {
namespace {

std::vector<nb::object>& types() {
  static auto* t = new std::vector<nb::object>();  // never destroyed: Python may be gone at exit
  return *t;
}

void translate(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
  } catch (const argx::error& e) {
    const auto code = static_cast<std::size_t>(e.code());
    PyObject* type = code < types().size() ? types()[code].ptr() : PyExc_RuntimeError;
    PyErr_SetString(type, e.what());
  }
}

}  // namespace

std::vector<std::string> error_codes() {
  std::vector<std::string> codes;
  for (int i = 0; std::string_view(to_string(static_cast<errc>(i))) != "unknown"; ++i)
    codes.emplace_back(to_string(static_cast<errc>(i)));
  return codes;
}

void set_error_types(nb::sequence classes) {
  const std::vector<std::string> codes = error_codes();
  types().clear();
  for (nb::handle c : classes) {
    const std::size_t i = types().size();
    if (i >= codes.size() || nb::cast<std::string>(c.attr("code")) != codes[i])
      throw std::logic_error("argx._errors.ERROR_TYPES does not follow argx::errc at position " + std::to_string(i));
    types().push_back(nb::borrow(c));
  }
  if (types().size() != codes.size()) throw std::logic_error("argx._errors.ERROR_TYPES misses argx::errc codes");
  static bool registered = false;
  if (!registered) nb::register_exception_translator(translate);
  registered = true;
}

}  // namespace argx::python
