// Test kernels for the public device building blocks (argx/device/*.cuh), and a kernel
// that keeps a stream busy (for the asynchrony tests).
#include "device_blocks.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

#include <cuda_runtime.h>

#include <argx/device/block_argmax.cuh>

namespace argx_gpu_test {
namespace {

using argx::dtype;
template <dtype D>
using bits_t = typename argx::dtype_traits<D>::bits_type;
template <dtype D>
using key_t = typename argx::dtype_traits<D>::key_type;

// The C++ element type the value-level helpers take for a dtype.
template <dtype D> struct element_type;
template <> struct element_type<dtype::f16> { using type = argx::half; };
template <> struct element_type<dtype::bf16> { using type = argx::bfloat16; };
template <> struct element_type<dtype::f32> { using type = float; };
template <> struct element_type<dtype::f64> { using type = double; };
template <> struct element_type<dtype::i8> { using type = std::int8_t; };
template <> struct element_type<dtype::u64> { using type = std::uint64_t; };
template <> struct element_type<dtype::boolean> { using type = bool; };
template <dtype D>
using elem_t = typename element_type<D>::type;

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// A device copy of a host vector, freed on scope exit.
template <class T>
struct dev_array {
  T* p = nullptr;
  explicit dev_array(const std::vector<T>& h) {
    check(cudaMalloc(&p, h.size() * sizeof(T) + 1), "cudaMalloc");
    check(cudaMemcpy(p, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
  }
  explicit dev_array(std::size_t n) { check(cudaMalloc(&p, n * sizeof(T) + 1), "cudaMalloc"); }
  ~dev_array() { cudaFree(p); }
  std::vector<T> get(std::size_t n) const {
    std::vector<T> h(n);
    check(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
    return h;
  }
};

template <dtype D>
std::vector<bits_t<D>> narrow(const std::vector<std::uint64_t>& bits) {
  std::vector<bits_t<D>> out;
  for (auto b : bits) out.push_back(static_cast<bits_t<D>>(b));
  return out;
}

template <dtype D>
__device__ elem_t<D> as_element(bits_t<D> b) {
  elem_t<D> v;
  memcpy(&v, &b, sizeof(v));
  return v;
}

template <dtype D>
__device__ std::uint64_t bits_of(elem_t<D> v) {
  bits_t<D> b;
  memcpy(&b, &v, sizeof(b));
  return b;
}

template <dtype D, int Width>
__global__ void warp_reduce_kernel(const bits_t<D>* bits, const std::int64_t* pos, argx::key_params kp, bool tl,
                                   bool runtime_width, folded* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  key_t<D> key = argx::order_key<D>(bits[i], kp);
  std::int64_t p = pos[i];
  if (runtime_width)
    argx::device::warp_reduce_groups(key, p, Width, tl);
  else
    argx::device::warp_reduce<Width>(key, p, tl);
  out[i] = folded{key, p, 0, true};
}

template <dtype D>
__global__ void warp_value_kernel(const bits_t<D>* bits, const std::int64_t* pos, const std::uint8_t* has,
                                  argx::key_params kp, bool tl, folded* out) {
  const int i = threadIdx.x;
  const auto w = argx::device::warp_argmax<32>(as_element<D>(bits[i]), pos[i], has[i] != 0, kp, tl);
  out[i] = folded{w.key, w.pos, bits_of<D>(w.value), w.found};
}

template <dtype D>
__global__ void block_reduce_kernel(const bits_t<D>* bits, std::int64_t n, argx::key_params kp, bool tl, folded* out) {
  using K = key_t<D>;
  __shared__ typename argx::device::block_argmax<K>::storage tmp;
  auto c = argx::seed<K>(n, tl);
  for (std::int64_t i = threadIdx.x; i < n; i += blockDim.x)
    c = argx::combine(c, argx::candidate<K>{argx::order_key<D>(bits[i], kp), i}, tl);
  argx::device::block_argmax<K> fold(tmp);
  c = fold.reduce(c, tl);
  c = fold.reduce(c, tl);  // the storage is reusable at once; folding a winner again keeps it
  out[threadIdx.x] = folded{c.key, c.pos, 0, true};
}

template <dtype D>
__global__ void block_value_kernel(const bits_t<D>* bits, const std::int64_t* pos, const std::uint8_t* has,
                                   argx::key_params kp, bool tl, folded* out) {
  __shared__ argx::device::block_value_storage<elem_t<D>> tmp;
  const int t = threadIdx.x;
  const auto w = argx::device::block_argmax_value(as_element<D>(bits[t]), pos[t], has[t] != 0, tmp, kp, tl);
  out[t] = folded{w.key, w.pos, bits_of<D>(w.value), w.found};
}

__global__ void spin_kernel(unsigned long long ns) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    __nanosleep(1000);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}

template <dtype D, int Width>
void launch_warp(const bits_t<D>* b, const std::int64_t* p, int n, argx::key_params kp, bool tl, bool rt, folded* o) {
  warp_reduce_kernel<D, Width><<<n / 32, 32>>>(b, p, kp, tl, rt, o);
}

}  // namespace

template <dtype D>
std::vector<folded> run_warp_reduce(const std::vector<std::uint64_t>& bits, const std::vector<std::int64_t>& positions,
                                    int width, argx::key_params kp, bool ties_last) {
  const int n = static_cast<int>(bits.size());  // a multiple of 32
  dev_array<bits_t<D>> b(narrow<D>(bits));
  dev_array<std::int64_t> p(positions);
  dev_array<folded> o(static_cast<std::size_t>(n));
  const bool runtime_width = width < 0;
  switch (runtime_width ? -width : width) {
    case 1: launch_warp<D, 1>(b.p, p.p, n, kp, ties_last, runtime_width, o.p); break;
    case 2: launch_warp<D, 2>(b.p, p.p, n, kp, ties_last, runtime_width, o.p); break;
    case 4: launch_warp<D, 4>(b.p, p.p, n, kp, ties_last, runtime_width, o.p); break;
    case 8: launch_warp<D, 8>(b.p, p.p, n, kp, ties_last, runtime_width, o.p); break;
    case 16: launch_warp<D, 16>(b.p, p.p, n, kp, ties_last, runtime_width, o.p); break;
    default: launch_warp<D, 32>(b.p, p.p, n, kp, ties_last, runtime_width, o.p); break;
  }
  check(cudaGetLastError(), "warp_reduce_kernel");
  return o.get(static_cast<std::size_t>(n));
}

template <dtype D>
std::vector<folded> run_warp_value(const std::vector<std::uint64_t>& bits, const std::vector<std::int64_t>& positions,
                                   const std::vector<std::uint8_t>& has, argx::key_params kp, bool ties_last) {
  dev_array<bits_t<D>> b(narrow<D>(bits));
  dev_array<std::int64_t> p(positions);
  dev_array<std::uint8_t> h(has);
  dev_array<folded> o(32);
  warp_value_kernel<D><<<1, 32>>>(b.p, p.p, h.p, kp, ties_last, o.p);
  check(cudaGetLastError(), "warp_value_kernel");
  return o.get(32);
}

template <dtype D>
std::vector<folded> run_block_reduce(const std::vector<std::uint64_t>& bits, int threads, argx::key_params kp,
                                     bool ties_last) {
  dev_array<bits_t<D>> b(narrow<D>(bits));
  dev_array<folded> o(static_cast<std::size_t>(threads));
  block_reduce_kernel<D><<<1, threads>>>(b.p, static_cast<std::int64_t>(bits.size()), kp, ties_last, o.p);
  check(cudaGetLastError(), "block_reduce_kernel");
  return o.get(static_cast<std::size_t>(threads));
}

template <dtype D>
std::vector<folded> run_block_value(const std::vector<std::uint64_t>& bits, const std::vector<std::int64_t>& positions,
                                    const std::vector<std::uint8_t>& has, argx::key_params kp, bool ties_last) {
  const int threads = static_cast<int>(bits.size());
  dev_array<bits_t<D>> b(narrow<D>(bits));
  dev_array<std::int64_t> p(positions);
  dev_array<std::uint8_t> h(has);
  dev_array<folded> o(static_cast<std::size_t>(threads));
  block_value_kernel<D><<<1, threads>>>(b.p, p.p, h.p, kp, ties_last, o.p);
  check(cudaGetLastError(), "block_value_kernel");
  return o.get(static_cast<std::size_t>(threads));
}

void spin(void* stream, int ms) {
  spin_kernel<<<1, 1, 0, static_cast<cudaStream_t>(stream)>>>(static_cast<unsigned long long>(ms) * 1000000ull);
  check(cudaGetLastError(), "spin_kernel");
}

#define ARGX_TEST_BLOCKS(D)                                                                                     \
  template std::vector<folded> run_warp_reduce<dtype::D>(const std::vector<std::uint64_t>&,                    \
                                                         const std::vector<std::int64_t>&, int, argx::key_params, \
                                                         bool);                                                 \
  template std::vector<folded> run_warp_value<dtype::D>(const std::vector<std::uint64_t>&,                     \
                                                        const std::vector<std::int64_t>&,                       \
                                                        const std::vector<std::uint8_t>&, argx::key_params, bool); \
  template std::vector<folded> run_block_reduce<dtype::D>(const std::vector<std::uint64_t>&, int,              \
                                                          argx::key_params, bool);                              \
  template std::vector<folded> run_block_value<dtype::D>(const std::vector<std::uint64_t>&,                    \
                                                         const std::vector<std::int64_t>&,                      \
                                                         const std::vector<std::uint8_t>&, argx::key_params, bool);
ARGX_TEST_BLOCKS(f16)
ARGX_TEST_BLOCKS(bf16)
ARGX_TEST_BLOCKS(f32)
ARGX_TEST_BLOCKS(f64)
ARGX_TEST_BLOCKS(i8)
ARGX_TEST_BLOCKS(u64)
ARGX_TEST_BLOCKS(boolean)
#undef ARGX_TEST_BLOCKS

}  // namespace argx_gpu_test
