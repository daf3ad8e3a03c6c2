// splitmix64: the one seeded generator of argx's tests, tools and benchmarks. A fixed
// algorithm (no <random> distributions, whose output differs between standard libraries),
// so a seed names the same cases on every platform.
#pragma once

#include <cstdint>

namespace argx::detail {

class splitmix64 {
 public:
  explicit splitmix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, n) (n > 0), without modulo bias worth the name.
  std::uint64_t below(std::uint64_t n) {
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64);
  }
  /// Uniform in [0, 1).
  double real() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  bool chance(double p) { return real() < p; }

 private:
  std::uint64_t state_;
};

}  // namespace argx::detail
