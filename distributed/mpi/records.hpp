// Between a rank's local answer and the candidate records argx::mpi exchanges: records
// from the local winners (positions made global), and outputs from the combined records.
#pragma once

#include <cstdint>
#include <vector>

#include "../common/shard_plan.hpp"

namespace argx::distributed::mpi {

/// A rank's local reduction: int64 indices and the winning elements' bytes, one per output.
struct local_answer {
  std::vector<std::int64_t> indices;
  std::vector<unsigned char> values;
};

/// This rank's candidate records (combine.hpp), `words` per output: all zero when the rank
/// holds no element of the reduced split dim.
std::vector<std::uint64_t> make_records(const shard_plan& sp, const local_answer& local, int words);

/// Writes combined records to the outputs: indices in sp's index type (-1 for an all-NaN
/// slice under nan=ignore), and the elements when `values` is not null (3-word records).
void write_records(const shard_plan& sp, const std::vector<std::uint64_t>& records, int words, void* indices,
                   void* values);

/// Writes the local answer as it is (the split dim is kept: it is this rank's slab).
void write_local(const shard_plan& sp, const local_answer& local, void* indices, void* values);

}  // namespace argx::distributed::mpi
