#include "shrink.hpp"

#include <algorithm>
#include <chrono>
#include <utility>

namespace argx::cli {
namespace {

// The base cut to its first `n` entries along `dim` (same storage order).
fuzz_case cut(const fuzz_case& c, int dim, std::int64_t n) {
  fuzz_case out = c;
  out.extents[dim] = n;
  out.data = gather(c.base_view().sliced(dim, 0, n), c.fortran);
  return out;
}

}  // namespace

fuzz_case shrink(fuzz_case c, const std::function<bool(const fuzz_case&)>& fails, shrink_stats& stats, int max_checks,
                 double max_seconds) {
  const auto start = std::chrono::steady_clock::now();
  auto out_of_budget = [&] {
    return stats.checks >= max_checks ||
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > max_seconds;
  };
  // Takes `candidate` when it is a valid case that still fails.
  auto attempt = [&](const fuzz_case& candidate) {
    if (out_of_budget() || !candidate.view_fits()) return false;
    ++stats.checks;
    if (!fails(candidate)) return false;
    c = candidate;
    ++stats.accepted;
    return true;
  };

  for (bool progress = true; progress && !out_of_budget();) {
    progress = false;
    // Fewer view transforms.
    for (std::size_t i = 0; i < c.reduction.view.size(); ++i) {
      fuzz_case t = c;
      t.reduction.view.erase(t.reduction.view.begin() + static_cast<std::ptrdiff_t>(i));
      if (attempt(t)) { progress = true; --i; }
    }
    // Default options.
    auto try_spec = [&](auto change) {
      fuzz_case t = c;
      if (!change(t)) return;
      if (attempt(t)) progress = true;
    };
    try_spec([](fuzz_case& t) { return std::exchange(t.reduction.spec.abs, false); });
    try_spec([](fuzz_case& t) { return std::exchange(t.reduction.spec.keepdim, false); });
    try_spec([](fuzz_case& t) { return std::exchange(t.reduction.spec.ties, tie_break::first) != tie_break::first; });
    try_spec([](fuzz_case& t) { return std::exchange(t.reduction.spec.nan, nan_policy::propagate) != nan_policy::propagate; });
    try_spec([](fuzz_case& t) { return std::exchange(t.reduction.spec.index, index_type::int64) != index_type::int64; });
    try_spec([](fuzz_case& t) { return std::exchange(t.reduction.op, op::argmax) != op::argmax; });
    for (int i = 0; i < c.reduction.spec.dims.size() && c.reduction.spec.dims.size() > 1; ++i) {
      fuzz_case t = c;
      dim_list d;
      for (int k = 0; k < c.reduction.spec.dims.size(); ++k)
        if (k != i) d.push_back(c.reduction.spec.dims[k]);
      t.reduction.spec.dims = d;
      if (attempt(t)) { progress = true; --i; }
    }
    if (c.fortran) {
      fuzz_case t = c;
      t.fortran = false;
      t.data = gather(c.base_view(), false);
      if (attempt(t)) progress = true;
    }
    // A smaller base array: halve each dim, then take one off.
    for (int d = 0; d < c.extents.size(); ++d) {
      while (c.extents[d] > 1 && !out_of_budget() && attempt(cut(c, d, c.extents[d] / 2))) progress = true;
      while (c.extents[d] > 1 && !out_of_budget() && attempt(cut(c, d, c.extents[d] - 1))) progress = true;
    }
    // Zeroed elements: ever smaller chunks, while that is affordable.
    const std::size_t elem = size_of(c.type);
    const std::size_t count = c.data.size() / elem;
    const std::size_t smallest = std::max<std::size_t>(1, count / 256);
    for (std::size_t chunk = std::max<std::size_t>(1, count / 2); chunk >= smallest && !out_of_budget(); chunk /= 2) {
      for (std::size_t first = 0; first < count && !out_of_budget(); first += chunk) {
        fuzz_case t = c;
        bool changed = false;
        for (std::size_t i = first; i < std::min(count, first + chunk); ++i)
          for (std::size_t b = 0; b < elem; ++b) changed |= std::exchange(t.data[i * elem + b], 0) != 0;
        if (changed && attempt(t)) progress = true;
      }
      if (chunk == 1) break;
    }
  }
  return c;
}

}  // namespace argx::cli
