// The device side of argx::nccl: small kernels that turn this rank's local winners into
// the words NCCL combines with ncclMax, and the combined words into the outputs. Plain C++
// interface; the kernels are in kernels.cu. Every function queues work on `stream`.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include <argx/dtype.hpp>
#include <argx/spec.hpp>

#include "../common/position.hpp"

namespace argx::distributed::nccl {

/// This rank's local winners, in device memory: int64 reported indices (-1: all NaN) and
/// the winning elements, one per output, and how their positions become global.
struct local_winners {
  const std::int64_t* indices = nullptr;
  const void* values = nullptr;
  argx::dtype type = argx::dtype::f32;
  std::int64_t local_size = 0;  ///< positions per local slice; 0: this rank holds no element
  position_map positions;
};

struct order_rules {
  key_params keys{};
  bool ties_last = false;
  bool is_float = false;
};

/// The combined winners: packed words (one scheme) or keys and position words (the other).
struct combined {
  const std::uint64_t* packed = nullptr;
  const std::uint64_t* keys = nullptr;
  const std::uint64_t* position_words = nullptr;
};

/// Packed scheme: pack(key, global position) per output, 0 where this rank holds nothing.
void queue_packed_words(const local_winners& w, const order_rules& r, std::int64_t outputs, std::uint64_t* out,
                        cudaStream_t stream);
/// Two-step scheme, step 1: each output's key (0 where this rank holds nothing).
void queue_key_words(const local_winners& w, const order_rules& r, std::int64_t outputs, std::uint64_t* out,
                     cudaStream_t stream);
/// Two-step scheme, step 2: the position word of each candidate whose key is the combined
/// key `best_keys`, 0 for the others.
void queue_position_words(const local_winners& w, const order_rules& r, std::int64_t outputs,
                          const std::uint64_t* best_keys, std::uint64_t* out, cudaStream_t stream);
/// The reported indices of the combined winners into `out` (int64 or int32).
void queue_indices(const combined& c, const order_rules& r, std::int64_t outputs, index_type type, void* out,
                   cudaStream_t stream);
/// The element bits of each combined winner that this rank holds, 0 for the others.
void queue_owned_values(const combined& c, const order_rules& r, const local_winners& w, std::int64_t outputs,
                        std::uint64_t* out, cudaStream_t stream);
/// Combined element bits (one word each) into `out`, size_of(type) bytes each.
void queue_values(const std::uint64_t* words, argx::dtype type, std::int64_t outputs, void* out, cudaStream_t stream);

}  // namespace argx::distributed::nccl
