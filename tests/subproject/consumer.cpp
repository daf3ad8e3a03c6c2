// A consumer of argx: argmax along each row on the best backend here, checked on seq.
#include <argx/argx.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  const std::vector<float> m = {1, 7, 7, 2,  //
                                NAN, 0, 9, 9,  //
                                -0.0f, 0.0f, -1, -2};
  const auto x = argx::make_view(m, {3, 4});
  const auto fast = argx::argmax(argx::automatic, x, {.dims = {1}});
  const auto ref = argx::argmax(argx::seq, x, {.dims = {1}});
  const std::vector<std::int64_t> expected = {1, 0, 0};
  std::printf("argx %s: backends", argx::version_string);
  for (argx::backend b : argx::all_backends)
    if (argx::available(b)) std::printf(" %s", std::string(argx::name(b)).c_str());
  std::printf("\nrow argmax: %lld %lld %lld\n", (long long)fast.indices[0], (long long)fast.indices[1],
              (long long)fast.indices[2]);
  return fast.indices == expected && ref.indices == expected && fast.values == ref.values ? 0 : 1;
}
