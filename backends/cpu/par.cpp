// par: the C++17 parallel algorithms (std::execution::par_unseq). libstdc++ runs them on
// oneTBB when it is present and serially otherwise; the answer is the same either way.
#include <algorithm>
#include <execution>
#include <numeric>

#include "../common/visit_dtype.hpp"
#include "counting_iterator.hpp"
#include "slice.hpp"

namespace argx::detail {
namespace {

// Below this many elements per slice, a slice is reduced by one task.
constexpr std::int64_t chunk_elements = std::int64_t(1) << 16;

template <dtype D>
void par_reduce(const plan& p, const outputs& out) {
  using cpu::counting_iterator;
  const std::int64_t chunks = (p.reduce_size + chunk_elements - 1) / chunk_elements;
  if (chunks <= 1 || p.outputs >= 16) {
    // Many slices (or short ones): one task per output.
    std::for_each(std::execution::par_unseq, counting_iterator(0), counting_iterator(p.outputs), [&](std::int64_t o) {
      const std::int64_t start = kept_offset(p, o);
      cpu::store_winner<D>(p, out, o, start, cpu::reduce_positions<D>(p, start, 0, p.reduce_size));
    });
    return;
  }
  // Few long slices: split each into chunks and combine their winners with the order.
  using cand = candidate<dtype_key_t<D>>;
  for (std::int64_t o = 0; o < p.outputs; ++o) {
    const std::int64_t start = kept_offset(p, o);
    const cand best = std::transform_reduce(
        std::execution::par_unseq, counting_iterator(0), counting_iterator(chunks),
        seed<dtype_key_t<D>>(p.reduce_size, p.ties_last),
        [&](cand a, cand b) { return combine(a, b, p.ties_last); },
        [&](std::int64_t c) {
          const std::int64_t first = c * chunk_elements;
          return cpu::reduce_positions<D>(p, start, first, std::min(first + chunk_elements, p.reduce_size));
        });
    cpu::store_winner<D>(p, out, o, start, best);
  }
}

void run_par(const plan& p, const outputs& out, stream_handle) {
  visit_dtype(p.type, [&](auto d) { par_reduce<decltype(d)::value>(p, out); });
}

}  // namespace

const backend_entry par_entry{backend::par, true, always_usable, no_reason, run_par};

}  // namespace argx::detail
