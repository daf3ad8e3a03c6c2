// The translator from argx::error to the Python class of its code.
#include "errors.hpp"

#include <vector>

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

void set_error_types(nb::sequence classes) {
  types().clear();
  for (nb::handle c : classes) types().push_back(nb::borrow(c));
  static bool registered = false;
  if (!registered) nb::register_exception_translator(translate);
  registered = true;
}

}  // namespace argx::python
