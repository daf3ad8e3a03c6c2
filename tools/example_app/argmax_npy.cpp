// A portable application: reads a .npy file and prints its argmax over all dims and along
// each dim. It asks for argx::automatic with transfers allowed, so the same binary runs the
// CUDA backend on a GPU machine and the best CPU backend elsewhere — and, because every
// argx backend returns the same bits, prints the same output on both.
//
//   argx-argmax-npy INPUT.npy        (the backend used goes to stderr, the results to stdout)
#include <cstdio>
#include <string>

#include <argx/argx.hpp>

#include "npy.hpp"

namespace {

void print_result(const char* what, const argx::result& r) {
  std::printf("%s:", what);
  for (std::int64_t i : r.indices) std::printf(" %lld", static_cast<long long>(i));
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s INPUT.npy\n", argv[0]);
    return 2;
  }
  try {
    const argx::npy::array a = argx::npy::read(argv[1]);
    const argx::tensor_view x = a.view();
    const auto policy = argx::automatic.allowing_transfer();
    std::fprintf(stderr, "backend: %s\n", argx::available(argx::backend::cuda) ? "cuda" : "cpu");
    print_result("all dims", argx::argmax(policy, x));
    for (int d = 0; d < x.rank(); ++d) {
      print_result(("dim " + std::to_string(d)).c_str(), argx::argmax(policy, x, {.dims = {d}}));
      print_result(("dim " + std::to_string(d) + " nan=ignore").c_str(),
                   argx::argmax(policy, x, {.dims = {d}, .nan = argx::nan_policy::ignore}));
    }
    return 0;
  } catch (const argx::error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
