// argx info: version, backends built and usable here, GPUs.
#include <cstdio>

#include <argx/argx.hpp>

#include "backend_list.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace argx::cli {

int info_command(const args& a) {
  option_set opts;
  const auto positional = opts.parse_or_help(
      a, "info",
      "Prints the argx version, which backends are built and usable here (and why not), the GPU\narchitectures argx "
      "was built for, and the GPUs.\n");
  if (!positional) return 0;
  no_positional(*positional, "info takes no arguments");
  std::printf("argx %s\n", version_string);
  std::printf("backends:\n");
  for (backend b : all_backends) {
    const std::string why = unavailable_reason(b);
    std::printf("  %-7s %s\n", std::string(name(b)).c_str(), why.empty() ? "usable" : ("unavailable: " + why).c_str());
  }
  const char* simd = cpu_simd_target();
  std::printf("tbb SIMD target: %s\n", *simd ? simd : "none (built without oneTBB)");
  std::printf("built with CUDA: %s\n", built_with_cuda() ? "yes" : "no");
  if (built_with_cuda()) std::printf("GPU architectures built: %s\n", cuda_archs());
  const auto gs = gpus();
  if (gs.empty()) std::printf("GPUs: none\n");
  for (const auto& g : gs)
    std::printf("GPU %d: %s, compute capability %d.%d, %d SMs, %.1f GiB%s\n", g.ordinal, g.name.c_str(), g.compute_major,
                g.compute_minor, g.multiprocessors, static_cast<double>(g.memory_bytes) / (1024.0 * 1024.0 * 1024.0),
                g.supported ? "" : ", no argx kernels for it (see the cuda line above)");
  std::printf("dtypes:");
  for (int t = 0; t < dtype_count; ++t) std::printf(" %s", std::string(name(static_cast<dtype>(t))).c_str());
  std::printf("\n");
  return 0;
}

}  // namespace argx::cli
