// The sweep's case generator (see sweep_cases.hpp).
#include "sweep_cases.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <argx/detail/splitmix64.hpp>

namespace argx::sweep {
namespace {

using rng = argx::detail::splitmix64;

constexpr argx::dtype all_types[] = {dtype::f16, dtype::bf16, dtype::f32, dtype::f64, dtype::i8,  dtype::i16, dtype::i32,
                                     dtype::i64, dtype::u8,   dtype::u16,  dtype::u32, dtype::u64, dtype::boolean};

bool is_prime(std::int64_t n) {
  if (n < 2) return false;
  for (std::int64_t d = 2; d * d <= n; ++d)
    if (n % d == 0) return false;
  return true;
}

std::int64_t log_uniform(rng& r, double lo, double hi) {
  if (hi <= lo) return static_cast<std::int64_t>(std::llround(lo));
  return static_cast<std::int64_t>(std::llround(std::exp(std::log(lo) + r.real() * (std::log(hi) - std::log(lo)))));
}

// An extent near `target`, at least `lo`: often a prime or 2^k +- 1, the extents that
// defeat alignment assumptions; sometimes a power of two or the target itself.
std::int64_t odd_extent(rng& r, double target, std::int64_t lo) {
  const std::int64_t t = std::max<std::int64_t>(lo, std::llround(target));
  const double u = r.real();
  if (u < 0.3 && t < (std::int64_t(1) << 40)) {
    std::int64_t p = t;
    while (!is_prime(p)) ++p;
    return p;
  }
  const std::int64_t pow2 = std::int64_t(1) << std::max(0, static_cast<int>(std::lround(std::log2(static_cast<double>(t)))));
  if (u < 0.55) return std::max(lo, pow2 + (r.chance(0.5) ? 1 : -1));
  if (u < 0.7) return std::max(lo, pow2);
  return t;
}

// `n` extents, each at least `lo`, whose product is near `total`, split at random.
std::vector<std::int64_t> split_extents(rng& r, double total, int n, std::int64_t lo) {
  std::vector<double> w(static_cast<std::size_t>(n));
  for (double& x : w) x = -std::log(1.0 - r.real()) + 0.05;
  const double sum = std::accumulate(w.begin(), w.end(), 0.0);
  std::vector<std::int64_t> e;
  for (double x : w) e.push_back(odd_extent(r, std::pow(std::max(total, 1.0), x / sum), lo));
  return e;
}

std::vector<std::int64_t> contiguous(const std::vector<std::int64_t>& ext) {
  std::vector<std::int64_t> s(ext.size(), 1);
  for (int d = static_cast<int>(ext.size()) - 2; d >= 0; --d) s[d] = s[d + 1] * ext[d + 1];
  return s;
}

std::int64_t product(const std::vector<std::int64_t>& v) {
  return std::accumulate(v.begin(), v.end(), std::int64_t(1), std::multiplies<>());
}

// The logical shape and reduced dims of one kind, with about `n` elements.
void shape_of_kind(rng& r, const std::string& kind, double n, const sweep_limits& lim, std::vector<std::int64_t>& ext,
                   std::vector<int>& dims) {
  ext.clear();
  dims.clear();
  const double min_reduce = std::max(2.0, n / static_cast<double>(lim.max_outputs));
  if (kind == "flat") {
    ext = split_extents(r, n, 1 + static_cast<int>(r.below(4)), 2);
  } else if (kind == "rows") {
    const int rank = 2 + static_cast<int>(r.below(4));
    const std::int64_t len = odd_extent(r, static_cast<double>(log_uniform(r, min_reduce, n / 2)), 2);
    ext = split_extents(r, n / static_cast<double>(len), rank - 1, 2);
    ext.push_back(len);
    dims.push_back(r.chance(0.5) ? rank - 1 : -1);
  } else if (kind == "strided") {
    const int rank = 2 + static_cast<int>(r.below(4));
    const int d = static_cast<int>(r.below(static_cast<std::uint64_t>(rank - 1)));  // never the last dim
    const double inner = static_cast<double>(log_uniform(r, 2, std::max(2.0, n / 4)));
    const double reduce = d == 0 ? n / inner : static_cast<double>(log_uniform(r, min_reduce, std::max(min_reduce, n / inner / 2)));
    const double outer = std::max(2.0, n / inner / reduce);
    if (d > 0) ext = split_extents(r, outer, d, 2);
    ext.push_back(odd_extent(r, reduce, 2));
    for (std::int64_t e : split_extents(r, inner, rank - 1 - d, 2)) ext.push_back(e);
    dims.push_back(d);
  } else {  // multi: two or three reduced dims, no two adjacent (they would merge)
    const int rank = 3 + static_cast<int>(r.below(3));
    std::vector<std::vector<int>> choices;
    for (int a = 0; a < rank; ++a)
      for (int b = a + 2; b < rank; ++b) {
        choices.push_back({a, b});
        for (int c = b + 2; c < rank; ++c) choices.push_back({a, b, c});
      }
    dims = choices[r.below(choices.size())];
    ext = split_extents(r, n, rank, 2);
  }
}

}  // namespace

std::int64_t sweep_case::outputs() const {
  std::int64_t n = 1;
  const int rank = static_cast<int>(extents.size());
  for (int d = 0; d < rank; ++d) {
    bool reduced = dims.empty();
    for (int x : dims) reduced = reduced || (x < 0 ? x + rank : x) == d;
    if (!reduced) n *= extents[d];
  }
  return n;
}

argx::spec sweep_case::spec() const {
  argx::spec s;
  for (int d : dims) s.dims.push_back(d);
  return s;
}

argx::tensor_view sweep_case::view_of(const void* buffer, argx::memory_space space) const {
  argx::shape e, s;
  for (std::size_t d = 0; d < extents.size(); ++d) {
    e.push_back(extents[d]);
    s.push_back(strides[d]);
  }
  const char* base = static_cast<const char*>(buffer) + offset * static_cast<std::int64_t>(size_of(type));
  return argx::make_view(base, type, e, s, space);
}

std::string sweep_case::describe() const {
  std::string s = std::string(name(type)) + " " + kind + " (";
  for (std::size_t d = 0; d < extents.size(); ++d) s += (d ? ", " : "") + std::to_string(extents[d]);
  s += ") strides (";
  for (std::size_t d = 0; d < strides.size(); ++d) s += (d ? ", " : "") + std::to_string(strides[d]);
  s += ") dims {";
  for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  s += "} " + view;
  if (offset % 16 != 0) s += " +" + std::to_string(offset % 16);
  return s + (op == op::argmin ? " argmin" : " argmax");
}

std::vector<sweep_case> make_sweep(std::uint64_t seed, int count, const sweep_limits& lim) {
  rng r(seed);
  std::vector<sweep_case> out;
  // Kinds and views in fixed proportions: views are applied on top of any kind.
  const std::vector<std::pair<const char*, double>> kinds = {{"flat", 0.15}, {"rows", 0.35}, {"strided", 0.3}, {"multi", 0.2}};
  const std::vector<std::pair<const char*, double>> views = {
      {"plain", 0.45}, {"transposed", 0.15}, {"sliced", 0.15}, {"negative", 0.12}, {"broadcast", 0.13}};
  auto pick = [&](const std::vector<std::pair<const char*, double>>& v) {
    double u = r.real();
    for (const auto& [name, w] : v) {
      if (u < w) return std::string(name);
      u -= w;
    }
    return std::string(v.back().first);
  };
  while (static_cast<int>(out.size()) < count) {
    sweep_case c;
    c.id = static_cast<int>(out.size());
    c.type = all_types[r.below(std::size(all_types))];
    c.op = r.chance(0.5) ? op::argmax : op::argmin;
    c.kind = pick(kinds);
    c.view = pick(views);
    const std::int64_t elem = static_cast<std::int64_t>(size_of(c.type));
    const double n = static_cast<double>(log_uniform(r, static_cast<double>(lim.min_bytes), static_cast<double>(lim.max_bytes))) / elem;
    std::vector<std::int64_t> ext;
    shape_of_kind(r, c.kind, n, lim, ext, c.dims);
    const int rank = static_cast<int>(ext.size());

    // The base tensor the view is taken from, and the view's strides into it.
    std::vector<std::int64_t> base = ext, strides;
    std::int64_t offset = 0;
    if (c.view == "transposed" && rank >= 2) {
      std::vector<int> perm(static_cast<std::size_t>(rank));
      std::iota(perm.begin(), perm.end(), 0);
      if (r.chance(0.3)) {
        std::reverse(perm.begin(), perm.end());
      } else {
        const int a = static_cast<int>(r.below(static_cast<std::uint64_t>(rank)));
        int b = static_cast<int>(r.below(static_cast<std::uint64_t>(rank - 1)));
        if (b >= a) ++b;
        std::swap(perm[a], perm[b]);
      }
      for (int i = 0; i < rank; ++i) base[perm[i]] = ext[i];
      const auto bs = contiguous(base);
      for (int i = 0; i < rank; ++i) strides.push_back(bs[perm[i]]);
    } else if (c.view == "sliced") {
      std::vector<std::int64_t> start(static_cast<std::size_t>(rank), 0), step(static_cast<std::size_t>(rank), 1);
      bool changed = false;
      for (int d = 0; d < rank; ++d) {
        if (d + 1 < rank && r.chance(0.25)) {  // every other element of an outer dim
          step[d] = 2;
          start[d] = static_cast<std::int64_t>(r.below(2));
          base[d] = 2 * ext[d] + start[d];
          changed = true;
        } else if (r.chance(0.6)) {  // a few elements cut at either end
          start[d] = static_cast<std::int64_t>(r.below(4));
          base[d] = ext[d] + start[d] + static_cast<std::int64_t>(r.below(4));
          changed = changed || base[d] != ext[d];
        }
      }
      if (!changed) {
        start[rank - 1] = 1 + static_cast<std::int64_t>(r.below(3));
        base[rank - 1] = ext[rank - 1] + start[rank - 1];
      }
      const auto bs = contiguous(base);
      for (int d = 0; d < rank; ++d) {
        strides.push_back(bs[d] * step[d]);
        offset += start[d] * bs[d];
      }
    } else if (c.view == "negative") {
      strides = contiguous(base);
      bool flipped = false;
      for (int d = 0; d < rank; ++d)
        if (r.chance(0.4) || (!flipped && d == rank - 1)) {
          offset += (ext[d] - 1) * strides[d];
          strides[d] = -strides[d];
          flipped = true;
        }
    } else {
      if (c.view == "transposed") c.view = "plain";  // rank 1: nothing to transpose
      strides = contiguous(base);
    }
    c.distinct = product(ext);
    c.span = product(base);
    if (c.view == "broadcast") {  // a repeated dim, reduced or kept, reading nothing new
      const int at = static_cast<int>(r.below(static_cast<std::uint64_t>(rank + 1)));
      const std::int64_t k = 2 + static_cast<std::int64_t>(r.below(7));
      const bool reduce_it = !c.dims.empty() && r.chance(0.5);
      for (int& d : c.dims) {
        const int w = d < 0 ? d + rank : d;
        d = w >= at ? w + 1 : w;
      }
      if (reduce_it) c.dims.push_back(at);
      std::sort(c.dims.begin(), c.dims.end());
      ext.insert(ext.begin() + at, k);
      strides.insert(strides.begin() + at, 0);
    }
    const std::int64_t misalign = r.chance(1.0 / 3) ? 1 + static_cast<std::int64_t>(r.below(15)) : 0;
    c.offset = offset + misalign;
    c.span += misalign;
    c.extents = ext;
    c.strides = strides;
    if (c.span * elem > lim.max_span_bytes || c.bytes() < lim.min_bytes / 2 || c.outputs() > lim.max_outputs) continue;
    out.push_back(c);
  }
  return out;
}

}  // namespace argx::sweep
