// error_of(f): which argx::error f() throws, as the code's name, or "no error".
// Comparing names keeps doctest's failure messages readable.
#pragma once

#include <string>

#include <argx/error.hpp>

namespace argx_test {

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const argx::error& e) {
    return argx::to_string(e.code());
  }
  return "no error";
}

}  // namespace argx_test
