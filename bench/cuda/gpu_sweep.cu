// The GPU random-shape sweep: argx::cuda on the seeded cases of bench/sweep against the
// bandwidth ceiling over the same bytes, in one run on one GPU. For each case it times,
// with CUDA events around each call (host overhead included), after warm-up, the median of
// many runs:
//   - the ceiling: one kernel that reads the case's bytes with 16-byte loads and writes as
//     many bytes as its int64 index output;
//   - argx::cuda on the view (default spec: int64 indices, NaN propagates, first tie);
// and checks argx::cuda's indices against argx::thrust's. Small cases (under 1 MiB) are
// also timed against an empty kernel launch. Cases under 64 MiB and the empty launch are
// also timed queued behind a spin kernel, which splits a call's cost into the GPU's part
// and the host's (timer::queued). torch is timed on the same views by
// sweep_report.py, which reads this program's JSON.
//
//   gpu_sweep [--cases N] [--small N] [--seed S] [--out FILE.json] [--only ID] [--variant V]
//             [--host-costs 1] [--host-steps 1]
// (--only times one case, argx::cuda alone, a few times: for the profiler. --variant times
// every call with another launch than argx's choice, to weigh a launch rule: "unsplit"
// (splits of a slice or column tile taken away, where the kernel allows), "tiny" (a thread
// a slice, for ordered layouts), "windows" (rows held in registers by the window kernel where
// argx stages them in shared memory), "more-splits" (split slices of long runs cut into 4x
// the pieces), "splits-x2" / "splits-x4" / "splits-/2" / "splits-/4" (column launches
// meeting through atomic maxima and block run launches cut into 2x, 4x, 1/2x or 1/4x the
// pieces, unsplit ones included), "team-narrower" / "team-waves" (team launches with teams
// of half the lanes, or 4x the blocks), "stream-runs" (block run launches over several
// runs walked as one stream of slots), "run-after-run" / "across-all" (block run launches
// over several runs walked run after run, or all of them as one range of slots across
// the runs); "flat-scan" times flat reductions from 1 MiB to 1 GiB instead of the sweep
// (GPU time of argx, of 4x and 1/2x its pieces, and of the ceiling: the fixed cost and the
// streaming rate apart). --host-costs prints the host time of the runtime calls a call
// makes, one by one; --host-steps the host time of each step of a call, case by case, on
// the small cases.)
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include <argx/argx.hpp>

#include "../../backends/common/visit_dtype.hpp"
#include "../../backends/cuda/call.hpp"
#include "../../backends/cuda/dispatch.hpp"
#include "../../backends/cuda/enqueue.hpp"
#include "../../backends/cuda/tuning.hpp"
#include "../../backends/cuda/workspace.hpp"
#include "../sweep/sweep_cases.hpp"
#include "bench_kernels.cuh"

namespace {

using argx_bench::check;

std::string json_list(const std::vector<std::int64_t>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

struct run_state {
  cudaStream_t stream = nullptr;
  argx_bench::timer tm;
  void* buffer = nullptr;       // random bits every case's view lives in
  std::int64_t* indices = nullptr;
  std::int64_t* other = nullptr;  // argx::thrust's answer
  unsigned* sink = nullptr;
  int ceiling_blocks = 1;
};

using argx::detail::gpu::device_limits;
using argx::detail::gpu::kernel_kind;
using argx::detail::gpu::launch_config;
using argx::detail::gpu::layout;
using argx::detail::gpu::residency;

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// The launch without splits, where the kernel takes one (else the launch as chosen).
launch_config unsplit(const layout& l, const launch_config& c, const residency&, const device_limits&) {
  if (c.splits <= 1 || c.virt.any()) return c;  // (a virtual walk's rows are not l's)
  launch_config u = c;
  u.splits = 1;
  u.counters = u.slots = u.partials = 0;
  u.packed_meet = false;
  u.answer_blocks = 0;  // one piece a tile stores its answers itself
  u.answers_by_block = false;
  switch (c.kernel) {
    case kernel_kind::columns: {
      const std::int64_t row_lanes = std::int64_t(32 >> c.column_lanes_log2) << c.row_warps_log2;
      const std::int64_t rows_per_thread = ceil_div(l.reduce, row_lanes);
      const auto elem = static_cast<std::int64_t>(argx::size_of(l.type));
      if (c.packed && rows_per_thread > argx::detail::gpu::packed_column_rows_max(elem)) return c;
      u.chunk = l.reduce;
      u.blocks = c.blocks / c.splits;
      return u;
    }
    case kernel_kind::runs_block:
    case kernel_kind::runs_unordered: {
      const std::int64_t runs = l.reduce / l.run_length();
      u.chunk = c.run_stream ? runs : runs * c.run_slots;
      u.blocks = l.outputs;
      return u;
    }
    case kernel_kind::elements_block:
      u.chunk = l.reduce;
      u.blocks = l.outputs;
      return u;
    default: return c;
  }
}

// A thread a slice (tiny_slices), for layouts whose positions rise along the walk.
launch_config tiny(const layout& l, const launch_config& c, const residency& r, const device_limits& d) {
  if (!l.ordered || l.reduce > (std::int64_t(1) << 30)) return c;
  return argx::detail::gpu::thread_per_slice_launch(l, r, d);
}

// The window kernel (rows held in registers) where argx stages rows in shared memory.
launch_config windows(const layout& l, const launch_config& c, const residency& r, const device_limits& d) {
  return c.kernel == kernel_kind::staged_rows ? argx::detail::gpu::windows_launch(l, r, d) : c;
}

// Host microseconds of each runtime call a cuda call makes (median of 2000).
void host_costs(void* device_ptr, cudaStream_t stream) {
  cudaEvent_t ev;
  check(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming), "event");
  const auto time_us = [](const char* name, auto&& f) {
    std::vector<double> t;
    for (int i = 0; i < 2000; ++i) {
      const auto a = std::chrono::steady_clock::now();
      f();
      t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - a).count());
    }
    std::sort(t.begin(), t.end());
    std::printf("host cost %-28s %.3f us (p90 %.3f)\n", name, t[t.size() / 2], t[t.size() * 9 / 10]);
  };
  int dev = 0;
  cudaPointerAttributes pa{};
  cudaStreamCaptureStatus cs{};
  cudaGraph_t g = nullptr;
  unsigned long long id = 0;
  time_us("cudaGetLastError", [&] { (void)cudaGetLastError(); });
  time_us("cudaGetDevice", [&] { (void)cudaGetDevice(&dev); });
  time_us("cudaPointerGetAttributes", [&] { (void)cudaPointerGetAttributes(&pa, device_ptr); });
  time_us("cudaStreamGetCaptureInfo", [&] { (void)cudaStreamGetCaptureInfo(stream, &cs, nullptr, &g); });
  time_us("cudaStreamGetId", [&] { (void)cudaStreamGetId(stream, &id); });
  time_us("cudaEventRecord", [&] { (void)cudaEventRecord(ev, stream); });
  time_us("empty launch", [&] { argx_bench::empty_kernel<<<1, 1, 0, stream>>>(); });
  check(cudaStreamSynchronize(stream), "host costs");
  cudaEventDestroy(ev);
}

// An empty kernel that takes a layout by value, as argx's kernels do.
__global__ void layout_kernel(layout) {}

// Host microseconds of each step of argx::reduce on the cuda backend (the steps of
// run_cuda, one by one), for each case: median of 200 calls queued behind a spin, so the
// GPU's queue never drains and never fills.
void host_steps(run_state& st, const std::vector<argx::sweep::sweep_case>& cases) {
  namespace gpu = argx::detail::gpu;
  const auto median_us = [&](auto&& f) {
    for (int i = 0; i < 5; ++i) f();
    check(cudaStreamSynchronize(st.stream), "host steps");
    argx_bench::spin_kernel<<<1, 1, 0, st.stream>>>(20000000);  // 20 ms
    std::vector<double> t;
    for (int i = 0; i < 200; ++i) {
      const auto a = std::chrono::steady_clock::now();
      f();
      t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - a).count());
    }
    check(cudaStreamSynchronize(st.stream), "host steps");
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
  };
  const char* names[] = {"call", "plan", "gpu_call", "layout", "launch_for", "workspace", "enqueue", "empty",
                         "layout_param", "steps_sum"};
  constexpr int steps = 10;
  std::vector<std::vector<double>> all(steps);
  std::printf("host steps (us):");
  for (const char* n : names) std::printf(" %s", n);
  std::printf("\n");
  for (const auto& c : cases) {
    const argx::tensor_view x = c.view_of(st.buffer, argx::memory_space::device);
    const argx::spec s = c.spec();
    const auto out = argx::make_output(st.indices, argx::output_shape(x, s), argx::memory_space::device);
    const argx::detail::plan p = argx::detail::make_plan(x, c.op, s);
    const argx::detail::outputs outs{st.indices, nullptr, argx::memory_space::device, argx::memory_space::host};
    const gpu::layout l = gpu::make_layout(p);
    const gpu::launch_config lc = gpu::launch_for(p);
    const bool needs_ws = lc.counters > 0 || lc.slots > 0 || lc.partials > 0;
    gpu::workspace_lease held{};
    if (needs_ws) held = gpu::workspace(0, st.stream, nullptr, lc.counters, lc.slots, lc.partials);
    gpu::device_outputs targets{};
    {
      gpu::gpu_call call(p, outs, st.stream, "cuda");
      targets = call.targets();
    }
    double v[steps] = {};
    v[0] = median_us([&] { argx::reduce(argx::cuda.on(st.stream), c.op, x, out, nullptr, s); });
    v[1] = median_us([&] { volatile auto k = argx::detail::make_plan(x, c.op, s).kind; (void)k; });
    v[2] = median_us([&] {
      gpu::gpu_call call(p, outs, st.stream, "cuda");
      call.finish();
    });
    v[3] = median_us([&] { volatile auto k = gpu::make_layout(p).outputs; (void)k; });
    v[4] = median_us([&] { volatile auto k = gpu::launch_for(p).blocks; (void)k; });
    if (needs_ws)
      v[5] = median_us([&] { gpu::workspace_done(gpu::workspace(0, st.stream, nullptr, lc.counters, lc.slots, lc.partials), st.stream); });
    v[6] = median_us([&] {
      argx::detail::visit_dtype(l.type, [&](auto d) { gpu::enqueue<decltype(d)::value>(lc, l, targets, held.ptrs, st.stream); });
    });
    v[7] = median_us([&] { argx_bench::empty_kernel<<<1, 1, 0, st.stream>>>(); });
    v[8] = median_us([&] { layout_kernel<<<1, 1, 0, st.stream>>>(l); });
    v[9] = v[2] + v[3] + v[4] + v[5] + v[6];
    if (needs_ws) gpu::workspace_done(held, st.stream);
    check(cudaStreamSynchronize(st.stream), "host steps");
    std::printf("%6d", c.id);
    for (int i = 0; i < steps; ++i) {
      std::printf(" %6.2f", v[i]);
      all[i].push_back(v[i]);
    }
    std::printf("  %s\n", gpu::describe(lc).c_str());
  }
  std::printf("median");
  for (auto& a : all) {
    std::sort(a.begin(), a.end());
    std::printf(" %6.2f", a[a.size() / 2]);
  }
  std::printf("\n");
}

// A block run launch `u` with each slice's `units` (slots or runs) cut into at most
// `splits` pieces: its grid and its meeting's workspace.
launch_config cut_slices(const layout& l, launch_config u, std::int64_t units, std::int64_t splits) {
  u.chunk = ceil_div(units, splits);
  u.splits = ceil_div(units, u.chunk);
  u.blocks = l.outputs * u.splits;
  u.counters = u.splits > 1 ? static_cast<std::size_t>(l.outputs) : 0;
  u.partials = u.splits > 1 ? static_cast<std::size_t>(l.outputs * u.splits) : 0;
  return u;
}

// Split slices of runs cut into `F` times as many pieces (F < 0: -F times fewer).
template <int F>
launch_config resplit(const layout& l, const launch_config& c, const residency&, const device_limits&) {
  if (c.kernel != kernel_kind::runs_block || c.run_stream || c.splits <= 1) return c;
  return cut_slices(l, c, c.chunk * c.splits, F > 0 ? c.splits * F : std::max<std::int64_t>(1, c.splits / -F));
}

// Split launches recut into `F` times as many pieces (F < 0: -F times fewer), for the
// kinds whose pieces meet in the launch itself: columns meeting through atomic maxima
// (unsplit ones too, where their keys allow that meeting) and the block run kernels
// (their partials, a piece each). Another launch is returned unchanged.
template <int F>
launch_config resplit_any(const layout& l, const launch_config& c, const residency&, const device_limits&) {
  if (c.virt.any() || c.answer_blocks > 0) return c;
  const auto elem = static_cast<std::int64_t>(argx::size_of(l.type));
  const std::int64_t want = F > 0 ? c.splits * F : std::max<std::int64_t>(1, c.splits / -F);
  launch_config u = c;
  u.counters = u.slots = u.partials = 0;
  u.packed_meet = false;
  if (c.kernel == kernel_kind::columns) {
    if (elem >= 8 || l.reduce >= (std::int64_t(1) << 31)) return c;
    const std::int64_t row_lanes = std::int64_t(32 >> c.column_lanes_log2) << c.row_warps_log2;
    const std::int64_t tiles = c.blocks / c.splits;
    std::int64_t splits = std::min(want, std::max<std::int64_t>(1, l.reduce / row_lanes));
    if (c.packed)
      splits = std::max(splits, ceil_div(l.reduce, row_lanes * argx::detail::gpu::packed_column_rows_max(elem)));
    u.chunk = ceil_div(l.reduce, splits);
    u.splits = ceil_div(l.reduce, u.chunk);
    u.blocks = tiles * u.splits;
    if (u.splits > 1) {
      u.packed_meet = true;
      u.counters = static_cast<std::size_t>(tiles);
      u.slots = static_cast<std::size_t>(l.outputs);
    }
    return u;
  }
  if (c.kernel != kernel_kind::runs_block && c.kernel != kernel_kind::runs_unordered) return c;
  const std::int64_t runs = l.reduce / l.run_length();
  const std::int64_t units = c.run_stream ? runs : runs * c.run_slots;
  return cut_slices(l, u, units, std::min(want, units));
}

// Block run launches over several runs that walk them one after another, walked instead
// as one stream of slots (pieces of whole runs, as many as before where the runs allow):
// to weigh the stream rule's bound (stream_max_slots_per_lane) on longer runs.
launch_config stream_runs(const layout& l, const launch_config& c, const residency&, const device_limits&) {
  if ((c.kernel != kernel_kind::runs_block && c.kernel != kernel_kind::runs_unordered) || c.run_stream || l.dense)
    return c;
  const std::int64_t runs = l.reduce / l.run_length();
  if (runs == 1) return c;
  launch_config u = c;
  u.run_stream = true;
  u.run_across = false;
  return cut_slices(l, u, runs, std::min(c.splits, runs));
}

// Ordered block run launches that walk a piece's slots as one range across its runs,
// walked run after run instead (the walk before that rule), or (AcrossAll) every one over
// several runs of more than a stream's slots walked across: to weigh the rule's bound
// (across_max_slots_per_lane) both ways.
template <bool AcrossAll>
launch_config across_variant(const layout& l, const launch_config& c, const residency&, const device_limits&) {
  if (c.kernel != kernel_kind::runs_block) return c;
  launch_config u = c;
  u.run_across = AcrossAll ? !c.run_stream && l.reduce > l.run_length() : false;
  return u;
}

// Team launches (a team of lanes a slice) with teams of half the lanes (Narrower), or with
// four times the blocks (more waves of them), to weigh two untuned knobs of the team rule.
template <bool Narrower>
launch_config team_variant(const layout& l, const launch_config& c, const residency& r, const device_limits& d) {
  if (c.kernel != kernel_kind::runs_team) return c;
  using hopper = argx::detail::gpu::tune::for_arch<90>;
  launch_config u = c;
  const std::int64_t waves = static_cast<std::int64_t>(d.multiprocessors) * r.runs_team * hopper::runs_team_waves;
  if (Narrower) {
    if (c.team_log2 == 0) return c;
    u.team_log2 = c.team_log2 - 1;
    u.run_stream = c.run_slots <= hopper::stream_max_slots_per_lane << u.team_log2;
    u.blocks = std::max<std::int64_t>(1, std::min(ceil_div(l.outputs, c.threads >> u.team_log2), waves));
  } else {
    u.blocks = std::max<std::int64_t>(1, std::min(ceil_div(l.outputs, c.threads >> c.team_log2), 4 * waves));
  }
  return u;
}

// GPU time of flat reductions by size (float32, int8, int64; 1 MiB to 1 GiB), for the
// fixed cost and the streaming rate apart: argx as chosen, with 4x and 1/2x its splits,
// and the ceiling kernel over the same bytes.
void flat_scan(run_state& st) {
  using argx::detail::gpu::launch_rewritten;
  std::printf("flat scan: dtype MiB | GPU us: ceiling argx splits*4 splits/2 | call us: ceiling argx | launch\n");
  for (argx::dtype t : {argx::dtype::f32, argx::dtype::i8, argx::dtype::i64})
    for (int k = 0; k <= 10; ++k) {
      const std::int64_t bytes = std::int64_t(1) << (20 + k), n = bytes / static_cast<std::int64_t>(argx::size_of(t));
      const argx::tensor_view x{st.buffer, t, argx::shape{n}, argx::shape{1}, argx::memory_space::device};
      const auto out = argx::make_output(st.indices, argx::shape{}, argx::memory_space::device);
      const auto call = [&] { argx::reduce(argx::cuda.on(st.stream), argx::op::argmax, x, out, nullptr, argx::spec{}); };
      const std::size_t n16 = static_cast<std::size_t>(bytes / 16);
      const auto ceiling_call = [&] {
        argx_bench::move_ceiling<<<st.ceiling_blocks, 256, 0, st.stream>>>(static_cast<const uint4*>(st.buffer), n16,
                                                                            reinterpret_cast<uint4*>(st.other), 1, st.sink);
      };
      const double roof = st.tm.queued(ceiling_call).gpu_ms * 1e3, mine = st.tm.queued(call).gpu_ms * 1e3;
      double more = 0, fewer = 0;
      {
        const launch_rewritten r(resplit<4>);
        more = st.tm.queued(call).gpu_ms * 1e3;
      }
      {
        const launch_rewritten r(resplit<-2>);
        fewer = st.tm.queued(call).gpu_ms * 1e3;
      }
      const double roof_call = st.tm.median_ms(ceiling_call) * 1e3, mine_call = st.tm.median_ms(call) * 1e3;
      const argx::detail::plan p = argx::detail::make_plan(x, argx::op::argmax, argx::spec{});
      std::printf("flat %-8s %5lld | %8.1f %8.1f %8.1f %8.1f | %8.1f %8.1f | %s\n", std::string(argx::name(t)).c_str(),
                  static_cast<long long>(bytes >> 20), roof, mine, more, fewer, roof_call, mine_call,
                  argx::detail::gpu::describe(argx::detail::gpu::launch_for(p)).c_str());
      std::fflush(stdout);
    }
}

// Times one case; appends its JSON object to `json`. Returns false on a mismatch.
bool run_case(run_state& st, const argx::sweep::sweep_case& c, bool small, bool only, std::string& json) {
  const argx::tensor_view x = c.view_of(st.buffer, argx::memory_space::device);
  const argx::spec s = c.spec();
  const argx::shape out_ext = argx::output_shape(x, s);
  const auto out = argx::make_output(st.indices, out_ext, argx::memory_space::device);
  const auto out2 = argx::make_output(st.other, out_ext, argx::memory_space::device);
  const argx::detail::plan p = argx::detail::make_plan(x, c.op, s);
  const std::string launch = argx::detail::gpu::describe(argx::detail::gpu::launch_for(p));
  const auto argx_call = [&] { argx::reduce(argx::cuda.on(st.stream), c.op, x, out, nullptr, s); };
  const double argx_ms = st.tm.median_ms(argx_call);
  if (only) {
    std::printf("%s: %s; argx::cuda %.4f ms\n", c.describe().c_str(), launch.c_str(), argx_ms);
    return true;
  }
  const std::size_t n16 = static_cast<std::size_t>(c.bytes() + 15) / 16, w16 = static_cast<std::size_t>(c.outputs() * 8 + 15) / 16;
  const auto ceiling_call = [&] {
    argx_bench::move_ceiling<<<st.ceiling_blocks, 256, 0, st.stream>>>(static_cast<const uint4*>(st.buffer), n16,
                                                                        reinterpret_cast<uint4*>(st.other), w16, st.sink);
  };
  const double ceiling_ms = st.tm.median_ms(ceiling_call);
  // Inputs under 64 MiB, whose time a call's fixed costs weigh on: the GPU's part and the
  // host's part of the call, and the ceiling's GPU time (queued behind a spin).
  std::string split;
  if (c.bytes() < (std::int64_t(64) << 20)) {
    const auto call = st.tm.queued(argx_call);
    const auto roof = st.tm.queued(ceiling_call);
    split = ", \"argx::cuda gpu\": " + std::to_string(call.gpu_ms) + ", \"argx::cuda host_us\": " +
            std::to_string(call.host_us) + ", \"ceiling gpu\": " + std::to_string(roof.gpu_ms);
  }
  argx::reduce(argx::thrust.on(st.stream), c.op, x, out2, nullptr, s);
  check(cudaStreamSynchronize(st.stream), "thrust");
  const std::size_t n = static_cast<std::size_t>(c.outputs());
  std::vector<std::int64_t> a(n), b(n);
  check(cudaMemcpy(a.data(), st.indices, n * 8, cudaMemcpyDeviceToHost), "download");
  check(cudaMemcpy(b.data(), st.other, n * 8, cudaMemcpyDeviceToHost), "download");
  const bool agree = a == b;
  std::printf("%4d %-10s %-10s %-8s %10.3f MB  ceiling %8.4f ms  argx %8.4f ms  %5.1f%%  %s%s\n", c.id, c.kind.c_str(),
              c.view.c_str(), std::string(argx::name(c.type)).c_str(), c.bytes() / 1e6, ceiling_ms, argx_ms,
              100 * ceiling_ms / argx_ms, launch.c_str(), agree ? "" : "  MISMATCH");
  std::fflush(stdout);
  json += std::string(json.back() == '[' ? "\n" : ",\n") + "    {\"id\": " + std::to_string(c.id) +
          ", \"small\": " + (small ? "true" : "false") + ", \"kind\": \"" + c.kind + "\", \"view\": \"" + c.view +
          "\", \"dtype\": \"" + std::string(argx::name(c.type)) + "\", \"op\": \"" +
          (c.op == argx::op::argmax ? "argmax" : "argmin") + "\", \"extents\": " + json_list(c.extents) +
          ", \"strides\": " + json_list(c.strides) + ", \"offset\": " + std::to_string(c.offset) +
          ", \"dims\": " + json_list(std::vector<std::int64_t>(c.dims.begin(), c.dims.end())) +
          ", \"span\": " + std::to_string(c.span) + ", \"bytes\": " + std::to_string(c.bytes()) +
          ", \"outputs\": " + std::to_string(c.outputs()) + ", \"plan\": \"" + argx::detail::to_string(p.kind) +
          "\", \"launch\": \"" + launch + "\", \"agree\": " + (agree ? "true" : "false") +
          ", \"ms\": {\"argx::cuda\": " + std::to_string(argx_ms) + ", \"ceiling\": " + std::to_string(ceiling_ms) + split + "}}";
  return agree;
}

}  // namespace

int main(int argc, char** argv) {
  int count = 320, small_count = 40, only = -1;
  std::uint64_t seed = 13;
  std::string out_path = "gpu-sweep.json", variant, costs, steps;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--cases")) count = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--small")) small_count = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--seed")) seed = std::strtoull(argv[i + 1], nullptr, 10);
    else if (!std::strcmp(argv[i], "--out")) out_path = argv[i + 1];
    else if (!std::strcmp(argv[i], "--only")) only = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--variant")) variant = argv[i + 1];
    else if (!std::strcmp(argv[i], "--host-costs")) costs = argv[i + 1];
    else if (!std::strcmp(argv[i], "--host-steps")) steps = argv[i + 1];
  }
  using argx::detail::gpu::launch_rewritten;
  const launch_rewritten rewrite(variant == "unsplit"  ? unsplit
                                 : variant == "more-splits" ? resplit<4>
                                 : variant == "splits-x2" ? resplit_any<2>
                                 : variant == "splits-x4" ? resplit_any<4>
                                 : variant == "splits-/2" ? resplit_any<-2>
                                 : variant == "splits-/4" ? resplit_any<-4>
                                 : variant == "team-narrower" ? team_variant<true>
                                 : variant == "team-waves" ? team_variant<false>
                                 : variant == "tiny"  ? tiny
                                 : variant == "windows" ? windows
                                 : variant == "stream-runs" ? stream_runs
                                 : variant == "run-after-run" ? across_variant<false>
                                 : variant == "across-all" ? across_variant<true>
                                                        : nullptr);
  const argx::sweep::sweep_limits large;
  argx::sweep::sweep_limits small;
  small.min_bytes = 4 << 10;
  small.max_bytes = (1 << 20) - 1;
  small.max_span_bytes = 2 << 20;
  const auto cases = argx::sweep::make_sweep(seed, count, large);
  auto small_cases = argx::sweep::make_sweep(seed + 1, small_count, small);
  for (auto& c : small_cases) c.id += 100000;

  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "device properties");
  run_state st;
  check(cudaStreamCreateWithFlags(&st.stream, cudaStreamNonBlocking), "stream");
  st.tm.create(st.stream);
  st.tm.budget_s = 0.25;
  st.tm.max_reps = 100;
  const std::size_t buffer_bytes = static_cast<std::size_t>(large.max_span_bytes) + 256;
  check(cudaMalloc(&st.buffer, buffer_bytes), "input");
  check(cudaMalloc(&st.indices, static_cast<std::size_t>(large.max_outputs) * 8), "indices");
  check(cudaMalloc(&st.other, static_cast<std::size_t>(large.max_outputs) * 8), "indices");
  check(cudaMalloc(&st.sink, 64), "sink");
  st.ceiling_blocks = prop.multiProcessorCount * (prop.maxThreadsPerMultiProcessor / 256);
  argx_bench::fill_bits<<<4096, 256, 0, st.stream>>>(static_cast<std::uint32_t*>(st.buffer), buffer_bytes / 4, seed);
  check(cudaGetLastError(), "fill");

  if (!costs.empty()) host_costs(st.buffer, st.stream);
  if (!steps.empty()) {
    host_steps(st, small_cases);
    return 0;
  }
  if (variant == "flat-scan") {
    flat_scan(st);
    return 0;
  }
  if (only >= 0) {
    st.tm.max_reps = 3;
    std::string ignored = "[";
    for (const auto& c : only >= 100000 ? small_cases : cases)
      if (c.id == only) run_case(st, c, only >= 100000, true, ignored);
    return 0;
  }
  const double empty_ms = st.tm.median_ms([&] { argx_bench::empty_kernel<<<1, 1, 0, st.stream>>>(); }, 20);
  const auto empty_split = st.tm.queued([&] { argx_bench::empty_kernel<<<1, 1, 0, st.stream>>>(); });
  const std::size_t gib16 = (std::size_t(1) << 30) / 16;
  const double ceiling_gib_ms = st.tm.median_ms([&] {
    argx_bench::move_ceiling<<<st.ceiling_blocks, 256, 0, st.stream>>>(static_cast<const uint4*>(st.buffer), gib16,
                                                                        nullptr, 0, st.sink);
  });
  std::printf("device: %s, %d SMs; empty launch %.2f us; read ceiling %.0f GB/s (1 GiB); %zu cases + %zu small\n",
              prop.name, prop.multiProcessorCount, empty_ms * 1e3, (1 << 30) / ceiling_gib_ms / 1e6, cases.size(),
              small_cases.size());
  std::fflush(stdout);
  std::string json = "[";
  int mismatches = 0;
  int failures = 0;
  for (int pass = 0; pass < 2; ++pass)
    for (const auto& c : pass == 0 ? cases : small_cases) {
      try {
        mismatches += !run_case(st, c, pass == 1, false, json);
      } catch (const argx::error& e) {  // a case argx refuses is a failure of the sweep, not its end
        std::printf("%4d FAILED %s: %s\n", c.id, c.describe().c_str(), e.what());
        std::fflush(stdout);
        ++failures;
        check(cudaDeviceSynchronize(), "after a failed case");
      }
    }
  const double empty_after_ms = st.tm.median_ms([&] { argx_bench::empty_kernel<<<1, 1, 0, st.stream>>>(); }, 20);
  std::string doc = "{\n  \"device\": \"" + std::string(prop.name) + "\",\n  \"multiprocessors\": " +
                    std::to_string(prop.multiProcessorCount) + ",\n  \"seed\": " + std::to_string(seed) +
                    ",\n  \"empty_launch_ms\": " + std::to_string(empty_ms) + ",\n  \"empty_launch_gpu_ms\": " + std::to_string(empty_split.gpu_ms) +
                    ",\n  \"empty_launch_host_us\": " + std::to_string(empty_split.host_us) + ",\n  \"empty_launch_after_ms\": " +
                    std::to_string(empty_after_ms) + ",\n  \"ceiling_1GiB_ms\": " + std::to_string(ceiling_gib_ms) +
                    ",\n  \"mismatches\": " + std::to_string(mismatches) + ",\n  \"failures\": " +
                    std::to_string(failures) + ",\n  \"cases\": " + json + "\n  ]\n}\n";
  if (FILE* f = std::fopen(out_path.c_str(), "w")) {
    std::fputs(doc.c_str(), f);
    std::fclose(f);
  }
  std::printf("empty launch after the sweep %.2f us; argx::cuda and argx::thrust disagree on %d cases; wrote %s\n",
              empty_after_ms * 1e3, mismatches, out_path.c_str());
  return mismatches == 0 && failures == 0 ? 0 : 2;
}
