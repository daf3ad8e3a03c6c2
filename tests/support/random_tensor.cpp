#include "random_tensor.hpp"

#include <algorithm>

#include "element_bits.hpp"
#include "reference.hpp"

namespace argx_test {

using argx::dtype;

namespace {

// Split points of the backends (warp, block, SIMD/TBB grains, serial cutoffs, par chunks).
const std::vector<std::int64_t> split_points = {32, 256, 1024, 4096, 1 << 14, 1 << 15, 1 << 16, 1 << 17};

std::uint64_t random_bits(rng& r, dtype t) {
  if (t == dtype::boolean) return r.next() & 1;
  return r.next() & width_mask(t);
}

std::uint64_t random_number_bits(rng& r, dtype t) {  // never a NaN
  for (;;) {
    const std::uint64_t b = random_bits(r, t);
    if (!is_nan(t, b)) return b;
  }
}

std::uint64_t random_nan(rng& r, dtype t) { return nan_bits(t, r.chance(0.5), r.next(), r.chance(0.8)); }

std::uint64_t random_special(rng& r, dtype t) {
  const bool neg = r.chance(0.5);
  if (argx::is_floating(t)) {
    switch (r.below(6)) {
      case 0: return zero_bits(t, neg);
      case 1: return inf_bits(t, neg);
      case 2: return min_subnormal_bits(t, neg);
      case 3: return max_subnormal_bits(t, neg);
      case 4: return max_finite_bits(t, neg);
      default: return zero_bits(t, neg) | (r.next() & float_layout_of(t).frac_mask());  // any subnormal (or zero)
    }
  }
  if (t == dtype::boolean) return r.next() & 1;
  switch (r.below(4)) {
    case 0: return int_min_bits(t);
    case 1: return int_max_bits(t);
    case 2: return 0;
    default: return width_mask(t);  // -1 for signed types, the maximum for unsigned
  }
}

}  // namespace

host_tensor random_tensor(rng& r, dtype t, const argx::shape& extents, const fill_profile& f) {
  const std::int64_t n = element_count(extents);
  std::vector<std::uint64_t> pool;
  for (int i = 0; i < std::max(1, f.pool_size); ++i) pool.push_back(random_number_bits(r, t));
  std::vector<std::uint64_t> bits(static_cast<std::size_t>(n));
  for (auto& b : bits) {
    if (argx::is_floating(t) && r.chance(f.nan_rate)) b = random_nan(r, t);
    else if (r.chance(f.special_rate)) b = random_special(r, t);
    else if (r.chance(f.tie_rate)) b = r.pick(pool);
    else b = random_bits(r, t);
  }
  if (f.boundary_peaks && n > 0) {
    // Equal copies on both sides of each split point (and at the very end): whichever
    // backend splits there must still pick the right one of the pair.
    std::uint64_t hi = pool[0], lo = pool[0];
    for (auto p : pool) {
      if (compare_values(t, p, hi, false) > 0) hi = p;
      if (compare_values(t, p, lo, false) < 0) lo = p;
    }
    std::vector<std::int64_t> spots = split_points;
    spots.push_back(n - 1);
    for (std::int64_t s : spots) {
      if (s >= n || !r.chance(0.7)) continue;
      std::uint64_t v = r.chance(0.5) ? hi : lo;
      if (r.chance(0.15)) v = argx::is_floating(t) ? random_nan(r, t) : random_special(r, t);
      bits[static_cast<std::size_t>(s)] = v;
      if (s > 0) bits[static_cast<std::size_t>(s - 1)] = r.chance(0.8) ? v : random_special(r, t);
    }
  }
  return make_tensor_bits(t, bits, extents);
}

argx::shape random_extents(rng& r, int rank, std::int64_t max_elements, double zero_rate) {
  static const std::vector<std::int64_t> choices = {1, 2, 3, 4, 5, 7, 8, 9, 13, 16, 17, 31, 32, 33,
                                                    63, 64, 65, 127, 128, 129, 255, 256, 257, 1000, 1025};
  argx::shape e;
  for (int d = 0; d < rank; ++d) e.push_back(r.pick(choices));
  while (element_count(e) > max_elements) {  // halve the longest dim until it fits
    int longest = 0;
    for (int d = 1; d < rank; ++d)
      if (e[d] > e[longest]) longest = d;
    e[longest] = std::max<std::int64_t>(1, e[longest] / 2);
  }
  for (int d = 0; d < rank; ++d)
    if (r.chance(zero_rate)) e[d] = 0;
  return e;
}

host_tensor random_view(rng& r, const host_tensor& x, std::string* how) {
  host_tensor v = x;
  const int ops = static_cast<int>(r.below(4));
  auto note = [&](const std::string& s) {
    if (how) *how += s + " ";
  };
  for (int i = 0; i < ops && v.rank() > 0; ++i) {
    const int d = static_cast<int>(r.below(v.rank()));
    const std::int64_t e = v.view.extents[d];
    switch (r.below(4)) {
      case 0: {
        if (v.rank() < 2) break;
        const int b = static_cast<int>(r.below(v.rank()));
        v = v.transposed(d, b);
        note("transpose(" + std::to_string(d) + "," + std::to_string(b) + ")");
        break;
      }
      case 1:
        v = v.flipped(d);
        note("flip(" + std::to_string(d) + ")");
        break;
      case 2: {
        if (e == 0) break;
        const std::int64_t step = 1 + static_cast<std::int64_t>(r.below(3));
        const std::int64_t begin = static_cast<std::int64_t>(r.below(static_cast<std::uint64_t>((e + 3) / 4)));
        const std::int64_t end = e - static_cast<std::int64_t>(r.below(static_cast<std::uint64_t>((e - begin) / 4 + 1)));
        v = v.sliced(d, begin, end, step);
        note("slice(" + std::to_string(d) + "," + std::to_string(begin) + "," + std::to_string(end) + "," +
             std::to_string(step) + ")");
        break;
      }
      default: {
        if (e == 0) break;
        const std::int64_t at = static_cast<std::int64_t>(r.below(static_cast<std::uint64_t>(e)));
        const std::int64_t n = 1 + static_cast<std::int64_t>(r.below(5));
        v = v.sliced(d, at, at + 1).broadcast(d, n);
        note("broadcast(" + std::to_string(d) + "," + std::to_string(at) + "," + std::to_string(n) + ")");
        break;
      }
    }
  }
  return v;
}

argx::spec random_spec(rng& r, int rank) {
  argx::spec s;
  if (rank > 0 && !r.chance(0.25)) {
    std::vector<int> dims(rank);
    for (int d = 0; d < rank; ++d) dims[d] = d;
    for (int d = rank - 1; d > 0; --d) std::swap(dims[d], dims[r.below(d + 1)]);
    const int k = 1 + static_cast<int>(r.below(rank));
    for (int i = 0; i < k; ++i) s.dims.push_back(r.chance(0.3) ? dims[i] - rank : dims[i]);
  }
  s.keepdim = r.chance(0.3);
  s.nan = r.chance(0.5) ? argx::nan_policy::ignore : argx::nan_policy::propagate;
  s.ties = r.chance(0.3) ? argx::tie_break::last : argx::tie_break::first;
  s.abs = r.chance(0.2);
  s.index = r.chance(0.3) ? argx::index_type::int32 : argx::index_type::int64;
  return s;
}

}  // namespace argx_test
