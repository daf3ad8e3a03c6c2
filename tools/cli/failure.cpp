#include "failure.hpp"

#include <cstdio>
#include <exception>
#include <new>

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
  } catch (const argx::error& e) {
    if (print) std::fprintf(stderr, "%s [%s]\n", e.what(), argx::to_string(e.code()));
  } catch (const std::bad_alloc&) {
    if (print) std::fprintf(stderr, "argx %s: out of memory\n", c);
  } catch (const std::exception& e) {
    if (print) std::fprintf(stderr, "argx %s: %s\n", c, e.what());
  }
  return 1;
}

}  // namespace argx::cli
