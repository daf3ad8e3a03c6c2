#include "records.hpp"

#include <cstring>

#include <argx/detail/answer.hpp>

#include "../../backends/common/visit_dtype.hpp"
#include "combine.hpp"

namespace argx::distributed::mpi {

std::vector<std::uint64_t> make_records(const shard_plan& sp, const local_answer& local, int words) {
  const std::int64_t n = sp.outputs.outputs;
  std::vector<std::uint64_t> records(static_cast<std::size_t>(n * words), 0);
  if (sp.local_reduce_size == 0) return records;  // no element here: the combine's identity
  detail::visit_dtype(sp.outputs.type, [&](auto d) {
    constexpr dtype D = decltype(d)::value;
    using bits_t = dtype_bits_t<D>;
    for (std::int64_t o = 0; o < n; ++o) {
      bits_t bits;
      std::memcpy(&bits, local.values.data() + o * sizeof(bits_t), sizeof(bits_t));
      const std::int64_t pos = winner_position(local.indices[o], sp.local_reduce_size, sp.ties_last);
      std::uint64_t* r = records.data() + o * words;
      r[0] = order_key<D>(bits, sp.keys);
      r[1] = position_word<std::uint64_t>(sp.positions.to_global(pos), sp.ties_last);
      if (words == record_words_with_values) r[2] = bits;
    }
  });
  return records;
}

void write_records(const shard_plan& sp, const std::vector<std::uint64_t>& records, int words, void* indices,
                   void* values) {
  detail::visit_dtype(sp.outputs.type, [&](auto d) {
    constexpr dtype D = decltype(d)::value;
    using bits_t = dtype_bits_t<D>;
    for (std::int64_t o = 0; o < sp.outputs.outputs; ++o) {
      const std::uint64_t* r = records.data() + o * words;
      const candidate<std::uint64_t> winner{r[0], word_position(r[1], sp.ties_last)};
      detail::store_index(indices, sp.outputs.index, o, reported_index(winner, sp.keys, sp.is_float));
      if (values) detail::store_value(values, o, static_cast<bits_t>(r[2]));
    }
  });
}

void write_local(const shard_plan& sp, const local_answer& local, void* indices, void* values) {
  for (std::int64_t o = 0; o < sp.outputs.outputs; ++o)
    detail::store_index(indices, sp.outputs.index, o, local.indices[o]);
  if (values && !local.values.empty()) std::memcpy(values, local.values.data(), local.values.size());
}

}  // namespace argx::distributed::mpi
