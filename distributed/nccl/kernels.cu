// Kernels of argx::nccl: one thread per output, grid-stride. The order (keys, positions,
// their words) comes from order.hpp and position.hpp, shared with the host.
#include "kernels.hpp"

#include <algorithm>

#include <argx/detail/answer.hpp>
#include <argx/order.hpp>

#include "../../backends/common/visit_dtype.hpp"
#include "../../backends/cuda/runtime.hpp"

namespace argx::distributed::nccl {
namespace {

constexpr int threads = 256;

unsigned blocks_for(std::int64_t outputs) {
  return static_cast<unsigned>(std::min<std::int64_t>((outputs + threads - 1) / threads, 4096));
}

__device__ std::int64_t first_output() { return static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; }
__device__ std::int64_t output_stride() { return static_cast<std::int64_t>(gridDim.x) * blockDim.x; }

// This rank's candidate for output o: its key and global position.
template <dtype D>
__device__ candidate<std::uint64_t> local_candidate(const local_winners& w, const order_rules& r, std::int64_t o) {
  const auto bits = static_cast<const dtype_bits_t<D>*>(w.values)[o];
  const std::int64_t pos = winner_position(w.indices[o], w.local_size, r.ties_last);
  return {order_key<D>(bits, r.keys), w.positions.to_global(pos)};
}

template <dtype D>
__global__ void packed_words(local_winners w, order_rules r, std::int64_t outputs, std::uint64_t* out) {
  for (std::int64_t o = first_output(); o < outputs; o += output_stride()) {
    if (w.local_size == 0) {
      out[o] = 0;
      continue;
    }
    const auto c = local_candidate<D>(w, r, o);
    out[o] = pack(static_cast<std::uint32_t>(c.key), c.pos, r.ties_last);
  }
}

template <dtype D>
__global__ void key_words(local_winners w, order_rules r, std::int64_t outputs, std::uint64_t* out) {
  for (std::int64_t o = first_output(); o < outputs; o += output_stride())
    out[o] = w.local_size == 0 ? 0 : local_candidate<D>(w, r, o).key;
}

template <dtype D>
__global__ void position_words(local_winners w, order_rules r, std::int64_t outputs, const std::uint64_t* best,
                               std::uint64_t* out) {
  for (std::int64_t o = first_output(); o < outputs; o += output_stride()) {
    if (w.local_size == 0) {
      out[o] = 0;
      continue;
    }
    const auto c = local_candidate<D>(w, r, o);
    out[o] = c.key == best[o] ? position_word<std::uint64_t>(c.pos, r.ties_last) : 0;
  }
}

__device__ candidate<std::uint64_t> winner(const combined& c, const order_rules& r, std::int64_t o) {
  if (c.packed) {
    const auto u = unpack(c.packed[o], r.ties_last);
    return {u.key, u.pos};
  }
  return {c.keys[o], word_position(c.position_words[o], r.ties_last)};
}

__global__ void indices(combined c, order_rules r, std::int64_t outputs, index_type type, void* out) {
  for (std::int64_t o = first_output(); o < outputs; o += output_stride())
    detail::store_index(out, type, o, reported_index(winner(c, r, o), r.keys, r.is_float));
}

template <class Bits>
__global__ void owned_values(combined c, order_rules r, local_winners w, std::int64_t outputs, std::uint64_t* out) {
  for (std::int64_t o = first_output(); o < outputs; o += output_stride())
    out[o] = w.local_size > 0 && w.positions.owns(winner(c, r, o).pos) ? static_cast<const Bits*>(w.values)[o] : 0;
}

template <class Bits>
__global__ void values(const std::uint64_t* words, std::int64_t outputs, void* out) {
  for (std::int64_t o = first_output(); o < outputs; o += output_stride())
    detail::store_value(out, o, static_cast<Bits>(words[o]));
}

void launched(const char* what) { detail::gpu::check(cudaGetLastError(), what); }

// Calls f(Bits{}) with the unsigned type of an element of `type`.
template <class F>
void visit_width(dtype type, F&& f) {
  detail::visit_dtype(type, [&](auto d) { f(dtype_bits_t<decltype(d)::value>{}); });
}

}  // namespace

void queue_packed_words(const local_winners& w, const order_rules& r, std::int64_t outputs, std::uint64_t* out,
                        cudaStream_t stream) {
  detail::visit_dtype(w.type, [&](auto d) {
    if constexpr (sizeof(dtype_key_t<decltype(d)::value>) <= 4)
      packed_words<decltype(d)::value><<<blocks_for(outputs), threads, 0, stream>>>(w, r, outputs, out);
    else
      throw error(errc::bad_argument, "packed words need keys of at most 32 bits");
  });
  launched("launching the packed-candidates kernel");
}

void queue_key_words(const local_winners& w, const order_rules& r, std::int64_t outputs, std::uint64_t* out,
                     cudaStream_t stream) {
  detail::visit_dtype(w.type, [&](auto d) {
    key_words<decltype(d)::value><<<blocks_for(outputs), threads, 0, stream>>>(w, r, outputs, out);
  });
  launched("launching the candidate-keys kernel");
}

void queue_position_words(const local_winners& w, const order_rules& r, std::int64_t outputs,
                          const std::uint64_t* best_keys, std::uint64_t* out, cudaStream_t stream) {
  detail::visit_dtype(w.type, [&](auto d) {
    position_words<decltype(d)::value><<<blocks_for(outputs), threads, 0, stream>>>(w, r, outputs, best_keys, out);
  });
  launched("launching the candidate-positions kernel");
}

void queue_indices(const combined& c, const order_rules& r, std::int64_t outputs, index_type type, void* out,
                   cudaStream_t stream) {
  indices<<<blocks_for(outputs), threads, 0, stream>>>(c, r, outputs, type, out);
  launched("launching the indices kernel");
}

void queue_owned_values(const combined& c, const order_rules& r, const local_winners& w, std::int64_t outputs,
                        std::uint64_t* out, cudaStream_t stream) {
  visit_width(w.type, [&](auto bits) {
    owned_values<decltype(bits)><<<blocks_for(outputs), threads, 0, stream>>>(c, r, w, outputs, out);
  });
  launched("launching the owned-values kernel");
}

void queue_values(const std::uint64_t* words, argx::dtype type, std::int64_t outputs, void* out, cudaStream_t stream) {
  visit_width(type, [&](auto bits) {
    using Bits = decltype(bits);
    values<Bits><<<blocks_for(outputs), threads, 0, stream>>>(words, outputs, out);
  });
  launched("launching the values kernel");
}

}  // namespace argx::distributed::nccl
