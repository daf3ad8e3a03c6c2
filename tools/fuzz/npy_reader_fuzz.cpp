// libFuzzer target: arbitrary bytes as a .npy file. The reader must either raise an
// argx::error or return an array whose bytes match its header; an accepted array must
// survive a write/read round trip unchanged and reduce on seq without incident.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <argx/argx.hpp>

#include "npy.hpp"

namespace {

void require(bool ok) {
  if (!ok) __builtin_trap();
}

void exercise(const argx::npy::array& a) {
  const std::int64_t count = a.count();
  require(a.bytes.size() == static_cast<std::size_t>(count) * argx::size_of(a.type));

  // Round trip: what argx writes, argx reads back identically.
  const auto again = argx::npy::serialize(a.view(), {.fortran_order = a.fortran_order});
  const argx::npy::array b = argx::npy::parse(again);
  require(b.type == a.type && b.extents == a.extents && b.fortran_order == a.fortran_order && b.bytes == a.bytes);

  // Reductions: over everything, and along the first and the last dim.
  const argx::spec specs[] = {{}, {.dims = {0}, .nan = argx::nan_policy::ignore}, {.dims = {-1}, .keepdim = true,
                                                                                     .ties = argx::tie_break::last}};
  for (const auto& s : specs) {
    try {
      const argx::result r = argx::argmax(argx::seq, a.view(), s);
      for (std::int64_t i : r.indices) require(i >= -1 && i < (count ? count : 1));
    } catch (const argx::error& e) {
      // Legitimate refusals of a well-formed array: empty reduction, bad dim on rank 0, a
      // zero-size array whose shape overflows byte offsets.
      require(e.code() == argx::errc::empty_reduction || e.code() == argx::errc::bad_dim ||
              e.code() == argx::errc::shape_overflow);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const unsigned char> file(data, size);
  for (bool bf16 : {false, true}) {
    try {
      exercise(argx::npy::parse(file, {.bf16 = bf16}));
    } catch (const argx::error& e) {
      require(e.code() == argx::errc::bad_npy || e.code() == argx::errc::unsupported_dtype ||
              e.code() == argx::errc::bad_shape);
    }
  }
  return 0;
}
