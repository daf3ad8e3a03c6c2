// GPU benchmark: argx::cuda against the bandwidth ceiling and its peers, in one run on one
// GPU (the sweep, not this table, is the yardstick: docs/DESIGN.md §11). For every case of
// the table it times, with CUDA events around each call (host overhead included), after
// warm-up, the median of many runs:
//   - a read-bandwidth ceiling kernel over the same bytes (16-byte loads, grid-stride),
//   - an empty kernel launch (once),
//   - argx::cuda, argx::thrust,
//   - cub::DeviceReduce::ArgMax (flat float32), cub::DeviceSegmentedReduce::ArgMax (rows),
//   - thrust::max_element (flat float32).
// torch.argmax is timed by torch_bench.py beside this file, which reads this program's JSON.
// Each case's argx::cuda answer is checked against argx::thrust (and CUB where it runs).
//
//   gpu_bench [--quick] [--only CASE] [--out FILE.json]
// (--only runs one case, argx::cuda alone, a few times: for the profiler.)
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cuda_runtime.h>
#include <thrust/execution_policy.h>
#include <thrust/extrema.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <argx/argx.hpp>

#include "bench_kernels.cuh"

namespace {

using argx_bench::check;
using argx_bench::empty_kernel;

// Empty kernels taking parameter blocks of N bytes: what a launch's parameters cost.
template <int N>
struct param_block {
  unsigned char bytes[N];
};
template <int N>
__global__ void empty_kernel_with(const param_block<N> p) {
  if (p.bytes[N - 1] == 0xAB) printf("never\n");
}

struct times_r {
  std::int64_t r;
  __host__ __device__ std::int64_t operator()(std::int64_t i) const { return i * r; }
};

// ---- cases -----------------------------------------------------------------------------------

struct bench_case {
  std::string name;
  argx::dtype type;
  std::vector<std::int64_t> extents;
  std::vector<int> dims;  // empty: all (flat)
  bool rows() const { return dims.size() == 1 && dims[0] == static_cast<int>(extents.size()) - 1 && extents.size() == 2; }
  bool flat() const { return dims.empty(); }
  std::int64_t elements() const {
    std::int64_t n = 1;
    for (auto e : extents) n *= e;
    return n;
  }
  std::int64_t outputs() const {
    std::int64_t n = 1;
    for (std::size_t d = 0; d < extents.size(); ++d)
      if (!flat() && std::find(dims.begin(), dims.end(), static_cast<int>(d)) == dims.end()) n *= extents[d];
    return n;
  }
};

std::vector<bench_case> all_cases(bool quick) {
  using argx::dtype;
  std::vector<bench_case> cs;
  cs.push_back({"flat 2^28", dtype::f32, {1 << 28}, {}});
  for (int lg : {10, 12, 14, 16, 18, 20}) cs.push_back({"flat 2^" + std::to_string(lg), dtype::f32, {1 << lg}, {}});
  cs.push_back({"rows 4M x 32", dtype::f32, {1 << 22, 32}, {1}});
  cs.push_back({"rows 1M x 256", dtype::f32, {1 << 20, 256}, {1}});
  cs.push_back({"rows 65536 x 1024", dtype::f32, {65536, 1024}, {1}});
  cs.push_back({"rows 4096 x 32768", dtype::f32, {4096, 32768}, {1}});
  cs.push_back({"rows 64 x 4M", dtype::f32, {64, 1 << 22}, {1}});
  cs.push_back({"rows 8 x 32M", dtype::f32, {8, 1 << 25}, {1}});
  cs.push_back({"dim 0 of 4096 x 65536", dtype::f32, {4096, 65536}, {0}});
  cs.push_back({"dim 0 of 32 x 8M", dtype::f32, {32, 1 << 23}, {0}});
  cs.push_back({"dim 1 of 64 x 4096 x 256", dtype::f32, {64, 4096, 256}, {1}});
  cs.push_back({"dim 1 of 256 x 256 x 4096", dtype::f32, {256, 256, 4096}, {1}});
  // KernelBench level 1, problems 51 and 52 (argmax and argmin over dim 1): 8 GiB, rows of
  // 4095 floats, so its columns start off 16-byte boundaries.
  cs.push_back({"dim 1 of 128 x 4096 x 4095", dtype::f32, {128, 4096, 4095}, {1}});
  cs.push_back({"dim 1 of 1M x 8 x 32", dtype::f32, {1 << 20, 8, 32}, {1}});
  cs.push_back({"bf16 flat 2^28", dtype::bf16, {1 << 28}, {}});
  if (quick) {
    std::vector<bench_case> q;
    for (auto& c : cs)
      if (c.name == "flat 2^28" || c.name == "flat 2^20" || c.name == "rows 4M x 32" || c.name == "dim 0 of 4096 x 65536" ||
          c.name == "bf16 flat 2^28")
        q.push_back(c);
    return q;
  }
  return cs;
}

std::string json_escape(const std::string& s) {
  std::string o;
  for (char c : s) o += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  std::string out_path = "gpu-bench.json", only;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick")) quick = true;
    else if (!std::strcmp(argv[i], "--out") && i + 1 < argc) out_path = argv[++i];
    else if (!std::strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
  }
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "device properties");
  cudaStream_t stream;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "stream");
  argx_bench::timer tm;
  tm.create(stream);
  tm.budget_s = quick ? 0.3 : 1.0;
  tm.max_reps = quick ? 50 : 200;

  const std::size_t max_bytes = std::size_t(1) << 30;  // the reference ceiling's size
  std::size_t input_bytes = max_bytes;                   // the largest case's, if larger
  for (const bench_case& c : all_cases(false))
    input_bytes = std::max(input_bytes, static_cast<std::size_t>(c.elements()) * argx::size_of(c.type));
  void* input = nullptr;
  check(cudaMalloc(&input, input_bytes + 256), "input");
  std::int64_t* indices = nullptr;
  check(cudaMalloc(&indices, (std::size_t(1) << 25) * 8), "indices");  // up to 32M outputs
  unsigned* sink = nullptr;
  check(cudaMalloc(&sink, 64), "sink");
  const int ceiling_blocks = prop.multiProcessorCount * (prop.maxThreadsPerMultiProcessor / 256);

  auto ceiling_ms = [&](std::size_t bytes) {
    return tm.median_ms([&] {
      argx_bench::move_ceiling<<<ceiling_blocks, 256, 0, stream>>>(static_cast<const uint4*>(input), bytes / 16, nullptr, 0, sink);
    });
  };
  check(cudaMemsetAsync(input, 0x3c, max_bytes, stream), "memset");
  const double empty_ms = tm.median_ms([&] { empty_kernel<<<1, 1, 0, stream>>>(); }, 20);
  const double big_ceiling_ms = ceiling_ms(max_bytes);
  std::printf("device: %s, %d SMs; empty launch %.2f us; read ceiling %.0f GB/s (1 GiB)\n", prop.name,
              prop.multiProcessorCount, empty_ms * 1e3, max_bytes / big_ceiling_ms / 1e6);

  // Host-side cost of one call, without waiting for the GPU: a pointer query, and a whole
  // argx::cuda call on 1024 floats (validation, plan, checks, launch).
  double attr_us = 0, call_us = 0, launch_us = 0, launch_plan_us = 0;
  if (only.empty()) {
    cudaPointerAttributes a{};
    const int n = 2000;
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) check(cudaPointerGetAttributes(&a, input), "attributes");
    attr_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / n;
    const auto x = argx::make_view(static_cast<const float*>(input), {1024}, argx::memory_space::device);
    const auto o = argx::make_output(indices, argx::shape{}, argx::memory_space::device);
    for (int i = 0; i < 50; ++i) argx::argmax(argx::cuda.on(stream), x, o);
    check(cudaStreamSynchronize(stream), "sync");
    t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) argx::argmax(argx::cuda.on(stream), x, o);
    call_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / n;
    check(cudaStreamSynchronize(stream), "sync");
    t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) empty_kernel<<<1, 1, 0, stream>>>();
    launch_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / n;
    check(cudaStreamSynchronize(stream), "sync");
    // Host cost of launching an empty kernel with parameter blocks of 8 B to 2 KiB.
    std::string sizes;
    auto time_params = [&](auto block, int bytes) {
      auto t1 = std::chrono::steady_clock::now();
      for (int i = 0; i < n; ++i) empty_kernel_with<<<1, 1, 0, stream>>>(block);
      const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t1).count() / n;
      check(cudaStreamSynchronize(stream), "sync");
      sizes += (sizes.empty() ? "" : ", ") + std::to_string(bytes) + " B " + std::to_string(us).substr(0, 5) + " us";
      if (bytes == 1024) launch_plan_us = us;
    };
    time_params(param_block<8>{}, 8);
    time_params(param_block<256>{}, 256);
    time_params(param_block<512>{}, 512);
    time_params(param_block<1024>{}, 1024);
    time_params(param_block<2048>{}, 2048);
    std::printf("host: cudaPointerGetAttributes %.2f us; argx::cuda call (enqueue only, 2^10 floats) %.2f us; "
                "empty launch %.2f us; with parameters of %s\n",
                attr_us, call_us, launch_us, sizes.c_str());
  }

  std::string json = "{\n  \"device\": \"" + json_escape(prop.name) + "\",\n  \"multiprocessors\": " +
                     std::to_string(prop.multiProcessorCount) + ",\n  \"empty_launch_ms\": " + std::to_string(empty_ms) +
                     ",\n  \"ceiling_1GiB_ms\": " + std::to_string(big_ceiling_ms) +
                     ",\n  \"host_pointer_query_us\": " + std::to_string(attr_us) + ",\n  \"host_call_us\": " +
                     std::to_string(call_us) + ",\n  \"host_empty_launch_us\": " + std::to_string(launch_us) +
                     ",\n  \"host_1KiB_param_launch_us\": " + std::to_string(launch_plan_us) + ",\n  \"cases\": [\n";
  bool all_agree = true;
  auto cases = all_cases(quick);
  if (!only.empty()) {
    std::vector<bench_case> picked;
    for (auto& c : all_cases(false))
      if (c.name == only) picked.push_back(c);
    cases = picked;
    tm.max_reps = 3;
  }
  for (std::size_t ci = 0; ci < cases.size(); ++ci) {
    const bench_case& c = cases[ci];
    const std::int64_t n = c.elements(), outs = c.outputs();
    const std::size_t bytes = static_cast<std::size_t>(n) * argx::size_of(c.type);
    argx_bench::fill_floats<<<1024, 256, 0, stream>>>(input, static_cast<std::size_t>(n), c.type == argx::dtype::bf16, 1234 + ci);
    check(cudaGetLastError(), "fill");
    argx::shape ext;
    for (auto e : c.extents) ext.push_back(e);
    argx::spec s;
    for (int d : c.dims) s.dims.push_back(d);
    const argx::tensor_view x = argx::make_view(input, c.type, ext, argx::contiguous_strides(ext), argx::memory_space::device);
    const argx::shape out_ext = argx::output_shape(x, s);
    const auto out = argx::make_output(indices, out_ext, argx::memory_space::device);

    std::map<std::string, double> t;
    t["ceiling"] = ceiling_ms(bytes);
    t["argx::cuda"] = tm.median_ms([&] { argx::argmax(argx::cuda.on(stream), x, out, s); });
    if (!only.empty()) {
      std::printf("%s: argx::cuda %.4f ms\n", c.name.c_str(), t["argx::cuda"]);
      continue;
    }
    std::vector<std::int64_t> mine(static_cast<std::size_t>(outs)), other(static_cast<std::size_t>(outs));
    check(cudaMemcpy(mine.data(), indices, outs * 8, cudaMemcpyDeviceToHost), "download");
    t["argx::thrust"] = tm.median_ms([&] { argx::argmax(argx::thrust.on(stream), x, out, s); }, 2);
    check(cudaMemcpy(other.data(), indices, outs * 8, cudaMemcpyDeviceToHost), "download");
    bool agree = mine == other;

    const float* xf = static_cast<const float*>(input);
    if (c.type == argx::dtype::f32 && c.flat()) {
      float* d_max = reinterpret_cast<float*>(sink + 4);
      std::size_t temp_bytes = 0;
      check(cub::DeviceReduce::ArgMax(nullptr, temp_bytes, xf, d_max, indices, n, stream), "cub size");
      void* temp = nullptr;
      check(cudaMalloc(&temp, temp_bytes + 16), "cub temp");
      t["cub::DeviceReduce::ArgMax"] =
          tm.median_ms([&] { cub::DeviceReduce::ArgMax(temp, temp_bytes, xf, d_max, indices, n, stream); });
      std::int64_t cub_index = -1;
      check(cudaMemcpy(&cub_index, indices, 8, cudaMemcpyDeviceToHost), "download");
      agree = agree && cub_index == mine[0];
      check(cudaFree(temp), "free");
      t["thrust::max_element"] = tm.median_ms([&] {
        volatile auto it = thrust::max_element(thrust::cuda::par.on(stream), xf, xf + n);
        (void)it;
      });
    }
    if (c.type == argx::dtype::f32 && c.rows()) {
      const std::int64_t rows = c.extents[0], len = c.extents[1];
      auto offsets = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), times_r{len});
      cub::KeyValuePair<int, float>* kv = nullptr;
      check(cudaMalloc(&kv, rows * sizeof(*kv)), "kv");
      std::size_t temp_bytes = 0;
      check(cub::DeviceSegmentedReduce::ArgMax(nullptr, temp_bytes, xf, kv, rows, offsets, offsets + 1, stream), "cub size");
      void* temp = nullptr;
      check(cudaMalloc(&temp, temp_bytes + 16), "cub temp");
      t["cub::DeviceSegmentedReduce::ArgMax"] = tm.median_ms(
          [&] { cub::DeviceSegmentedReduce::ArgMax(temp, temp_bytes, xf, kv, rows, offsets, offsets + 1, stream); });
      std::vector<cub::KeyValuePair<int, float>> h(static_cast<std::size_t>(rows));
      check(cudaMemcpy(h.data(), kv, rows * sizeof(*kv), cudaMemcpyDeviceToHost), "download");
      for (std::int64_t i = 0; i < rows; ++i) agree = agree && h[i].key == mine[i];
      check(cudaFree(temp), "free");
      check(cudaFree(kv), "free");
    }
    all_agree = all_agree && agree;

    std::printf("%-28s %9.1f MB  ceiling %8.4f ms (%5.0f GB/s)  argx::cuda %8.4f ms (%5.0f GB/s, %5.1f%%)%s\n",
                c.name.c_str(), bytes / 1e6, t["ceiling"], bytes / t["ceiling"] / 1e6, t["argx::cuda"],
                bytes / t["argx::cuda"] / 1e6, 100 * t["ceiling"] / t["argx::cuda"], agree ? "" : "  MISMATCH");
    for (auto& [k, v] : t)
      if (k != "ceiling" && k != "argx::cuda") std::printf("    %-36s %9.4f ms  (argx::cuda is %.2fx faster)\n", k.c_str(), v, v / t["argx::cuda"]);
    std::fflush(stdout);

    json += "    {\"name\": \"" + json_escape(c.name) + "\", \"dtype\": \"" + std::string(argx::name(c.type)) +
            "\", \"extents\": [";
    for (std::size_t i = 0; i < c.extents.size(); ++i) json += (i ? ", " : "") + std::to_string(c.extents[i]);
    json += "], \"dims\": [";
    for (std::size_t i = 0; i < c.dims.size(); ++i) json += (i ? ", " : "") + std::to_string(c.dims[i]);
    json += "], \"bytes\": " + std::to_string(bytes) + ", \"agree\": " + (agree ? "true" : "false") + ", \"ms\": {";
    bool first = true;
    for (auto& [k, v] : t) {
      json += std::string(first ? "" : ", ") + "\"" + k + "\": " + std::to_string(v);
      first = false;
    }
    json += "}}" + std::string(ci + 1 < cases.size() ? "," : "") + "\n";
  }
  json += "  ]\n}\n";
  if (FILE* f = std::fopen(out_path.c_str(), "w")) {
    std::fputs(json.c_str(), f);
    std::fclose(f);
  }
  std::printf("answers agree with argx::thrust and CUB: %s\nwrote %s\n", all_agree ? "yes" : "NO", out_path.c_str());
  return all_agree ? 0 : 2;
}
