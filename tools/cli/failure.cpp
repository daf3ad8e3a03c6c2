#include "failure.hpp"

#include <cstdio>
#include <exception>

#include <argx/error.hpp>

#include "options.hpp"

namespace argx::cli {

int report_failure(const std::string& command, bool print) {
  const char* c = command.c_str();
  try {
    throw;
  } catch (const usage_error& e) {
    if (print) std::fprintf(stderr, "argx %s: %s (see argx %s --help)\n", c, e.what(), c);
    return 2;
  } catch (...) {
    try {
      argx::detail::rethrow_as_error(c);  // out_of_memory, or internal for what argx did not expect
    } catch (const argx::error& e) {
      if (print) std::fprintf(stderr, "%s [%s]\n", e.what(), argx::to_string(e.code()));
    }
  }
  return 1;
}

}  // namespace argx::cli
