// libFuzzer target: arbitrary bytes as a reduction request (dtype, extents, strides,
// sometimes a numpy slice of them, dims, options, output shape). Validation must refuse it with an argx::error or accept
// it; an accepted request whose every reachable element lies inside a small buffer is
// run on seq and checked against a naive reference that walks the original extents and
// strides (no plan simplification), with guard bytes around the outputs. Requests that
// reach outside the buffer are only planned, so every ASan report is a real bug.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include <argx/argx.hpp>

#include "../../backends/common/visit_dtype.hpp"

namespace {

constexpr std::int64_t buffer_elements = 4096;  // the backing buffer, in elements
constexpr std::int64_t work_limit = 1 << 13;     // elements visited per request
constexpr std::size_t guard = 32;

void require(bool ok) {
  if (!ok) __builtin_trap();
}

std::int64_t pick(FuzzedDataProvider& in, std::int64_t small_lo, std::int64_t small_hi) {
  // Mostly small values; sometimes anything at all (negative, huge, INT64_MIN).
  return in.ConsumeIntegralInRange<int>(0, 7) == 0 ? in.ConsumeIntegral<std::int64_t>()
                                                    : in.ConsumeIntegralInRange<std::int64_t>(small_lo, small_hi);
}

// The element offsets a view can reach: [lo, hi], or empty (`none`) when an extent is 0.
struct reach {
  bool none = false;
  __int128 lo = 0, hi = 0;
};
reach reach_of(const argx::tensor_view& v) {
  reach r;
  for (int d = 0; d < v.rank(); ++d) {
    if (v.extents[d] == 0) r.none = true;
    const __int128 span = static_cast<__int128>(v.strides[d]) * (v.extents[d] - 1);
    (span < 0 ? r.lo : r.hi) += span;
  }
  return r;
}

// The naive reference: every output, every reduced position in row-major order over the
// reduced dims (ascending), offsets from the original extents and strides.
template <argx::dtype D>
void naive(const argx::tensor_view& x, argx::op o, const argx::spec& s, std::vector<std::int64_t>& idx,
           std::vector<unsigned char>& vals) {
  using tr = argx::dtype_traits<D>;
  using B = typename tr::bits_type;
  const int rank = x.rank();
  bool red[argx::max_rank] = {};
  for (int d = 0; d < rank; ++d) red[d] = s.dims.empty();
  for (int d : s.dims) red[d < 0 ? d + rank : d] = true;
  std::vector<int> kept, reduced;
  for (int d = 0; d < rank; ++d) (red[d] ? reduced : kept).push_back(d);
  std::int64_t outputs = 1, positions = 1;
  for (int d : kept) outputs *= x.extents[d];
  for (int d : reduced) positions *= x.extents[d];
  const argx::key_params kp{o == argx::op::argmin, s.abs, s.nan == argx::nan_policy::ignore};
  const bool last = s.ties == argx::tie_break::last;
  auto bits_at = [&](std::int64_t off) {
    B b;
    std::memcpy(&b, static_cast<const char*>(x.data) + off * static_cast<std::int64_t>(sizeof(B)), sizeof(B));
    return b;
  };
  for (std::int64_t out = 0; out < outputs; ++out) {
    std::int64_t base = 0, rest = out;
    for (int k = static_cast<int>(kept.size()) - 1; k >= 0; --k) {
      base += (rest % x.extents[kept[k]]) * x.strides[kept[k]];
      rest /= x.extents[kept[k]];
    }
    argx::candidate<typename tr::key_type> best{};
    std::int64_t best_off = 0;
    for (std::int64_t p = 0; p < positions; ++p) {
      std::int64_t off = base, r = p;
      for (int k = static_cast<int>(reduced.size()) - 1; k >= 0; --k) {
        off += (r % x.extents[reduced[k]]) * x.strides[reduced[k]];
        r /= x.extents[reduced[k]];
      }
      const argx::candidate<typename tr::key_type> c{argx::order_key<D>(bits_at(off), kp), p};
      if (p == 0 || argx::beats(c.key, c.pos, best.key, best.pos, last)) {
        best = c;
        best_off = off;
      }
    }
    idx.push_back(argx::reported_index(best, kp, tr::is_float));
    const B b = bits_at(best_off);
    const auto* bp = reinterpret_cast<const unsigned char*>(&b);
    vals.insert(vals.end(), bp, bp + sizeof(B));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const auto type = static_cast<argx::dtype>(in.ConsumeIntegralInRange<int>(0, argx::dtype_count + 2));
  const int rank = in.ConsumeIntegralInRange<int>(0, argx::max_rank + 1);
  const auto o = in.ConsumeBool() ? argx::op::argmin : argx::op::argmax;
  argx::spec s;
  s.keepdim = in.ConsumeBool();
  s.nan = in.ConsumeBool() ? argx::nan_policy::ignore : argx::nan_policy::propagate;
  s.ties = in.ConsumeBool() ? argx::tie_break::last : argx::tie_break::first;
  s.abs = in.ConsumeBool();
  s.index = in.ConsumeBool() ? argx::index_type::int32 : argx::index_type::int64;
  const int ndims = in.ConsumeIntegralInRange<int>(0, 5);
  const bool mangle_output = in.ConsumeIntegralInRange<int>(0, 9) == 0;

  // The backing buffer: element bits from the input, the rest a fixed pattern.
  const std::size_t elem = argx::size_of(type) ? argx::size_of(type) : 1;
  std::vector<unsigned char> buffer(static_cast<std::size_t>(buffer_elements) * elem);
  for (std::size_t i = 0; i < buffer.size(); ++i) buffer[i] = static_cast<unsigned char>(i * 131 + 7);

  argx::tensor_view x;
  try {
    argx::shape ext, str;
    for (int d = 0; d < rank; ++d) {
      ext.push_back(pick(in, 0, 9));
      str.push_back(pick(in, -12, 12));
    }
    for (int i = 0; i < ndims; ++i) s.dims.push_back(static_cast<int>(pick(in, -8, 8)));
    x = argx::make_view(buffer.data(), type, ext, str);
    if (rank > 0 && in.ConsumeIntegralInRange<int>(0, 3) == 0) {
      // A numpy slice with any bounds and step: the new view must lie inside the old one.
      const int d = in.ConsumeIntegralInRange<int>(0, rank - 1);
      const std::int64_t begin = pick(in, -12, 12), end = pick(in, -12, 12), step = pick(in, -5, 5);
      const argx::tensor_view sl = x.sliced(d, begin, end, step);
      require(sl.extents[d] >= 0 && sl.extents[d] <= x.extents[d]);
      // Only a view make_plan accepts is one (its offsets fit); the others are refused below.
      const bool valid = [&] {
        try {
          (void)argx::detail::make_plan(x, o, {});
          return true;
        } catch (const argx::error&) {
          return false;
        }
      }();
      const reach outer = valid ? reach_of(x) : reach{}, inner = valid ? reach_of(sl) : reach{};
      if (valid && !inner.none) {
        const __int128 shift = (static_cast<const char*>(sl.data) - static_cast<const char*>(x.data)) /
                               static_cast<std::ptrdiff_t>(elem);
        require(shift + inner.lo >= outer.lo && shift + inner.hi <= outer.hi);
      }
      x = sl;
    }
  } catch (const argx::error&) {
    return 0;  // refused while building the request: more than max_rank dims, a zero step, ...
  }
  const std::vector<unsigned char> tail = in.ConsumeRemainingBytes<unsigned char>();
  if (!tail.empty()) std::memcpy(buffer.data(), tail.data(), std::min(tail.size(), buffer.size()));

  argx::detail::plan p;
  try {
    p = argx::detail::make_plan(x, o, s);
  } catch (const argx::error&) {
    return 0;  // refused: fine, as long as it is an argx::error
  }
  // Accepted: the plan must describe the same reduction.
  std::int64_t outputs = 1;
  for (auto e : p.out_extents) outputs *= e;
  require(outputs == p.outputs);
  std::int64_t kept = 1, red = 1;
  for (auto e : p.kept_extents) kept *= e;
  for (auto e : p.reduced_extents) red *= e;
  require(kept == p.outputs && red == p.reduce_size);

  const reach r = reach_of(x);
  if (!r.none && r.hi - r.lo >= buffer_elements) return 0;  // reaches outside the buffer: plan only
  if (p.outputs > work_limit || (p.outputs > 0 && p.reduce_size > work_limit / p.outputs)) return 0;
  if (!r.none) x.data = buffer.data() + static_cast<std::int64_t>(-r.lo) * static_cast<std::int64_t>(elem);

  // Caller-owned outputs with guard bytes; the index type as asked.
  const std::size_t isize = s.index == argx::index_type::int64 ? 8 : 4;
  const std::size_t n = static_cast<std::size_t>(p.outputs);
  std::vector<unsigned char> ibuf(n * isize + 2 * guard, 0xA5), vbuf(n * elem + 2 * guard, 0xA5);
  argx::shape out_ext = p.out_extents;
  if (mangle_output) {
    if (out_ext.empty()) out_ext.push_back(1);
    else out_ext[0] += 1;
  }
  const auto iv = argx::make_output(ibuf.data() + guard, isize == 8 ? argx::dtype::i64 : argx::dtype::i32, out_ext);
  const auto vv = argx::make_output(vbuf.data() + guard, type, out_ext);
  try {
    argx::reduce(argx::seq, o, x, iv, &vv, s);
    require(!mangle_output);  // a wrong output shape must be refused
  } catch (const argx::error& e) {
    require(mangle_output && e.code() == argx::errc::bad_output);
    for (unsigned char b : ibuf) require(b == 0xA5);  // nothing written on error
    for (unsigned char b : vbuf) require(b == 0xA5);
    return 0;
  }
  for (std::size_t g = 0; g < guard; ++g) {
    require(ibuf[g] == 0xA5 && ibuf[guard + n * isize + g] == 0xA5);
    require(vbuf[g] == 0xA5 && vbuf[guard + n * elem + g] == 0xA5);
  }

  std::vector<std::int64_t> want;
  std::vector<unsigned char> want_vals;
  argx::detail::visit_dtype(type, [&](auto d) { naive<decltype(d)::value>(x, o, s, want, want_vals); });
  require(want.size() == n);
  for (std::size_t i = 0; i < n; ++i) {
    std::int64_t got;
    if (isize == 8) {
      std::memcpy(&got, ibuf.data() + guard + i * 8, 8);
    } else {
      std::int32_t g32;
      std::memcpy(&g32, ibuf.data() + guard + i * 4, 4);
      got = g32;
    }
    require(got == want[i]);
  }
  require(n == 0 || std::memcmp(vbuf.data() + guard, want_vals.data(), n * elem) == 0);
  return 0;
}
