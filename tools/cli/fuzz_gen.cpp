// Case generation: shape, layout and view first, then elements with special values
// injected at random and at slice positions where parallel backends split their work.
#include "fuzz_gen.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <argx/detail/bit_layout.hpp>

namespace argx::cli {
namespace {

// Extents: small numbers, primes, and powers of two with their neighbours, up to 2^21 + 1.
constexpr std::int64_t extent_menu[] = {
    1,      2,      3,      4,      5,      7,      8,      9,      11,     13,     15,      16,      17,
    31,     32,     33,     37,     61,     63,     64,     65,     97,     127,    128,     129,     251,
    255,    256,    257,    509,    511,    512,    513,    1021,   1023,   1024,   1025,    2039,    2047,
    2048,   2049,   4093,   4095,   4096,   4097,   8191,   8192,   8193,   16381,  16383,   16384,   16385,
    32749,  32767,  32768,  32769,  65521,  65535,  65536,  65537,  131071, 131072, 131073,  262139,  262143,
    262144, 262145, 524287, 524288, 524289, 1048573, 1048575, 1048576, 1048577, 2097143, 2097151, 2097152, 2097153};

// A menu extent no larger than `limit`, roughly log-uniform.
std::int64_t pick_extent(rng& r, std::int64_t limit) {
  std::size_t n = 0;
  while (n < std::size(extent_menu) && extent_menu[n] <= limit) ++n;
  return n == 0 ? 1 : extent_menu[r.below(n)];
}

std::int64_t product(const shape& s) {
  std::int64_t p = 1;
  for (auto e : s) p *= e;
  return p;
}

// ---- elements -----------------------------------------------------------------------

std::uint64_t low_mask(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

// The per-case element source: rates already scaled, and the tie pool.
class element_source {
 public:
  element_source(dtype t, const fuzz_rates& base, rng& r) : l_(detail::bit_layout_of(t)), r_(r) {
    auto scaled = [&](double rate) {
      static constexpr double factors[] = {0, 0.2, 1, 1, 5, 40};
      return std::min(1.0, rate * factors[r_.below(std::size(factors))]);
    };
    nan_ = scaled(base.nan);
    inf_ = scaled(base.inf);
    zero_ = scaled(base.zero);
    subnormal_ = scaled(base.subnormal);
    extreme_ = scaled(base.extreme);
    tie_ = scaled(base.tie);
    const int pool_size = 1 + static_cast<int>(r_.below(3));
    for (int i = 0; i < pool_size; ++i) pool_.push_back(r_.chance(0.1) ? special() : normal());
  }

  std::uint64_t next() {
    const double u = r_.real();
    double edge = 0;
    if (l_.is_float) {
      if (u < (edge += nan_)) return nan();
      if (u < (edge += inf_)) return inf(r_.chance(0.5));
      if (u < (edge += zero_)) return zero(r_.chance(0.5));
      if (u < (edge += subnormal_)) return subnormal();
    }
    if (u < (edge += extreme_)) return extreme();
    if (u < (edge += tie_)) return tie();
    return normal();
  }

  // Something that matters for the order, for placing at boundaries.
  std::uint64_t special() {
    if (!l_.is_float) return r_.chance(0.5) ? extreme() : (pool_.empty() ? normal() : tie());
    switch (r_.below(7)) {
      case 0: case 1: return nan();
      case 2: return inf(false);
      case 3: return inf(true);
      case 4: return zero(r_.chance(0.5));
      case 5: return largest(r_.chance(0.5));
      default: return pool_.empty() ? normal() : tie();
    }
  }

  std::uint64_t tie() { return pool_[r_.below(pool_.size())]; }

 private:
  std::uint64_t nan() {
    std::uint64_t mant;
    switch (r_.below(4)) {
      case 0: mant = l_.quiet_bit(); break;  // the canonical quiet NaN
      case 1: mant = 1; break;               // a signalling NaN
      default: mant = r_.next() & l_.frac_mask(); if (!mant) mant = 1;
    }
    return l_.nan(r_.chance(0.5), mant);
  }
  std::uint64_t inf(bool negative) const { return l_.inf(negative); }
  std::uint64_t zero(bool negative) const { return l_.zero(negative); }
  std::uint64_t largest(bool negative) const { return l_.max_finite(negative); }
  std::uint64_t subnormal() {
    std::uint64_t mant = r_.next() & l_.frac_mask();
    if (!mant) mant = 1;
    return l_.zero(r_.chance(0.5)) | mant;
  }
  std::uint64_t extreme() {
    if (l_.is_bool) return 2 + r_.below(254);  // a "true" byte that is not 1
    if (l_.is_float) return largest(r_.chance(0.5));
    return r_.chance(0.5) ? l_.int_min() : l_.int_max();
  }
  std::uint64_t normal() {
    const std::uint64_t all = l_.width_mask();
    if (l_.is_bool) return r_.below(2);
    if (!l_.is_float) {
      if (r_.chance(0.4)) {  // a narrow range: natural ties
        const std::int64_t v = static_cast<std::int64_t>(r_.below(17)) - (l_.is_signed ? 8 : 0);
        return static_cast<std::uint64_t>(v) & all;
      }
      return r_.next() & all;
    }
    const std::uint64_t bias = low_mask(l_.exp_bits() - 1);
    const std::uint64_t exp = r_.chance(0.5) ? bias - 3 + r_.below(7) : 1 + r_.below(low_mask(l_.exp_bits()) - 1);
    std::uint64_t mant = r_.next() & l_.frac_mask();
    if (r_.chance(0.3)) mant &= ~low_mask(l_.frac_bits() - 2);  // few distinct mantissas: near ties
    return l_.sign(r_.chance(0.5)) | (exp << l_.frac_bits()) | mant;
  }

  detail::bit_layout l_;
  rng& r_;
  double nan_, inf_, zero_, subnormal_, extreme_, tie_;
  std::vector<std::uint64_t> pool_;
};

void store(std::vector<unsigned char>& data, std::int64_t index, std::uint64_t bits, std::size_t bytes) {
  std::memcpy(data.data() + static_cast<std::size_t>(index) * bytes, &bits, bytes);  // little-endian host
}

// ---- shape, view and spec -----------------------------------------------------------

int pick_rank(rng& r) {
  static constexpr int weights[] = {5, 25, 25, 20, 12, 8, 5};  // ranks 0..6, percent
  int u = static_cast<int>(r.below(100));
  for (int k = 0; k < 7; ++k)
    if ((u -= weights[k]) < 0) return k;
  return 6;
}

std::int64_t pick_budget(rng& r, std::int64_t max_elements) {
  const double u = r.real();
  const std::int64_t b = u < 0.5 ? 64 : u < 0.8 ? 4096 : u < 0.97 ? (std::int64_t(1) << 17) : max_elements;
  return std::max<std::int64_t>(1, std::min(b, max_elements));
}

shape pick_view_extents(rng& r, int rank, std::int64_t budget) {
  shape v;
  for (int d = 0; d < rank; ++d) v.push_back(1);
  // Dims in random order, each log-uniform within what the budget leaves.
  int order[max_rank];
  for (int d = 0; d < rank; ++d) order[d] = d;
  for (int d = rank - 1; d > 0; --d) std::swap(order[d], order[r.below(d + 1)]);
  std::int64_t used = 1;
  for (int k = 0; k < rank; ++k) {
    const std::int64_t remaining = budget / used;
    const auto limit = static_cast<std::int64_t>(std::pow(static_cast<double>(remaining), r.real()));
    v[order[k]] = pick_extent(r, std::max<std::int64_t>(1, limit));
    used *= v[order[k]];
  }
  if (rank > 0 && r.chance(0.03)) v[r.below(rank)] = 0;
  return v;
}

// View transforms chosen backwards from the view's extents, so the base array is as large
// as they need and the view ends up with exactly `view_extents`.
std::vector<view_op> pick_view_ops(rng& r, shape& extents, std::int64_t budget) {
  std::vector<view_op> backwards;
  const int rank = extents.size();
  if (rank == 0 || r.chance(0.4)) return {};
  const int count = 1 + static_cast<int>(r.below(4));
  auto any_dim = [&] { return static_cast<int>(r.below(rank)); };
  auto spelled = [&](int d) { return r.chance(0.2) ? d - rank : d; };  // negative dims too
  for (int i = 0; i < count; ++i) {
    view_op op;
    switch (r.below(4)) {
      case 0:
        if (rank < 2) continue;
        op.what = view_op::kind::transpose;
        op.dim = any_dim();
        op.dim2 = any_dim();
        std::swap(extents[op.dim], extents[op.dim2]);
        break;
      case 1:
        op.what = view_op::kind::flip;
        op.dim = any_dim();
        break;
      case 2: {
        op.what = view_op::kind::slice;
        op.dim = any_dim();
        static constexpr std::int64_t steps[] = {1, 1, 2, 3, 5};
        op.step = steps[r.below(std::size(steps))];
        op.start = static_cast<std::int64_t>(r.below(4));
        const std::int64_t n = extents[op.dim];
        op.stop = op.start + (n > 0 ? (n - 1) * op.step + 1 : 0);
        const std::int64_t before = op.stop + static_cast<std::int64_t>(r.below(3));
        if (product(extents) / std::max<std::int64_t>(1, n) * before > 4 * std::max<std::int64_t>(budget, 64)) continue;
        extents[op.dim] = before;
        break;
      }
      default:
        op.what = view_op::kind::broadcast;
        op.dim = any_dim();
        op.count = extents[op.dim];
        extents[op.dim] = 1;
        break;
    }
    op.dim = spelled(op.dim);
    op.dim2 = spelled(op.dim2);
    backwards.push_back(op);
  }
  return {backwards.rbegin(), backwards.rend()};
}

argx::spec pick_spec(rng& r, int rank, double invalid_rate) {
  argx::spec s;
  if (rank > 0 && !r.chance(0.3)) {
    int dims[max_rank];
    int n = 0;
    for (int d = 0; d < rank; ++d)
      if (r.chance(0.5)) dims[n++] = d;
    if (n == 0) dims[n++] = static_cast<int>(r.below(rank));
    for (int i = n - 1; i > 0; --i) std::swap(dims[i], dims[r.below(i + 1)]);
    for (int i = 0; i < n; ++i) s.dims.push_back(r.chance(0.3) ? dims[i] - rank : dims[i]);
  }
  if (r.chance(invalid_rate)) {
    if (!s.dims.empty() && r.chance(0.5) && s.dims.size() < max_rank) {
      const int d = s.dims[static_cast<int>(r.below(s.dims.size()))];
      s.dims.push_back(r.chance(0.5) ? d : (d < 0 ? d + rank : d - rank));  // the same dim again
    } else if (s.dims.size() < max_rank) {
      const int beyond = rank + static_cast<int>(r.below(3));
      s.dims.push_back(r.chance(0.5) ? beyond : -beyond - 1);  // out of range
    }
  }
  s.keepdim = r.chance(0.5);
  s.nan = r.chance(0.5) ? nan_policy::ignore : nan_policy::propagate;
  s.ties = r.chance(0.5) ? tie_break::last : tie_break::first;
  s.abs = r.chance(0.25);
  s.index = r.chance(0.3) ? index_type::int32 : index_type::int64;
  return s;
}

// Slice positions where warps, blocks, SIMD registers, grains and chunks begin and end.
std::vector<std::int64_t> boundary_positions(std::int64_t n, rng& r) {
  std::vector<std::int64_t> out = {0, 1, 2, n / 2, n - 2, n - 1};
  for (int k = 3; k <= 22; ++k)
    for (std::int64_t d : {-1, 0, 1}) out.push_back((std::int64_t(1) << k) + d);
  for (std::int64_t unit : {std::int64_t(1) << 14, std::int64_t(1) << 15, std::int64_t(1) << 16})
    if (n > unit) {
      const std::int64_t m = 1 + static_cast<std::int64_t>(r.below(n / unit));
      for (std::int64_t d : {-1, 0, 1}) out.push_back(m * unit + d);
    }
  std::erase_if(out, [&](std::int64_t p) { return p < 0 || p >= n; });
  return out;
}

}  // namespace

fuzz_case generate_case(std::uint64_t seed, std::uint64_t index, const fuzz_rates& rates) {
  rng r(seed * 0x2545F4914F6CDD1Dull + index * 0x9E3779B97F4A7C15ull + 1);
  (void)r.next();
  fuzz_case c;
  c.type = static_cast<dtype>(r.below(dtype_count));
  const int rank = pick_rank(r);
  const std::int64_t budget = pick_budget(r, rates.max_elements);
  c.extents = pick_view_extents(r, rank, budget);
  c.reduction.view = pick_view_ops(r, c.extents, budget);
  c.fortran = rank > 1 && r.chance(0.25);
  c.reduction.op = r.chance(0.5) ? op::argmin : op::argmax;
  c.reduction.spec = pick_spec(r, rank, rates.invalid);

  element_source src(c.type, rates, r);
  const std::size_t bytes = size_of(c.type);
  const std::int64_t n = c.base_count();
  c.data.resize(static_cast<std::size_t>(n) * bytes);
  for (std::int64_t i = 0; i < n; ++i) store(c.data, i, src.next(), bytes);

  if (r.chance(rates.boundary)) {
    try {
      const tensor_view v = c.view();
      const argx::detail::plan p = argx::detail::make_plan(v, c.reduction.op, c.reduction.spec);
      if (p.outputs > 0) {
        const std::int64_t origin = (static_cast<const unsigned char*>(v.data) - c.data.data()) / static_cast<std::int64_t>(bytes);
        const auto positions = boundary_positions(p.reduce_size, r);
        const int placements = 1 + static_cast<int>(r.below(8));
        for (int k = 0; k < placements; ++k) {
          const std::int64_t o = static_cast<std::int64_t>(r.below(p.outputs));
          const std::int64_t pos = positions[r.below(positions.size())];
          store(c.data, origin + argx::detail::kept_offset(p, o) + argx::detail::reduced_offset(p, pos), src.special(), bytes);
        }
      }
    } catch (const error&) {
      // An invalid case (empty reduction, bad dim): nothing to place; it tests error parity.
    }
  }
  return c;
}

}  // namespace argx::cli
