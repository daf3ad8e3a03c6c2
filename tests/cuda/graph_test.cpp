// CUDA graphs: one call of every kernel path captured on a fresh stream (the first call on
// that stream), the graph made of kernel nodes only (no allocation, copy or host node),
// replayed 10 times with new input between replays, every answer seq's bit for bit.
#include <doctest/doctest.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "cases.hpp"
#include "compare.hpp"
#include "device_memory.hpp"
#include "element_bits.hpp"
#include "error_of.hpp"

using namespace argx_test;
using namespace argx_gpu_test;
using argx::dtype;

namespace {

void ok(cudaError_t e) { REQUIRE_MESSAGE(e == cudaSuccess, cudaGetErrorName(e)); }

struct path_case {
  shape_case shape;
  dtype type;
  int variant;
};

// The first (case, dtype, variant) that takes each kernel path.
std::map<std::string, path_case> one_case_per_path() {
  std::map<std::string, path_case> found;
  rng r(97);
  for (const shape_case& c : cases()) {
    for (dtype t : {dtype::f32, dtype::u8, dtype::f64, dtype::bf16}) {
      const host_tensor x = make_case(r, t, c);
      for (int variant : {0, 7}) {
        const std::string p = path_of(op_variant(variant), x, spec_variant(variant, c.dims));
        if (!found.count(p)) found.emplace(p, path_case{c, t, variant});
      }
    }
  }
  return found;
}

// The graph of the call f() makes, captured on `stream` (the call must not raise).
template <class F>
cudaGraph_t capture(cudaStream_t stream, F&& f) {
  cudaGraph_t g = nullptr;
  ok(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  const std::string err = error_of(f);
  ok(cudaStreamEndCapture(stream, &g));
  REQUIRE_MESSAGE(err == "no error", "captured call raised ", err);
  return g;
}

std::vector<cudaGraphNodeType> node_types(cudaGraph_t g) {
  std::size_t n = 0;
  ok(cudaGraphGetNodes(g, nullptr, &n));
  std::vector<cudaGraphNode_t> nodes(n);
  ok(cudaGraphGetNodes(g, nodes.data(), &n));
  std::vector<cudaGraphNodeType> types(n);
  for (std::size_t i = 0; i < n; ++i) ok(cudaGraphNodeGetType(nodes[i], &types[i]));
  return types;
}

std::vector<std::int64_t> read_indices(const std::vector<unsigned char>& raw, bool int32) {
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < raw.size(); i += int32 ? 4 : 8) {
    if (int32) {
      std::int32_t v;
      std::memcpy(&v, raw.data() + i, 4);
      out.push_back(v);
    } else {
      std::int64_t v;
      std::memcpy(&v, raw.data() + i, 8);
      out.push_back(v);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("graphs: every kernel path captured on a fresh stream replays 10 times, rereading its input") {
  const auto paths = one_case_per_path();
  // Every path the cases take (the classes test checks that they take every path there is).
  rng r(98);
  int n = 0;
  for (const auto& [path, pc] : paths) {
    INFO("path ", path, ", case ", pc.shape.name, ", dtype ", argx::name(pc.type), ", variant ", pc.variant);
    const argx::op o = op_variant(pc.variant);
    const argx::spec s = spec_variant(pc.variant, pc.shape.dims);
    // Two inputs of the same shape and view: the graph must read whichever the buffer holds.
    const host_tensor x[2] = {make_case(r, pc.type, pc.shape), make_case(r, pc.type, pc.shape)};
    const outcome want[2] = {reduce_on(argx::backend::seq, o, x[0], s), reduce_on(argx::backend::seq, o, x[1], s)};
    const std::size_t count = want[0].indices.size(), iw = s.index == argx::index_type::int32 ? 4 : 8,
                      vw = argx::size_of(pc.type);

    device_buffer in(x[0].storage->size()), idx(count * iw), val(count * vw);
    argx::tensor_view v = x[0].view;
    v.data = static_cast<const unsigned char*>(in.data()) + x[0].data_offset();
    v.space = argx::memory_space::device;
    const auto iv = argx::make_output(idx.data(), iw == 4 ? dtype::i32 : dtype::i64, want[0].extents, argx::memory_space::device);
    const auto vv = argx::make_output(val.data(), pc.type, want[0].extents, argx::memory_space::device);

    // A fresh stream each time, blocking and non-blocking in turn: the call below is its first.
    cudaStream_t stream;
    ok(n++ % 2 ? cudaStreamCreate(&stream) : cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    cudaGraph_t g = capture(stream, [&] { argx::reduce(argx::cuda.on(stream), o, v, iv, &vv, s); });
    const auto types = node_types(g);
    CHECK(!types.empty());
    for (cudaGraphNodeType type : types)
      CHECK_MESSAGE(type == cudaGraphNodeTypeKernel, "graph node of type ", static_cast<int>(type));
    cudaGraphExec_t exec;
    ok(cudaGraphInstantiate(&exec, g, 0));
    for (int replay = 0; replay < 10; ++replay) {
      const int k = replay % 2;
      INFO("replay ", replay);
      in.upload(x[k].storage->data(), x[k].storage->size());
      ok(cudaMemset(idx.data(), 0xA5, count * iw));
      ok(cudaMemset(val.data(), 0xA5, count * vw));
      ok(cudaDeviceSynchronize());  // the copies above run on the legacy stream, unordered with a non-blocking one
      ok(cudaGraphLaunch(exec, stream));
      ok(cudaStreamSynchronize(stream));
      std::vector<unsigned char> got_i(count * iw), got_v(count * vw);
      idx.download(got_i.data(), got_i.size());
      val.download(got_v.data(), got_v.size());
      CHECK(read_indices(got_i, iw == 4) == want[k].indices);
      std::size_t value_mismatches = 0;
      for (std::size_t i = 0; i < count; ++i) value_mismatches += load_bits(pc.type, got_v.data() + i * vw) != want[k].value_bits[i];
      CHECK(value_mismatches == 0);
    }
    ok(cudaGraphExecDestroy(exec));
    ok(cudaGraphDestroy(g));
    ok(cudaStreamDestroy(stream));
  }
  std::string names;
  for (const auto& p : paths) names += "[" + p.first + "] ";
  MESSAGE(n, " kernel paths captured and replayed: ", names);
}

TEST_CASE("graphs: misaligned and pinned buffers are copied by graph nodes; pageable host memory is refused") {
  rng r(99);
  const host_tensor x = random_tensor(r, dtype::f32, {3000, 333});
  const argx::spec s{.dims = {1}};
  const outcome want = reduce_on(argx::backend::seq, argx::op::argmax, x, s);
  const std::size_t bytes = x.storage->size();
  cudaStream_t stream;
  ok(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

  // Input one byte off its element alignment (copied to an aligned buffer) and pinned host
  // indices (copied back): copy nodes in the graph, no allocation node.
  device_buffer in(bytes + 4);
  ok(cudaMemcpy(static_cast<char*>(in.data()) + 1, x.storage->data(), bytes, cudaMemcpyHostToDevice));
  const auto v = argx::make_view(static_cast<const void*>(static_cast<char*>(in.data()) + 1), dtype::f32, {3000, 333},
                                 {333, 1}, argx::memory_space::device);
  std::int64_t* pinned = nullptr;
  ok(cudaHostAlloc(reinterpret_cast<void**>(&pinned), 3000 * 8, cudaHostAllocDefault));
  const auto iv = argx::make_output(pinned, argx::shape{3000});
  cudaGraph_t g = capture(stream, [&] { argx::reduce(argx::cuda.on(stream), argx::op::argmax, v, iv, nullptr, s); });
  for (cudaGraphNodeType type : node_types(g)) CHECK((type == cudaGraphNodeTypeKernel || type == cudaGraphNodeTypeMemcpy));
  cudaGraphExec_t exec;
  ok(cudaGraphInstantiate(&exec, g, 0));
  for (int replay = 0; replay < 3; ++replay) {
    std::memset(pinned, 0xA5, 3000 * 8);
    ok(cudaGraphLaunch(exec, stream));
    ok(cudaStreamSynchronize(stream));
    CHECK(std::vector<std::int64_t>(pinned, pinned + 3000) == want.indices);
  }
  ok(cudaGraphExecDestroy(exec));
  ok(cudaGraphDestroy(g));

  // Pageable host input or output: refused with a clear error, the capture still ends cleanly.
  std::vector<std::int64_t> pageable(3000, -7);
  for (bool host_input : {true, false}) {
    ok(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    std::string message;
    try {
      if (host_input)
        argx::reduce(argx::cuda.on(stream), argx::op::argmax, x.view, argx::make_output(pinned, argx::shape{3000}), nullptr, s);
      else
        argx::reduce(argx::cuda.on(stream), argx::op::argmax, v, argx::make_output(pageable.data(), argx::shape{3000}),
                     nullptr, s);
    } catch (const argx::error& e) {
      CHECK(e.code() == argx::errc::wrong_memory_space);
      message = e.what();
    }
    ok(cudaStreamEndCapture(stream, &g));
    CHECK(message.find("pageable host memory") != std::string::npos);
    CHECK(message.find("CUDA graph") != std::string::npos);
    ok(cudaGraphDestroy(g));
  }
  CHECK(pageable == std::vector<std::int64_t>(3000, -7));
  ok(cudaFreeHost(pinned));
  ok(cudaStreamDestroy(stream));
}
