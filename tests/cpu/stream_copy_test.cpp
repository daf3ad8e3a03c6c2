// The tbb backend's streaming copy (backends/cpu/stream_copy.hpp): every byte of the range
// copied, none around it touched, whatever the alignment of either end and the length
// (the whole lines stored past the caches, the rest as a plain copy).
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "../../backends/cpu/stream_copy.hpp"

TEST_CASE("stream copy: every length up to 5 lines, every destination and source alignment") {
  constexpr int guard = 70;
  std::vector<char> src(512), dst(512 + 2 * guard + 64);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<char>(i * 7 + 3);
  // dst's first guard byte on a line, so that `misaligned` is the destination's offset in its line.
  char* base = dst.data() + ((64 - static_cast<int>(reinterpret_cast<std::uintptr_t>(dst.data()) & 63)) & 63);
  int checked = 0;
  for (int misaligned = 0; misaligned < 64; ++misaligned)
    for (int from = 0; from < 16; from += 5)
      for (std::int64_t n = 0; n <= 5 * 64 + 1; ++n) {
        for (int i = 0; i < 2 * guard + 5 * 64 + 1; ++i) base[i] = static_cast<char>(0x5a);
        char* to = base + guard + misaligned;
        argx::detail::cpu::copy_streaming(to, src.data() + from, n);
        argx::detail::cpu::stream_fence();
        bool ok = true;
        for (std::int64_t i = 0; i < n; ++i) ok &= to[i] == src[static_cast<std::size_t>(from + i)];
        for (char* p = base; p < to; ++p) ok &= *p == static_cast<char>(0x5a);
        for (char* p = to + n; p < base + 2 * guard + 5 * 64 + 1; ++p) ok &= *p == static_cast<char>(0x5a);
        if (!ok) FAIL("misaligned " << misaligned << ", source offset " << from << ", " << n << " bytes");
        ++checked;
      }
  CHECK(checked == 64 * 4 * (5 * 64 + 2));
}
