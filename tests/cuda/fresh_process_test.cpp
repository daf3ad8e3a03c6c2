// A fresh process (its own program, so nothing created a CUDA context before it):
// CPU-only calls create no CUDA context, with their cost measured; then the process's first
// argx::cuda call, made under stream capture, gives a graph that replays correctly.
// Exits 77 (skipped) without a GPU.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <argx/argx.hpp>

#include "error_of.hpp"
#include "random_tensor.hpp"

using namespace argx_test;

namespace {

void ok(cudaError_t e) { REQUIRE_MESSAGE(e == cudaSuccess, cudaGetErrorName(e)); }

// Whether any device's primary context is active, asked of the driver directly.
bool primary_context_active() {
  static PFN_cuDevicePrimaryCtxGetState_v7000 state = nullptr;
  if (state == nullptr) {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    REQUIRE(cudaGetDriverEntryPointByVersion("cuDevicePrimaryCtxGetState", &fn, 7000, cudaEnableDefault, &found) ==
            cudaSuccess);
    state = reinterpret_cast<PFN_cuDevicePrimaryCtxGetState_v7000>(fn);
  }
  int n = 0;
  REQUIRE(cudaGetDeviceCount(&n) == cudaSuccess);
  for (int i = 0; i < n; ++i) {  // a device's CUdevice is its ordinal here (no CUDA_VISIBLE_DEVICES remapping applies twice)
    unsigned flags = 0;
    int active = 0;
    REQUIRE(state(static_cast<CUdevice>(i), &flags, &active) == CUDA_SUCCESS);
    if (active) return true;
  }
  return false;
}

template <class F>
double microseconds(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
}

template <class F>
double median_microseconds(int reps, F&& f) {
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) t.push_back(microseconds(f));
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

}  // namespace

TEST_CASE("fresh process: CPU calls create no CUDA context; their cost before and after") {
  REQUIRE_FALSE(primary_context_active());
  std::vector<float> x(16, 1.0f);
  x[5] = 2.0f;
  const auto v = argx::make_view(x.data(), {16});
  std::int64_t index = -1;
  const auto out = argx::make_output(&index, argx::shape{});
  const double first = microseconds([&] { argx::argmax(argx::seq, v, out); });
  CHECK(index == 5);
  for (argx::policy p : {argx::policy(argx::seq), argx::policy(argx::par), argx::policy(argx::automatic)}) {
    CHECK(argx::argmax(p, v).indices[0] == 5);
    CHECK(argx::argmin(p, v, {.nan = argx::nan_policy::ignore}).indices[0] == 0);
  }
  CHECK(argx::available(argx::seq));
  CHECK_FALSE(primary_context_active());
  const double per_call = median_microseconds(2001, [&] { argx::argmax(argx::seq, v, out); });

  // What classifying a pointer cost before: the runtime's query on each of the call's three
  // pointers (its first use initializes the runtime, and where the driver makes it create
  // the context, costs that too).
  cudaPointerAttributes a{};
  const double first_query = microseconds([&] { ok(cudaPointerGetAttributes(&a, x.data())); });
  const bool query_made_context = primary_context_active();
  const double runtime_query = median_microseconds(2001, [&] {
    for (int i = 0; i < 3; ++i) ok(cudaPointerGetAttributes(&a, x.data()));
  });
  // A context made here (cudaFree(nullptr) creates it): the check above can see one.
  const double context = microseconds([&] { ok(cudaFree(nullptr)); });
  CHECK(primary_context_active());
  // And now, with a context present, argx classifies through the driver on every call.
  const double per_call_with_context = median_microseconds(2001, [&] { argx::argmax(argx::seq, v, out); });
  std::printf("CPU call (argx::seq, 16 floats, caller's output) on a machine with a GPU:\n"
              "  first call: %.1f us; then %.2f us a call (median), no CUDA context created\n"
              "  before: 3 cudaPointerGetAttributes a call: first %.1f us (context created: %s), then %.2f us a call;\n"
              "    creating the context (cudaFree(nullptr)): %.0f us\n"
              "  once some other code created a context: %.2f us a call\n",
              first, per_call, first_query, query_made_context ? "yes" : "no", runtime_query, context,
              per_call_with_context);
}

TEST_CASE("fresh process: the first argx::cuda call, made under capture, replays correctly") {
  rng r(5);
  const host_tensor x = random_tensor(r, argx::dtype::f32, {4096, 1000});
  std::int64_t want = -1;
  argx::argmax(argx::seq, x.view, argx::make_output(&want, argx::shape{}));
  void* in = nullptr;
  std::int64_t* out = nullptr;
  ok(cudaMalloc(&in, x.storage->size()));
  ok(cudaMalloc(reinterpret_cast<void**>(&out), 8));
  ok(cudaMemcpy(in, x.storage->data(), x.storage->size(), cudaMemcpyHostToDevice));
  cudaStream_t s;
  ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaGraph_t g = nullptr;
  ok(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  const std::string err = error_of([&] {
    argx::argmax(argx::cuda.on(s), argx::make_view(static_cast<const float*>(in), {4096, 1000}, argx::memory_space::device),
                 argx::make_output(out, argx::shape{}, argx::memory_space::device));
  });
  ok(cudaStreamEndCapture(s, &g));
  REQUIRE_MESSAGE(err == "no error", "captured call raised ", err);
  std::size_t nodes = 0;
  ok(cudaGraphGetNodes(g, nullptr, &nodes));
  CHECK(nodes == 1);
  cudaGraphExec_t e;
  ok(cudaGraphInstantiate(&e, g, 0));
  for (int replay = 0; replay < 10; ++replay) {
    ok(cudaMemset(out, 0xA5, 8));
    ok(cudaDeviceSynchronize());  // the memset runs on the legacy stream, unordered with s
    ok(cudaGraphLaunch(e, s));
    ok(cudaStreamSynchronize(s));
    std::int64_t got = -1;
    ok(cudaMemcpy(&got, out, 8, cudaMemcpyDeviceToHost));
    CHECK(got == want);
  }
  ok(cudaGraphExecDestroy(e));
  ok(cudaGraphDestroy(g));
  ok(cudaStreamDestroy(s));
  ok(cudaFree(in));
  ok(cudaFree(out));
}

int main(int argc, char** argv) {
  if (!argx::built_with_cuda() || argx::gpus().empty()) {  // gpus() creates no context
    std::printf("skipped: %s\n", argx::built_with_cuda() ? "no CUDA device is present" : "argx was built without CUDA");
    return 77;
  }
  doctest::Context ctx(argc, argv);
  return ctx.run();
}
