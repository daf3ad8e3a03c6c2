// argx::thrust: the baseline. The same order (argx/order.hpp) through Thrust's own
// reductions: transform_reduce for one slice, reduce_by_key for many. The element type is
// dispatched inside the functors at run time, so Thrust is instantiated once per key width
// rather than once per dtype.
#include <cstdint>
#include <new>
#include <string>

#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>
#include <thrust/system/system_error.h>
#include <thrust/transform_reduce.h>

#include <argx/detail/answer.hpp>
#include <argx/error.hpp>

#include "archs.hpp"
#include "call.hpp"

namespace argx::detail::gpu {
namespace {

// Element offset of position pos of output o's slice (any strides).
__device__ inline std::int64_t element_offset(const plan& p, std::int64_t o, std::int64_t pos) {
  const std::int64_t start = p.kept_extents.size() == 1 ? o * p.kept_strides[0] : kept_offset(p, o);
  const bool contiguous = p.reduced_extents.size() == 1;
  return start + (contiguous ? pos * p.reduced_strides[0] : reduced_offset(p, pos));
}

template <class Bits>
__device__ inline Bits load(const plan& p, std::int64_t off) {
  return static_cast<const Bits*>(p.data)[off];
}

// The key of the element at an offset; K is std::uint32_t for elements up to 4 bytes.
template <class K>
__device__ inline K key_at(const plan& p, std::int64_t off) {
  if constexpr (sizeof(K) == 4) {
    switch (p.type) {
      case dtype::f16: return order_key<dtype::f16>(load<std::uint16_t>(p, off), p.keys);
      case dtype::bf16: return order_key<dtype::bf16>(load<std::uint16_t>(p, off), p.keys);
      case dtype::f32: return order_key<dtype::f32>(load<std::uint32_t>(p, off), p.keys);
      case dtype::i8: return order_key<dtype::i8>(load<std::uint8_t>(p, off), p.keys);
      case dtype::i16: return order_key<dtype::i16>(load<std::uint16_t>(p, off), p.keys);
      case dtype::i32: return order_key<dtype::i32>(load<std::uint32_t>(p, off), p.keys);
      case dtype::u8: return order_key<dtype::u8>(load<std::uint8_t>(p, off), p.keys);
      case dtype::u16: return order_key<dtype::u16>(load<std::uint16_t>(p, off), p.keys);
      case dtype::u32: return order_key<dtype::u32>(load<std::uint32_t>(p, off), p.keys);
      case dtype::boolean: return order_key<dtype::boolean>(load<std::uint8_t>(p, off), p.keys);
      default: return 0;
    }
  } else {
    switch (p.type) {
      case dtype::f64: return order_key<dtype::f64>(load<std::uint64_t>(p, off), p.keys);
      case dtype::i64: return order_key<dtype::i64>(load<std::uint64_t>(p, off), p.keys);
      case dtype::u64: return order_key<dtype::u64>(load<std::uint64_t>(p, off), p.keys);
      default: return 0;
    }
  }
}

// Flat index i over (output, position) -> the candidate of that element.
template <class K>
struct to_candidate {
  plan p;
  __device__ candidate<K> operator()(std::int64_t i) const {
    const std::int64_t o = i / p.reduce_size, pos = i - o * p.reduce_size;
    return candidate<K>{key_at<K>(p, element_offset(p, o, pos)), pos};
  }
};

struct to_output {
  std::int64_t reduce_size;
  __device__ std::int64_t operator()(std::int64_t i) const { return i / reduce_size; }
};

template <class K>
struct better {
  bool ties_last;
  __device__ candidate<K> operator()(const candidate<K>& a, const candidate<K>& b) const {
    return combine(a, b, ties_last);
  }
};

// Writes output o's index and value from its winner (one winner, or an array of them).
template <class K>
struct store {
  plan p;
  device_outputs out;
  const candidate<K>* winners;  // null: use `single`
  candidate<K> single;
  __device__ void operator()(std::int64_t o) const {
    const candidate<K> c = winners ? winners[o] : single;
    store_index(out.indices, p.index, o, reported_index(c, p.keys, is_floating(p.type)));
    if (!out.values) return;
    const std::int64_t off = element_offset(p, o, c.pos);
    switch (size_of(p.type)) {
      case 1: store_value(out.values, o, load<std::uint8_t>(p, off)); break;
      case 2: store_value(out.values, o, load<std::uint16_t>(p, off)); break;
      case 4: store_value(out.values, o, load<std::uint32_t>(p, off)); break;
      default: store_value(out.values, o, load<std::uint64_t>(p, off)); break;
    }
  }
};

template <class K>
void reduce_with_thrust(const gpu_call& call) {
  const plan& p = call.input();
  const auto policy = thrust::cuda::par.on(call.stream());
  const thrust::counting_iterator<std::int64_t> first(0);
  if (p.outputs == 1) {
    const candidate<K> best = thrust::transform_reduce(policy, first, first + p.reduce_size, to_candidate<K>{p},
                                                       seed<K>(p.reduce_size, p.ties_last), better<K>{p.ties_last});
    thrust::for_each_n(policy, first, 1, store<K>{p, call.targets(), nullptr, best});
    return;
  }
  const std::int64_t n = p.outputs * p.reduce_size;
  auto* winners = static_cast<candidate<K>*>(
      device_alloc(static_cast<std::size_t>(p.outputs) * sizeof(candidate<K>), call.stream(), "allocating winners"));
  try {
    auto keys = thrust::make_transform_iterator(first, to_output{p.reduce_size});
    auto values = thrust::make_transform_iterator(first, to_candidate<K>{p});
    thrust::reduce_by_key(policy, keys, keys + n, values, thrust::make_discard_iterator(), winners,
                          thrust::equal_to<std::int64_t>(), better<K>{p.ties_last});
    thrust::for_each_n(policy, first, p.outputs, store<K>{p, call.targets(), winners, {}});
  } catch (...) {
    device_free(winners, call.stream());
    throw;
  }
  device_free(winners, call.stream());
}

}  // namespace
}  // namespace argx::detail::gpu

namespace argx::detail {
namespace {

void run_thrust(const plan& p, const outputs& out, stream_handle stream) {
  gpu::gpu_call call(p, out, stream, "thrust");
  try {
    if (size_of(p.type) == 8)
      gpu::reduce_with_thrust<std::uint64_t>(call);
    else
      gpu::reduce_with_thrust<std::uint32_t>(call);
  } catch (const std::bad_alloc&) {
    cudaGetLastError();
    throw error(errc::out_of_memory, "backend thrust: out of GPU memory");
  } catch (const thrust::system_error& e) {
    cudaGetLastError();
    throw error(errc::cuda_failure, std::string("backend thrust: CUDA failure: ") + e.what());
  }
  gpu::check(cudaGetLastError(), "running the Thrust reduction");
  call.finish();
}

}  // namespace

const backend_entry thrust_entry{backend::thrust, false, cuda_usable, cuda_unavailable_reason, run_thrust};

}  // namespace argx::detail
