// main() of a per-backend test executable. Compiled once per backend with
// ARGX_TEST_BACKEND set to the backend's enumerator name (seq, par, tbb, cuda, thrust);
// the test bodies it links were compiled once for all backends.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include <argx/argx.hpp>

#include "harness.hpp"

#ifndef ARGX_TEST_BACKEND
#error "compile with -DARGX_TEST_BACKEND=<seq|par|tbb|cuda|thrust>"
#endif

argx::backend argx_test::backend_under_test() noexcept { return argx::backend::ARGX_TEST_BACKEND; }

// Exit status meson reads as "skipped".
constexpr int exit_skipped = 77;

int main(int argc, char** argv) {
  const argx::backend b = argx_test::backend_under_test();
  const std::string name(argx::name(b));
  if (!argx::available(b)) {
    const char* why = argx_test::is_gpu(b) ? (argx::built_with_cuda() ? "no CUDA device is present"
                                                                       : "argx was built without CUDA")
                                           : "argx was built without it";
    std::printf("backend %s is not available here (%s): skipped\n", name.c_str(), why);
    return exit_skipped;
  }
  std::printf("backend under test: %s\n", name.c_str());
  doctest::Context ctx(argc, argv);
  return ctx.run();
}
