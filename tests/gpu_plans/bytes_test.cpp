// The byte helpers of the GPU kernels (backends/cuda/bytes.hpp), on the host, against a
// plain byte-array model: keeping the bytes of a vector that belong to a slice, and the 16
// bytes that start anywhere in two aligned vectors.
#include <doctest/doctest.h>

#include <cstring>

#include "../../backends/cuda/bytes.hpp"
#include "random_tensor.hpp"

using namespace argx::detail::gpu;

namespace {

void words_of(const unsigned char* bytes, std::uint32_t (&w)[4]) { std::memcpy(w, bytes, 16); }

}  // namespace

TEST_CASE("bytes: keep_bytes keeps exactly [lo, hi) and fills the rest") {
  argx_test::rng r(7);
  for (int lo = 0; lo <= 16; ++lo)
    for (int hi = lo; hi <= 16; ++hi) {
      unsigned char in[16], fill[16], want[16];
      for (int i = 0; i < 16; ++i) {
        in[i] = static_cast<unsigned char>(r.below(256));
        fill[i] = static_cast<unsigned char>(r.below(256));
        want[i] = i >= lo && i < hi ? in[i] : fill[i];
      }
      std::uint32_t w[4], f[4], expect[4];
      words_of(in, w);
      words_of(fill, f);
      words_of(want, expect);
      keep_bytes(w, lo, hi, f);
      INFO("lo=", lo, " hi=", hi);
      for (int k = 0; k < 4; ++k) CHECK(w[k] == expect[k]);
    }
}

template <int Elem>
void check_funnel() {
  argx_test::rng r(11 + Elem);
  for (int trial = 0; trial < 50; ++trial) {
    unsigned char two[32];
    for (auto& b : two) b = static_cast<unsigned char>(r.below(256));
    std::uint32_t a[4], b[4];
    words_of(two, a);
    words_of(two + 16, b);
    for (int phase = 0; phase < 16; phase += Elem) {
      std::uint32_t out[4], want[4];
      funnel<Elem>(a, b, phase, out);
      words_of(two + phase, want);
      INFO("elem ", Elem, " phase ", phase);
      for (int k = 0; k < 4; ++k) CHECK(out[k] == want[k]);
    }
  }
}

TEST_CASE("bytes: funnel reads the 16 bytes at any element-aligned phase") {
  check_funnel<1>();
  check_funnel<2>();
  check_funnel<4>();
  check_funnel<8>();
}
