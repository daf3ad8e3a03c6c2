// main() of the GPU-only tests: exit 77 (meson: skipped) where no GPU can run them.
#include <doctest/doctest.h>

#include <cstdio>

#include <argx/argx.hpp>

#include "harness.hpp"

// The shared harness reports this backend in its messages; these tests name theirs.
argx::backend argx_test::backend_under_test() noexcept { return argx::backend::cuda; }

int main(int argc, char** argv) {
  if (!argx::available(argx::cuda)) {
    const float x = 0;
    try {  // the library's reason: no CUDA, no GPU, or no kernels for this GPU's architecture
      (void)argx::argmax(argx::cuda, argx::make_view(&x, {1}));
    } catch (const argx::error& e) {
      std::printf("GPU tests skipped: %s\n", e.what());
    }
    return 77;
  }
  for (const auto& g : argx::gpus())
    std::printf("GPU %d: %s, sm_%d%d, %d multiprocessors\n", g.ordinal, g.name.c_str(), g.compute_major,
                g.compute_minor, g.multiprocessors);
  doctest::Context ctx(argc, argv);
  return ctx.run();
}
