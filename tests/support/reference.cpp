#include "reference.hpp"

#include <cmath>

#include "element_bits.hpp"

namespace argx_test {

using argx::dtype;

int compare_values(dtype t, std::uint64_t a, std::uint64_t b, bool abs) {
  auto sign3 = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
  if (argx::is_floating(t)) {  // doubles hold every f16/bf16/f32/f64 value exactly; -0 == +0
    double x = float_value(t, a), y = float_value(t, b);
    if (abs) { x = std::fabs(x); y = std::fabs(y); }
    return sign3(x, y);
  }
  if (t == dtype::boolean) return sign3(a != 0, b != 0);  // any nonzero byte is true, as in numpy
  const bool is_signed = t == dtype::i8 || t == dtype::i16 || t == dtype::i32 || t == dtype::i64;
  if (!is_signed) return sign3(unsigned_value(t, a), unsigned_value(t, b));
  const std::int64_t x = signed_value(t, a), y = signed_value(t, b);
  if (!abs) return sign3(x, y);
  auto magnitude = [](std::int64_t v) { return v < 0 ? std::uint64_t(0) - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v); };
  return sign3(magnitude(x), magnitude(y));
}

namespace {

// Rule by rule: does the element at a later position (b) replace the current best (a)?
bool later_replaces(dtype t, std::uint64_t a, std::uint64_t b, argx::op o, const argx::spec& s) {
  const bool ties_last = s.ties == argx::tie_break::last;
  const bool a_nan = is_nan(t, a), b_nan = is_nan(t, b);
  if (a_nan || b_nan) {
    if (a_nan && b_nan) return ties_last;                     // NaN vs NaN: a tie
    if (s.nan == argx::nan_policy::propagate) return b_nan;   // NaN beats every number
    return a_nan;                                             // ignore: a number beats NaN
  }
  int c = compare_values(t, a, b, s.abs);  // a vs b
  if (o == argx::op::argmin) c = -c;
  return c < 0 || (c == 0 && ties_last);
}

// Advances a row-major odometer over `extents`; false when it wraps.
bool next_index(argx::shape& idx, const argx::shape& extents) {
  for (int d = extents.size() - 1; d >= 0; --d) {
    if (++idx[d] < extents[d]) return true;
    idx[d] = 0;
  }
  return false;
}

}  // namespace

reference_answer reference_reduce(argx::op o, const host_tensor& x, const argx::spec& s) {
  const int rank = x.rank();
  bool reduced[argx::max_rank] = {};
  if (s.dims.empty())
    for (int d = 0; d < rank; ++d) reduced[d] = true;
  for (int d : s.dims) reduced[d < 0 ? d + rank : d] = true;

  argx::shape kept_ext, kept_str, red_ext, red_str;
  reference_answer r;
  for (int d = 0; d < rank; ++d) {
    if (reduced[d]) {
      red_ext.push_back(x.view.extents[d]);
      red_str.push_back(x.view.strides[d]);
      if (s.keepdim) r.extents.push_back(1);
    } else {
      kept_ext.push_back(x.view.extents[d]);
      kept_str.push_back(x.view.strides[d]);
      r.extents.push_back(x.view.extents[d]);
    }
  }
  const std::int64_t outputs = element_count(kept_ext);
  const std::int64_t width = static_cast<std::int64_t>(argx::size_of(x.type()));
  auto element = [&](std::int64_t offset) {
    return load_bits(x.type(), static_cast<const char*>(x.view.data) + offset * width);
  };

  argx::shape kidx;
  for (int i = 0; i < kept_ext.size(); ++i) kidx.push_back(0);
  for (std::int64_t out = 0; out < outputs; ++out, next_index(kidx, kept_ext)) {
    std::int64_t base = 0;
    for (int i = 0; i < kept_ext.size(); ++i) base += kidx[i] * kept_str[i];
    argx::shape ridx;
    for (int i = 0; i < red_ext.size(); ++i) ridx.push_back(0);
    std::int64_t best_pos = 0, pos = 0;
    std::uint64_t best = element(base);
    do {
      std::int64_t off = base;
      for (int i = 0; i < red_ext.size(); ++i) off += ridx[i] * red_str[i];
      const std::uint64_t v = element(off);
      if (pos > 0 && later_replaces(x.type(), best, v, o, s)) {
        best = v;
        best_pos = pos;
      }
      ++pos;
    } while (next_index(ridx, red_ext));
    const bool all_nan = s.nan == argx::nan_policy::ignore && is_nan(x.type(), best);
    r.indices.push_back(all_nan ? -1 : best_pos);
    r.value_bits.push_back(best);
  }
  return r;
}

}  // namespace argx_test
