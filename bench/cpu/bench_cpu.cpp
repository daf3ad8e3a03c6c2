// argx_bench_cpu: GB/s of the CPU backends (seq, par, tbb) beside std::max_element and a
// read-bandwidth ceiling, on the shapes of the CPU speed goals. numpy is timed by
// numpy_bench.py and merged by report.py (run.sh runs all three).
//
// Benchmark names are <workload>/<implementation>; GB/s counts the input bytes once.
// Implementations:
//   seq, par, tbb          argx backends, caller-owned output buffers (no allocation)
//   std_seq, std_par       std::max_element over each slice (sequenced / parallel policy);
//   std_par_unseq          for the abs workload only
//   read_1t, read_2t       vectorised sum of the same bytes on one thread / all threads
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <execution>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <oneapi/tbb/task_arena.h>

#include <argx/argx.hpp>
#include <argx/detail/splitmix64.hpp>

#include "read_ceiling.hpp"

namespace {

constexpr std::int64_t KiB = 1024, MiB = 1024 * KiB;

/// One reduction the goals name.
struct workload {
  std::string name;
  argx::dtype type;
  argx::shape extents;
  int dim;  // reduced dim; -1 = all (flat)
  bool abs = false;

  std::int64_t count() const {
    std::int64_t n = 1;
    for (auto e : extents) n *= e;
    return n;
  }
  std::int64_t bytes() const { return count() * static_cast<std::int64_t>(argx::size_of(type)); }
  argx::spec spec() const {
    argx::spec s;
    if (dim >= 0) s.dims = {dim};
    s.abs = abs;
    return s;
  }
};

std::vector<workload> workloads() {
  using argx::dtype;
  std::vector<workload> w;
  for (std::int64_t b : {256 * KiB, 1 * MiB, 4 * MiB, 16 * MiB, 64 * MiB, 256 * MiB})
    w.push_back({"flat_f32_" + (b < MiB ? std::to_string(b / KiB) + "KiB" : std::to_string(b / MiB) + "MiB"), dtype::f32,
                 {b / 4}, -1});
  w.push_back({"rows_f32_2Mx32", dtype::f32, {2 * 1024 * 1024, 32}, 1});
  w.push_back({"rows_f32_65536x1024", dtype::f32, {65536, 1024}, 1});
  w.push_back({"rows_f32_64x1M", dtype::f32, {64, 1024 * 1024}, 1});
  w.push_back({"axis0_f32_4096x16384", dtype::f32, {4096, 16384}, 0});
  w.push_back({"axis1_f32_64x1024x1024", dtype::f32, {64, 1024, 1024}, 1});
  w.push_back({"flat_f64_256MiB", dtype::f64, {32 * MiB}, -1});
  w.push_back({"flat_i32_256MiB", dtype::i32, {64 * MiB}, -1});
  w.push_back({"flat_u8_256MiB", dtype::u8, {256 * MiB}, -1});
  w.push_back({"flat_f16_256MiB", dtype::f16, {128 * MiB}, -1});
  w.push_back({"flat_bf16_256MiB", dtype::bf16, {128 * MiB}, -1});
  w.push_back({"abs_f32_250000", dtype::f32, {250000}, -1, true});
  return w;
}

// ---- data: one workload's input at a time ---------------------------------------------------

struct free_deleter {
  void operator()(void* p) const { std::free(p); }
};

struct input {
  std::string name;
  std::unique_ptr<unsigned char, free_deleter> data;
};
input current;

/// Uniform values in [-1, 1) for floats (numpy_bench.py draws the same way), random finite
/// half/bfloat16, integers of any value but the type's largest: no NaN, few ties, and no
/// element that would let a scan stop early.
const unsigned char* data_for(const workload& w) {
  if (current.name == w.name) return current.data.get();
  current.data.reset();
  const std::size_t bytes = static_cast<std::size_t>(w.bytes());
  current.data.reset(static_cast<unsigned char*>(std::aligned_alloc(64, (bytes + 63) / 64 * 64)));
  current.name = w.name;
  argx::detail::splitmix64 r(12345);
  unsigned char* p = current.data.get();
  const std::int64_t n = w.count();
  auto uniform = [&] { return static_cast<double>(r.next() >> 11) * 0x1.0p-52 - 1.0; };
  for (std::int64_t i = 0; i < n; ++i) {
    switch (w.type) {
      case argx::dtype::f32: { const float v = static_cast<float>(uniform()); std::memcpy(p + 4 * i, &v, 4); break; }
      case argx::dtype::f64: { const double v = uniform(); std::memcpy(p + 8 * i, &v, 8); break; }
      case argx::dtype::f16: case argx::dtype::bf16: {
        // Random finite half/bfloat16 values of both signs.
        std::uint16_t b = static_cast<std::uint16_t>(r.next());
        const std::uint16_t exp = w.type == argx::dtype::f16 ? 0x7C00 : 0x7F80;
        if ((b & exp) == exp) b ^= exp & static_cast<std::uint16_t>(~(exp << 1));
        std::memcpy(p + 2 * i, &b, 2);
        break;
      }
      default: {  // integers: any value but the type's largest (which would end a scan early)
        std::uint64_t b = r.next();
        const std::size_t size = argx::size_of(w.type);
        const bool is_signed = w.type == argx::dtype::i8 || w.type == argx::dtype::i16 || w.type == argx::dtype::i32 ||
                               w.type == argx::dtype::i64;
        const std::uint64_t top = (size == 8 ? ~0ull : (1ull << (8 * size)) - 1) >> (is_signed ? 1 : 0);
        if ((b & (size == 8 ? ~0ull : (1ull << (8 * size)) - 1)) == top) b ^= 1;
        std::memcpy(p + size * i, &b, size);
      }
    }
  }
  return p;
}

// ---- argx -----------------------------------------------------------------------------------

void run_argx(benchmark::State& state, const workload& w, argx::backend b) {
  const unsigned char* p = data_for(w);
  const argx::tensor_view x = argx::make_view(static_cast<const void*>(p), w.type, w.extents, argx::contiguous_strides(w.extents));
  const argx::spec s = w.spec();
  const argx::shape out_shape = argx::output_shape(x, s);
  std::int64_t outputs = 1;
  for (auto e : out_shape) outputs *= e;
  std::vector<std::int64_t> idx(static_cast<std::size_t>(outputs));
  const argx::output_view out = argx::make_output(idx.data(), out_shape);
  for (auto _ : state) {
    argx::argmax(argx::policy{b}, x, out, s);
    benchmark::DoNotOptimize(idx.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * w.bytes());
  // A fast wrong answer is no result: the timed output must be seq's.
  if (b != argx::backend::seq && argx::argmax(argx::seq, x, s).indices != idx)
    state.SkipWithError("the answer differs from seq's");
}

// ---- std::max_element -------------------------------------------------------------------------

/// A random-access iterator over every `stride`-th element (std::max_element along a
/// non-contiguous dim).
template <class T>
struct strided_it {
  using iterator_category = std::random_access_iterator_tag;
  using value_type = T;
  using difference_type = std::ptrdiff_t;
  using pointer = const T*;
  using reference = const T&;
  const T* p;
  std::ptrdiff_t stride;
  reference operator*() const { return *p; }
  reference operator[](difference_type n) const { return p[n * stride]; }
  strided_it& operator++() { p += stride; return *this; }
  strided_it operator++(int) { auto t = *this; p += stride; return t; }
  strided_it& operator--() { p -= stride; return *this; }
  strided_it operator--(int) { auto t = *this; p -= stride; return t; }
  strided_it& operator+=(difference_type n) { p += n * stride; return *this; }
  strided_it& operator-=(difference_type n) { p -= n * stride; return *this; }
  friend strided_it operator+(strided_it a, difference_type n) { return a += n; }
  friend strided_it operator+(difference_type n, strided_it a) { return a += n; }
  friend strided_it operator-(strided_it a, difference_type n) { return a -= n; }
  friend difference_type operator-(strided_it a, strided_it b) { return (a.p - b.p) / a.stride; }
  friend bool operator==(strided_it a, strided_it b) { return a.p == b.p; }
  friend auto operator<=>(strided_it a, strided_it b) { return a.p <=> b.p; }
};

/// Index of the maximum of each slice with std::max_element: one parallel max_element
/// for a single slice, otherwise the slices spread over std::for_each under `policy`.
template <class T, class Policy>
void run_std(benchmark::State& state, const workload& w, Policy policy) {
  const T* p = reinterpret_cast<const T*>(data_for(w));
  const auto less = [abs = w.abs](T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
      if (abs) return std::fabs(a) < std::fabs(b);
    }
    return a < b;
  };
  // Slice o of a reduction over dim d: `len` elements `inner` apart.
  const int d = w.dim < 0 ? 0 : w.dim;
  const std::int64_t len = w.dim < 0 ? w.count() : w.extents[d];
  std::int64_t inner = 1;
  for (int k = d + 1; w.dim >= 0 && k < w.extents.size(); ++k) inner *= w.extents[k];
  const std::int64_t slices = w.count() / len;
  std::vector<std::int64_t> idx(static_cast<std::size_t>(slices));
  auto one = [&](std::int64_t o) {
    const T* first = p + (o / inner) * len * inner + o % inner;
    if (inner == 1) {
      idx[o] = std::max_element(first, first + len, less) - first;
    } else {
      const strided_it<T> it{first, inner};
      idx[o] = std::max_element(it, it + len, less) - it;
    }
  };
  for (auto _ : state) {
    if (slices == 1)
      idx[0] = std::max_element(policy, p, p + len, less) - p;
    else
      std::for_each(policy, idx.begin(), idx.end(), [&](std::int64_t& slot) { one(&slot - idx.data()); });
    benchmark::DoNotOptimize(idx.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * w.bytes());
}

// ---- read ceiling ---------------------------------------------------------------------------

void run_read(benchmark::State& state, const workload& w, bool all_threads) {
  const unsigned char* p = data_for(w);
  const std::size_t n = static_cast<std::size_t>(w.bytes());
  const int threads = all_threads ? tbb::this_task_arena::max_concurrency() : 1;
  for (auto _ : state) {
    const std::uint64_t s = argx_bench::read_sum_threads(p, n, threads);
    benchmark::DoNotOptimize(s);
  }
  state.SetBytesProcessed(state.iterations() * w.bytes());
}

template <class T>
void register_std(const workload& w) {
  auto add = [&](const char* label, auto policy) {
    benchmark::RegisterBenchmark((w.name + "/" + label).c_str(), [w, policy](benchmark::State& st) {
      run_std<T>(st, w, policy);
    })->UseRealTime()->Unit(benchmark::kMicrosecond);
  };
  add("std_seq", std::execution::seq);
  add("std_par", std::execution::par);
  if (w.abs) add("std_par_unseq", std::execution::par_unseq);
}

void register_all() {
  for (const workload& w : workloads()) {
    for (argx::backend b : {argx::backend::tbb, argx::backend::par, argx::backend::seq}) {
      if (!argx::available(b)) continue;
      benchmark::RegisterBenchmark((w.name + "/" + std::string(argx::name(b))).c_str(),
                                   [w, b](benchmark::State& st) { run_argx(st, w, b); })
          ->UseRealTime()
          ->Unit(benchmark::kMicrosecond);
    }
    switch (w.type) {  // std has no half or bfloat16
      case argx::dtype::f32: register_std<float>(w); break;
      case argx::dtype::f64: register_std<double>(w); break;
      case argx::dtype::i32: register_std<std::int32_t>(w); break;
      case argx::dtype::u8: register_std<std::uint8_t>(w); break;
      default: break;
    }
    for (bool all : {false, true})
      benchmark::RegisterBenchmark((w.name + (all ? "/read_2t" : "/read_1t")).c_str(),
                                   [w, all](benchmark::State& st) { run_read(st, w, all); })
          ->UseRealTime()
          ->Unit(benchmark::kMicrosecond);
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::AddCustomContext("argx_simd_target", argx::cpu_simd_target());
  benchmark::AddCustomContext("read_target", argx_bench::read_target());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
