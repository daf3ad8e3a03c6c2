// seq: the scalar reference backend, the oracle every other backend must match bit for
// bit. Deliberately plain: one output at a time, every position in order.
#include "../common/visit_dtype.hpp"
#include "slice.hpp"

namespace argx::detail {

void run_seq(const plan& p, const outputs& out) {
  visit_dtype(p.type, [&](auto d) {
    constexpr dtype D = decltype(d)::value;
    for (std::int64_t o = 0; o < p.outputs; ++o) {
      const std::int64_t start = kept_offset(p, o);
      cpu::store_winner<D>(p, out, o, start, cpu::reduce_positions<D>(p, start, 0, p.reduce_size));
    }
  });
}

}  // namespace argx::detail
