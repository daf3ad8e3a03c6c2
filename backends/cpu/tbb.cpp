// tbb: oneTBB over output slices, and inside long slices.
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_reduce.h>

#include "../common/visit_dtype.hpp"
#include "slice.hpp"

namespace argx::detail {
namespace {

// Work below this many elements runs on the calling thread: a task costs more.
constexpr std::int64_t serial_elements = std::int64_t(1) << 15;
constexpr std::int64_t grain_elements = std::int64_t(1) << 14;

template <dtype D>
void tbb_reduce(const plan& p, const outputs& out) {
  using cand = candidate<cpu::key_t<D>>;
  auto one_output = [&](std::int64_t o) {
    const std::int64_t start = kept_offset(p, o);
    cpu::store_winner<D>(p, out, o, start, cpu::reduce_positions<D>(p, start, 0, p.reduce_size));
  };
  if (p.outputs * p.reduce_size <= serial_elements) {
    for (std::int64_t o = 0; o < p.outputs; ++o) one_output(o);
  } else if (p.reduce_size < 2 * grain_elements || p.outputs >= 8) {
    const std::int64_t grain = std::max<std::int64_t>(1, grain_elements / p.reduce_size);
    tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, p.outputs, grain), [&](const auto& r) {
      for (std::int64_t o = r.begin(); o != r.end(); ++o) one_output(o);
    });
  } else {
    for (std::int64_t o = 0; o < p.outputs; ++o) {
      const std::int64_t start = kept_offset(p, o);
      const cand best = tbb::parallel_reduce(
          tbb::blocked_range<std::int64_t>(0, p.reduce_size, grain_elements),
          seed<cpu::key_t<D>>(p.reduce_size, p.ties_last),
          [&](const auto& r, cand acc) {
            return combine(acc, cpu::reduce_positions<D>(p, start, r.begin(), r.end()), p.ties_last);
          },
          [&](cand a, cand b) { return combine(a, b, p.ties_last); });
      cpu::store_winner<D>(p, out, o, start, best);
    }
  }
}

}  // namespace

bool tbb_built() noexcept { return true; }

void run_tbb(const plan& p, const outputs& out) {
  visit_dtype(p.type, [&](auto d) { tbb_reduce<decltype(d)::value>(p, out); });
}

}  // namespace argx::detail
