// Resources: the workspaces of ordinary calls stay bounded however many streams come and
// go; the scratch of captured calls is freed once their graphs are destroyed; CPU backends
// refuse device pointers even from a thread with no current CUDA context.
#include <doctest/doctest.h>

#include <chrono>
#include <thread>
#include <vector>

#include <cuda_runtime.h>

#include "../../backends/cuda/graph_memory.hpp"
#include "../../backends/cuda/workspace.hpp"
#include "compare.hpp"
#include "device_memory.hpp"
#include "error_of.hpp"
#include "random_tensor.hpp"

using namespace argx_test;
using namespace argx_gpu_test;
using argx::dtype;

namespace {

void ok(cudaError_t e) { REQUIRE_MESSAGE(e == cudaSuccess, cudaGetErrorName(e)); }

std::size_t free_device_memory() {
  ok(cudaDeviceSynchronize());
  std::size_t free_bytes = 0, total = 0;
  ok(cudaMemGetInfo(&free_bytes, &total));
  return free_bytes;
}

// A flat reduction large enough to be split across blocks: it needs a workspace.
struct split_call {
  host_tensor x;
  device_buffer in, out{8};
  std::int64_t want = 0;
  explicit split_call(rng& r) : x(random_tensor(r, dtype::f32, {4096, 1000})), in(x.storage->size()) {
    in.upload(x.storage->data(), x.storage->size());
    want = reduce_on(argx::backend::seq, argx::op::argmax, x).indices[0];
    REQUIRE(path_of(argx::op::argmax, x, {}) == "runs_block split interleaved");
  }
  void run(cudaStream_t s) {
    argx::argmax(argx::cuda.on(s), argx::make_view(static_cast<const float*>(in.data()), {4096, 1000}, argx::memory_space::device),
                 argx::make_output(static_cast<std::int64_t*>(out.data()), argx::shape{}, argx::memory_space::device));
  }
  std::int64_t answer() const {
    std::int64_t got = -1;
    out.download(&got, 8);
    return got;
  }
};

}  // namespace

TEST_CASE("resources: creating and destroying many streams keeps workspaces and device memory bounded") {
  rng r(31);
  split_call call(r);
  int device = 0;
  ok(cudaGetDevice(&device));
  for (int i = 0; i < 3; ++i) {  // warm up: the pools and the first workspaces exist
    call.run(nullptr);
    CHECK(call.answer() == call.want);
  }
  const std::size_t before = free_device_memory();
  for (int i = 0; i < 300; ++i) {
    cudaStream_t s;
    ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    call.run(s);
    ok(cudaStreamDestroy(s));  // with the call maybe still running: its workspace must outlive it
    CHECK(argx::detail::gpu::stream_workspaces(device) <= argx::detail::gpu::kept_stream_workspaces);
  }
  CHECK(call.answer() == call.want);
  const std::size_t after = free_device_memory();
  const double grown_mib = (static_cast<double>(before) - static_cast<double>(after)) / (1 << 20);
  MESSAGE("device memory in use grew by ", grown_mib, " MiB over 300 streams; workspaces held: ",
          argx::detail::gpu::stream_workspaces(device));
  CHECK(grown_mib < 64);
}

TEST_CASE("resources: the scratch of captured calls is freed after their graphs are destroyed") {
  rng r(32);
  split_call call(r);
  cudaStream_t s;
  ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  call.run(s);  // frees what earlier tests' graphs left
  ok(cudaStreamSynchronize(s));
  const std::size_t held_before = argx::detail::gpu::graph_allocations_held();
  std::vector<cudaGraphExec_t> execs;
  std::vector<cudaGraph_t> graphs;
  for (int i = 0; i < 50; ++i) {
    cudaGraph_t g;
    ok(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    const std::string err = error_of([&] { call.run(s); });
    ok(cudaStreamEndCapture(s, &g));
    REQUIRE(err == "no error");
    cudaGraphExec_t e;
    ok(cudaGraphInstantiate(&e, g, 0));
    graphs.push_back(g);
    execs.push_back(e);
  }
  CHECK(argx::detail::gpu::graph_allocations_held() == held_before + 50);
  for (cudaGraphExec_t e : execs) ok(cudaGraphLaunch(e, s));  // in flight while they are destroyed
  for (cudaGraphExec_t e : execs) ok(cudaGraphExecDestroy(e));
  for (cudaGraph_t g : graphs) ok(cudaGraphDestroy(g));
  ok(cudaStreamSynchronize(s));
  CHECK(call.answer() == call.want);
  // The destructors run on a CUDA thread; the next uncaptured call frees what they released.
  for (int i = 0; i < 200 && argx::detail::gpu::graph_allocations_held() > held_before; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    call.run(s);
  }
  CHECK(argx::detail::gpu::graph_allocations_held() == held_before);
  ok(cudaStreamDestroy(s));
}

TEST_CASE("resources: a CPU backend refuses device memory from a thread with no current context") {
  device_buffer d(64);
  const auto v = argx::make_view(static_cast<const float*>(d.data()), {16});  // declared host: a lie
  std::string seq_error, auto_error;
  std::thread([&] {
    seq_error = error_of([&] { argx::argmax(argx::seq, v); });
    auto_error = error_of([&] { argx::argmax(argx::automatic, v); });
  }).join();
  CHECK(seq_error == "wrong_memory_space");
  CHECK(auto_error == "wrong_memory_space");
}
