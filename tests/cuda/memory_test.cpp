// Where memory lives: device input and outputs run asynchronously on the caller's stream;
// host inputs are staged through pinned memory; host, pinned, managed and misaligned
// buffers all give seq's answer; pointers declared in the wrong space are refused; CUDA
// allocation failures surface as argx::error.
#include <doctest/doctest.h>

#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "compare.hpp"
#include "device_blocks.hpp"
#include "device_memory.hpp"
#include "element_bits.hpp"
#include "error_of.hpp"
#include "random_tensor.hpp"

using namespace argx_test;
using namespace argx_gpu_test;
using argx::dtype;

namespace {

const argx::memory_space host = argx::memory_space::host, device = argx::memory_space::device;

void ok(cudaError_t e) { REQUIRE(e == cudaSuccess); }

// seq's indices for x reduced with s.
std::vector<std::int64_t> seq_indices(argx::op o, const host_tensor& x, const argx::spec& s = {}) {
  return reduce_on(argx::backend::seq, o, x, s).indices;
}

}  // namespace

TEST_CASE("memory: host inputs are staged (small, chunked, pinned) with host or device outputs") {
  rng r(21);
  // 20 MB crosses the 8 MiB staging chunks several times.
  for (argx::shape e : {argx::shape{1000}, argx::shape{5 << 20}, argx::shape{4000, 300}}) {
    for (dtype t : {dtype::f32, dtype::bf16, dtype::i64}) {
      const host_tensor x = random_tensor(r, t, e);
      const argx::spec s = spec_variant(static_cast<int>(r.below(16)), e.size() == 2 ? argx::dim_list{1} : argx::dim_list{});
      const auto want = reduce_on(argx::backend::seq, argx::op::argmax, x, s);
      for (argx::backend b : {argx::backend::cuda, argx::backend::thrust}) {
        INFO(argx::name(b), " ", describe(x));
        run_options opt;
        opt.memory = placement::host;
        CHECK(reduce_on(b, argx::op::argmax, x, s, opt).indices == want.indices);
        opt.result_form = true;
        CHECK(reduce_on(b, argx::op::argmax, x, s, opt).value_bits == want.value_bits);
      }
    }
  }
  // A strided host view: only the span it covers travels (here with a negative stride).
  const host_tensor y = random_tensor(r, dtype::f16, {300, 500}).flipped(0).sliced(1, 3, 400, 3);
  run_options opt;
  opt.memory = placement::host;
  CHECK(reduce_on(argx::backend::cuda, argx::op::argmin, y, {.dims = {0}}, opt).indices ==
        seq_indices(argx::op::argmin, y, {.dims = {0}}));

  // Pinned host input: copied directly.
  const host_tensor z = random_tensor(r, dtype::f32, {3 << 20});
  void* pinned = nullptr;
  ok(cudaHostAlloc(&pinned, z.storage->size(), cudaHostAllocDefault));
  std::memcpy(pinned, z.storage->data(), z.storage->size());
  const auto pv = argx::make_view(static_cast<const float*>(pinned), {3 << 20});
  CHECK(argx::argmax(argx::cuda, pv).indices == seq_indices(argx::op::argmax, z));
  ok(cudaFreeHost(pinned));
}

TEST_CASE("memory: device input with host outputs, and the result form, finish before returning") {
  rng r(22);
  const host_tensor x = random_tensor(r, dtype::f64, {700, 900});
  device_buffer d(x.storage->size());
  d.upload(x.storage->data(), x.storage->size());
  const auto v = argx::make_view(static_cast<const double*>(d.data()), {700, 900}, device);
  std::vector<std::int64_t> idx(700, -5);
  std::vector<double> val(700);
  argx::argmax(argx::cuda, v, argx::make_output(idx.data(), {700}), argx::make_output(val.data(), {700}), {.dims = {1}});
  CHECK(idx == seq_indices(argx::op::argmax, x, {.dims = {1}}));  // no synchronize needed
  CHECK(argx::argmax(argx::cuda, v, {.dims = {1}}).indices == idx);
}

TEST_CASE("memory: managed memory, misaligned inputs and misaligned outputs") {
  rng r(23);
  const host_tensor x = random_tensor(r, dtype::f32, {5000});
  const auto want = seq_indices(argx::op::argmax, x);

  void* managed = nullptr;
  ok(cudaMallocManaged(&managed, x.storage->size()));
  std::memcpy(managed, x.storage->data(), x.storage->size());
  for (auto space : {host, device}) {
    const auto mv = argx::make_view(static_cast<const float*>(managed), {5000}, space);
    CHECK(argx::argmax(argx::cuda, mv).indices == want);
    CHECK(argx::argmax(argx::thrust, mv).indices == want);
  }
  // Managed memory is host-readable: locate says host and the CPU backends accept it too.
  CHECK(argx::locate(managed) == argx::memory_space::host);
  CHECK(argx::argmax(argx::seq, argx::make_view(static_cast<const float*>(managed), {5000})).indices == want);
  ok(cudaFree(managed));

  // A float32 view 2 bytes past a device allocation's start: not element-aligned.
  device_buffer d(x.storage->size() + 16);
  ok(cudaMemcpy(static_cast<char*>(d.data()) + 2, x.storage->data(), x.storage->size(), cudaMemcpyHostToDevice));
  const auto mis = argx::make_view(static_cast<const void*>(static_cast<char*>(d.data()) + 2), dtype::f32, {5000}, {1}, device);
  CHECK(argx::argmax(argx::cuda, mis).indices == want);
  CHECK(argx::argmax(argx::thrust, mis).indices == want);

  // Device outputs 4 bytes off their 8-byte alignment.
  const host_tensor rows = random_tensor(r, dtype::u16, {300, 77});
  device_buffer in(rows.storage->size()), out(300 * 8 + 16), vals(300 * 2 + 16);
  in.upload(rows.storage->data(), rows.storage->size());
  const auto rv = argx::make_view(static_cast<const std::uint16_t*>(in.data()), {300, 77}, device);
  auto* oi = reinterpret_cast<std::int64_t*>(static_cast<char*>(out.data()) + 4);
  auto* ov = reinterpret_cast<std::uint16_t*>(static_cast<char*>(vals.data()) + 1);
  argx::argmin(argx::cuda, rv, argx::make_output(oi, {300}, device), argx::make_output(ov, {300}, device), {.dims = {1}});
  device_synchronize();
  std::vector<std::int64_t> got(300);
  ok(cudaMemcpy(got.data(), oi, 300 * 8, cudaMemcpyDeviceToHost));
  CHECK(got == seq_indices(argx::op::argmin, rows, {.dims = {1}}));
}

TEST_CASE("memory: pointers declared in the wrong space are refused, outputs untouched") {
  std::vector<float> h(1000, 1.0f);
  h[123] = 2.0f;
  device_buffer d(4000);
  d.upload(h.data(), 4000);
  std::int64_t host_idx = -9;
  device_buffer dev_idx(8);
  const auto hi = argx::make_output(&host_idx, argx::shape{});
  const auto di = argx::make_output(static_cast<std::int64_t*>(dev_idx.data()), argx::shape{}, device);
  const auto dv_declared_host = argx::make_view(static_cast<const float*>(d.data()), {1000});
  const auto hv_declared_device = argx::make_view(h.data(), {1000}, device);
  const auto dv = argx::make_view(static_cast<const float*>(d.data()), {1000}, device);
  CHECK(argx::locate(d.data()) == device);  // what the checks below rest on
  CHECK(argx::locate(h.data()) == host);
  for (argx::policy pol : {argx::policy(argx::cuda), argx::policy(argx::thrust)}) {
    CHECK(error_of([&] { argx::argmax(pol, dv_declared_host, hi); }) == "wrong_memory_space");
    CHECK(error_of([&] { argx::argmax(pol, hv_declared_device, hi); }) == "wrong_memory_space");
    CHECK(error_of([&] { argx::argmax(pol, dv, argx::make_output(static_cast<std::int64_t*>(dev_idx.data()), argx::shape{})); }) ==
          "wrong_memory_space");
    CHECK(error_of([&] { argx::argmax(pol, dv, argx::make_output(&host_idx, argx::shape{}, device)); }) ==
          "wrong_memory_space");
    CHECK(host_idx == -9);
    argx::argmax(pol, dv, di);
    std::int64_t got = 0;
    dev_idx.download(&got, 8);
    CHECK(got == 123);
  }
  // The CPU backends refuse device memory whatever it is declared as.
  CHECK(error_of([&] { argx::argmax(argx::seq, dv_declared_host, hi); }) == "wrong_memory_space");
  CHECK(error_of([&] { argx::argmax(argx::par, dv, hi); }) == "wrong_memory_space");
  CHECK(error_of([&] { argx::argmax(argx::seq, argx::make_view(h.data(), {1000}), di); }) == "wrong_memory_space");
  // automatic sends device memory to cuda and host memory to the CPU.
  CHECK(argx::argmax(argx::automatic, dv).indices[0] == 123);
  CHECK(argx::argmax(argx::automatic, argx::make_view(h.data(), {1000})).indices[0] == 123);
  CHECK(argx::argmax(argx::automatic.allowing_transfer(), argx::make_view(h.data(), {1000})).indices[0] == 123);
}

TEST_CASE("memory: an allocation the GPU cannot satisfy is out_of_memory") {
  // A host view whose span is 2^41 bytes: staging it cannot be allocated (nothing is read).
  std::vector<std::uint8_t> h(16, 1);
  const auto huge = argx::make_view(static_cast<const void*>(h.data()), dtype::u8, {2, 2}, {std::int64_t(1) << 41, 1});
  for (argx::policy pol : {argx::policy(argx::cuda), argx::policy(argx::thrust)})
    CHECK(error_of([&] { argx::argmax(pol, huge); }) == "out_of_memory");
  // The backend still works afterwards.
  CHECK(argx::argmax(argx::cuda, argx::make_view(h.data(), {16})).indices[0] == 0);
}

TEST_CASE("streams: device-memory calls are asynchronous and ordered on the caller's stream") {
  rng r(24);
  const host_tensor a = random_tensor(r, dtype::f32, {4 << 20});
  const host_tensor b = random_tensor(r, dtype::f32, {4 << 20});
  const auto want_a = seq_indices(argx::op::argmax, a), want_b = seq_indices(argx::op::argmax, b);
  cudaStream_t s;
  ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  device_buffer in(a.storage->size()), out(16);
  in.upload(a.storage->data(), a.storage->size());
  const auto v = argx::make_view(static_cast<const float*>(in.data()), {4 << 20}, device);
  auto* o = static_cast<std::int64_t*>(out.data());

  void* pinned_b = nullptr;  // pinned, so the copy below is queued, not waited for
  ok(cudaHostAlloc(&pinned_b, b.storage->size(), cudaHostAllocDefault));
  std::memcpy(pinned_b, b.storage->data(), b.storage->size());

  spin(s, 200);  // the stream is busy for 200 ms
  argx::argmax(argx::cuda.on(s), v, argx::make_output(o, argx::shape{}, device));
  // Replace the input behind the first reduction, then reduce again into the second slot.
  ok(cudaMemcpyAsync(in.data(), pinned_b, b.storage->size(), cudaMemcpyHostToDevice, s));
  argx::argmax(argx::cuda.on(s), v, argx::make_output(o + 1, argx::shape{}, device));
  CHECK(cudaStreamQuery(s) == cudaErrorNotReady);  // returned without waiting for the GPU
  ok(cudaStreamSynchronize(s));
  std::int64_t got[2];
  ok(cudaMemcpy(got, o, 16, cudaMemcpyDeviceToHost));
  CHECK(got[0] == want_a[0]);
  CHECK(got[1] == want_b[0]);
  ok(cudaFreeHost(pinned_b));

  // Two streams at once, each with split reductions that use its own workspace.
  cudaStream_t t;
  ok(cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking));
  device_buffer in2(a.storage->size()), outs(2 * 64 * 8);
  in.upload(a.storage->data(), a.storage->size());
  in2.upload(b.storage->data(), b.storage->size());
  const auto v2 = argx::make_view(static_cast<const float*>(in2.data()), {4 << 20}, device);
  auto* os = static_cast<std::int64_t*>(outs.data());
  for (int i = 0; i < 64; ++i) {
    argx::argmax(argx::cuda.on(s), v, argx::make_output(os + i, argx::shape{}, device));
    argx::argmax(argx::cuda.on(t), v2, argx::make_output(os + 64 + i, argx::shape{}, device));
  }
  ok(cudaDeviceSynchronize());
  std::vector<std::int64_t> all(128);
  ok(cudaMemcpy(all.data(), os, 128 * 8, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 64; ++i) {
    CHECK(all[i] == want_a[0]);
    CHECK(all[64 + i] == want_b[0]);
  }
  ok(cudaStreamDestroy(s));
  ok(cudaStreamDestroy(t));
}
