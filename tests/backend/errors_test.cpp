// The bad-input catalogue, on the backend under test: every argx::errc that validation
// can raise is triggered; after each error the output buffers still hold their sentinel
// pattern and the input bytes are unchanged. Codes that need other parts live elsewhere:
// bad_npy and io_failure (tools/, the .npy reader), cuda_failure and out_of_memory on a
// GPU (tests/cuda); backend_unavailable is in api_test.cpp (it is about other backends).
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "device_memory.hpp"
#include "element_bits.hpp"
#include "harness.hpp"

using namespace argx_test;
using argx::dtype;

namespace {

constexpr std::int64_t sentinel_index = 0x5A5A5A5A5A5A5A5A;
constexpr std::uint32_t sentinel_value = 0xA5A5A5A5u;

// A (2, 3) float input and sentinel-filled outputs with room for more than any
// valid output of it, so a stray write anywhere is seen.
struct guarded {
  host_tensor x = make_tensor(dtype::f32, {1, 5, 2, 7, 0, 7}, {2, 3});
  std::vector<unsigned char> input_before = *x.storage;
  std::vector<std::int64_t> indices = std::vector<std::int64_t>(16, sentinel_index);
  std::vector<std::uint32_t> values = std::vector<std::uint32_t>(16, sentinel_value);

  argx::output_view index_out(argx::shape extents, dtype t = dtype::i64) {
    return argx::make_output(static_cast<void*>(indices.data()), t, extents);
  }
  argx::output_view value_out(argx::shape extents, dtype t = dtype::f32) {
    return argx::make_output(static_cast<void*>(values.data()), t, extents);
  }
  bool untouched() const {
    for (auto i : indices)
      if (i != sentinel_index) return false;
    for (auto v : values)
      if (v != sentinel_value) return false;
    return *x.storage == input_before;
  }
};

// The error code of one call through the backend under test, after checking that the
// call left everything untouched.
std::string reduce_error(guarded& g, const argx::tensor_view& x, const argx::output_view& i,
                         const argx::output_view* v, const argx::spec& s, argx::op o = argx::op::argmax) {
  const std::string e = error_of([&] { argx::reduce(policy_for(backend_under_test()), o, x, i, v, s); });
  CHECK_MESSAGE(g.untouched(), "an output or the input was written by a call that failed with ", e);
  return e;
}
// The same through the argx::result form.
std::string result_error(const argx::tensor_view& x, const argx::spec& s, argx::op o = argx::op::argmax) {
  return error_of([&] { (void)argx::reduce(policy_for(backend_under_test()), o, x, s); });
}

// The error's message (it must name what is wrong).
template <class F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const argx::error& e) {
    return e.what();
  }
  return {};
}

}  // namespace

TEST_CASE("errors: empty_reduction") {
  guarded g;
  const host_tensor e = make_tensor(dtype::f32, {}, {2, 0});
  auto vo = g.value_out({2});
  for (argx::op o : {argx::op::argmax, argx::op::argmin}) {
    CHECK(reduce_error(g, e.view, g.index_out({2}), &vo, argx::spec{.dims = {1}}, o) == "empty_reduction");
    CHECK(reduce_error(g, e.view, g.index_out({}), nullptr, argx::spec{.dims = {}}, o) == "empty_reduction");
    CHECK(result_error(e.view, argx::spec{.dims = {-1}}, o) == "empty_reduction");
  }
  const host_tensor flat = make_tensor(dtype::u8, {}, {0});
  CHECK(reduce_error(g, flat.view, g.index_out({}), nullptr, {}) == "empty_reduction");
  CHECK(message_of([&] { (void)argx::argmax(argx::seq, flat.view); }).find("empty sequence") != std::string::npos);
}

TEST_CASE("errors: bad_dim") {
  guarded g;
  CHECK(reduce_error(g, g.x.view, g.index_out({2}), nullptr, argx::spec{.dims = {2}}) == "bad_dim");
  CHECK(reduce_error(g, g.x.view, g.index_out({3}), nullptr, argx::spec{.dims = {-3}}) == "bad_dim");
  CHECK(reduce_error(g, g.x.view, g.index_out({}), nullptr, argx::spec{.dims = {0, 7}}) == "bad_dim");
  CHECK(result_error(g.x.view, argx::spec{.dims = {2}}) == "bad_dim");
  const host_tensor scalar = make_tensor(dtype::i8, {3}, argx::shape{});
  CHECK(reduce_error(g, scalar.view, g.index_out({}), nullptr, argx::spec{.dims = {0}}) == "bad_dim");
  CHECK(message_of([&] { argx::reduce(argx::seq, argx::op::argmax, g.x.view, argx::spec{.dims = {5}}); }).find("dim 5") !=
        std::string::npos);
}

TEST_CASE("errors: duplicate_dim") {
  guarded g;
  CHECK(reduce_error(g, g.x.view, g.index_out({2}), nullptr, argx::spec{.dims = {1, 1}}) == "duplicate_dim");
  CHECK(reduce_error(g, g.x.view, g.index_out({2}), nullptr, argx::spec{.dims = {1, -1}}) == "duplicate_dim");
  CHECK(reduce_error(g, g.x.view, g.index_out({}), nullptr, argx::spec{.dims = {0, 1, -2}}) == "duplicate_dim");
  CHECK(result_error(g.x.view, argx::spec{.dims = {-2, 0}}) == "duplicate_dim");
}

TEST_CASE("errors: bad_shape") {
  guarded g;
  argx::tensor_view v = g.x.view;
  v.extents[1] = -3;  // a negative extent
  CHECK(reduce_error(g, v, g.index_out({2}), nullptr, argx::spec{.dims = {1}}) == "bad_shape");
  v = g.x.view;
  v.strides = {1};  // fewer strides than extents
  CHECK(reduce_error(g, v, g.index_out({2}), nullptr, argx::spec{.dims = {1}}) == "bad_shape");
  CHECK(result_error(v, {}) == "bad_shape");
  // Views and shapes refuse to be built wrong in the first place.
  CHECK(error_of([&] { (void)argx::make_view(g.x.storage->data(), dtype::f32, {2, 3}, {1}); }) == "bad_shape");
  CHECK(error_of([] {
          argx::shape s;
          for (int i = 0; i <= argx::max_rank; ++i) s.push_back(1);
        }) == "bad_shape");
  CHECK(g.untouched());
}

TEST_CASE("errors: unsupported_dtype") {
  guarded g;
  for (int code : {argx::dtype_count, 200, 255}) {
    argx::tensor_view v = g.x.view;
    v.type = static_cast<dtype>(code);
    CHECK(reduce_error(g, v, g.index_out({2}), nullptr, argx::spec{.dims = {1}}) == "unsupported_dtype");
    CHECK(result_error(v, {}) == "unsupported_dtype");
  }
}

TEST_CASE("errors: shape_overflow") {
  guarded g;
  const void* p = g.x.storage->data();
  const std::int64_t big = std::int64_t(1) << 32;
  // Element count 2^64 (all stride 0, so no offset is large).
  auto v = argx::make_view(p, dtype::f32, {big, big}, {0, 0});
  CHECK(reduce_error(g, v, g.index_out({big}), nullptr, argx::spec{.dims = {1}}) == "shape_overflow");
  // Count fits, byte size does not: 2^61 doubles.
  v = argx::make_view(p, dtype::f64, {std::int64_t(1) << 61}, {0});
  CHECK(reduce_error(g, v, g.index_out({}), nullptr, {}) == "shape_overflow");
  // The furthest offset overflows: stride 2^62, three elements.
  v = argx::make_view(p, dtype::u8, {3}, {std::int64_t(1) << 62});
  CHECK(reduce_error(g, v, g.index_out({}), nullptr, {}) == "shape_overflow");
  v = argx::make_view(p, dtype::u8, {2}, {std::numeric_limits<std::int64_t>::min()});
  CHECK(reduce_error(g, v, g.index_out({}), nullptr, {}) == "shape_overflow");
  CHECK(result_error(v, {}) == "shape_overflow");
}

TEST_CASE("errors: an output whose byte size overflows is refused before anything is written") {
  // One element seen through zero strides as 2^61 (or 2^62) rows: the index output would
  // need 2^64 bytes. The caller's buffer is small; nothing may be written into it.
  guarded g;
  const void* p = g.x.storage->data();
  const std::int64_t n61 = std::int64_t(1) << 61, n62 = std::int64_t(1) << 62;
  const auto rows61 = argx::make_view(p, dtype::i8, {n61, 1}, {0, 0});
  CHECK(reduce_error(g, rows61, g.index_out({n61}), nullptr, argx::spec{.dims = {1}}) == "shape_overflow");
  CHECK(result_error(rows61, argx::spec{.dims = {1}}) == "shape_overflow");
  const auto rows62 = argx::make_view(p, dtype::i8, {n62, 1}, {0, 0});
  CHECK(reduce_error(g, rows62, g.index_out({n62}, dtype::i32), nullptr,
                     argx::spec{.dims = {1}, .index = argx::index_type::int32}) == "shape_overflow");
  CHECK(result_error(rows62, argx::spec{.dims = {1}, .index = argx::index_type::int32}) == "shape_overflow");
  CHECK(message_of([&] { (void)argx::argmax(argx::seq, rows61, {.dims = {1}}); }).find("index output") != std::string::npos);
  // Half of that fits in 64 bits, but not in a result on the host.
  const auto rows59 = argx::make_view(p, dtype::i8, {std::int64_t(1) << 59, 1}, {0, 0});
  CHECK(error_of([&] { (void)argx::output_shape(rows59, argx::spec{.dims = {1}}); }) == "no error");
}

TEST_CASE("errors: an output that would run past the end of the address space is bad_output") {
  guarded g;
  auto io = g.index_out({2});
  io.data = reinterpret_cast<void*>(std::numeric_limits<std::uintptr_t>::max() - 7);  // 8 bytes left, 16 needed
  CHECK(reduce_error(g, g.x.view, io, nullptr, argx::spec{.dims = {1}}) == "bad_output");
  auto vo = g.value_out({2});
  vo.data = reinterpret_cast<void*>(std::numeric_limits<std::uintptr_t>::max() - 3);
  CHECK(reduce_error(g, g.x.view, g.index_out({2}), &vo, argx::spec{.dims = {1}}) == "bad_output");
}

TEST_CASE("errors: index_overflow") {
  guarded g;
  const void* p = g.x.storage->data();
  // 2^31 + 1 positions (one element seen through stride 0): the last index is 2^31.
  const std::int64_t n = (std::int64_t(1) << 31) + 1;
  const auto v = argx::make_view(p, dtype::f32, {n}, {0});
  CHECK(reduce_error(g, v, g.index_out({}, dtype::i32), nullptr, argx::spec{.dims = {}, .index = argx::index_type::int32}) ==
        "index_overflow");
  CHECK(result_error(v, argx::spec{.dims = {}, .index = argx::index_type::int32}) == "index_overflow");
  const auto rows = argx::make_view(p, dtype::f32, {2, n}, {0, 0});
  CHECK(reduce_error(g, rows, g.index_out({2}, dtype::i32), nullptr, argx::spec{.dims = {1}, .index = argx::index_type::int32}) ==
        "index_overflow");
  // The boundary: 2^31 positions (last index 2^31 - 1) still fit; so does int64.
  const auto fits = argx::make_view(p, dtype::f32, {n - 1}, {0});
  CHECK(error_of([&] { (void)argx::output_shape(fits, argx::spec{.dims = {}, .index = argx::index_type::int32}); }) == "no error");
  CHECK(error_of([&] { (void)argx::output_shape(v, argx::spec{.dims = {}}); }) == "no error");
}

TEST_CASE("errors: bad_output") {
  guarded g;
  auto vo = g.value_out({2});
  // Wrong shape: too many elements, too few, and keepdim's rank mismatch.
  CHECK(reduce_error(g, g.x.view, g.index_out({3}), nullptr, argx::spec{.dims = {1}}) == "bad_output");
  CHECK(reduce_error(g, g.x.view, g.index_out({1}), nullptr, argx::spec{.dims = {1}}) == "bad_output");
  CHECK(reduce_error(g, g.x.view, g.index_out({2}), nullptr, [] { auto s = argx::spec{.dims = {1}}; s.keepdim = true; return s; }()) ==
        "bad_output");
  CHECK(reduce_error(g, g.x.view, g.index_out({2, 1}), nullptr, argx::spec{.dims = {1}}) == "bad_output");
  CHECK(reduce_error(g, g.x.view, g.index_out({2}), nullptr, argx::spec{.dims = {}}) == "bad_output");
  // Right shape, wrong values shape.
  auto vo_bad = g.value_out({3});
  CHECK(reduce_error(g, g.x.view, g.index_out({2}), &vo_bad, argx::spec{.dims = {1}}) == "bad_output");
  // Wrong dtypes: int32 buffer for int64 indices and the reverse; values not the input's dtype.
  CHECK(reduce_error(g, g.x.view, g.index_out({2}, dtype::i32), nullptr, argx::spec{.dims = {1}}) == "bad_output");
  CHECK(reduce_error(g, g.x.view, g.index_out({2}, dtype::i64), nullptr, argx::spec{.dims = {1}, .index = argx::index_type::int32}) ==
        "bad_output");
  CHECK(reduce_error(g, g.x.view, g.index_out({2}, dtype::f32), nullptr, argx::spec{.dims = {1}}) == "bad_output");
  auto vo_i32 = g.value_out({2}, dtype::i32);
  CHECK(reduce_error(g, g.x.view, g.index_out({2}), &vo_i32, argx::spec{.dims = {1}}) == "bad_output");
  // Null pointers where something must be written.
  const auto null_idx = argx::make_output(static_cast<std::int64_t*>(nullptr), argx::shape{2});
  CHECK(reduce_error(g, g.x.view, null_idx, &vo, argx::spec{.dims = {1}}) == "bad_output");
  const auto null_val = argx::make_output(static_cast<float*>(nullptr), argx::shape{2});
  CHECK(reduce_error(g, g.x.view, g.index_out({2}), &null_val, argx::spec{.dims = {1}}) == "bad_output");
  const std::string m = message_of([&] { argx::argmax(argx::seq, g.x.view, g.index_out({3}), argx::spec{.dims = {1}}); });
  CHECK(m.find("index output") != std::string::npos);
}

TEST_CASE("errors: bad_argument") {
  guarded g;
  argx::tensor_view v = g.x.view;
  v.data = nullptr;  // elements to read but no pointer
  CHECK(reduce_error(g, v, g.index_out({2}), nullptr, argx::spec{.dims = {1}}) == "bad_argument");
  CHECK(result_error(v, {}) == "bad_argument");
  // A pointer and strides that reach below address 0 or past the end of the address space
  // describe no memory: refused, never read.
  const auto low = argx::make_view(reinterpret_cast<const void*>(std::uintptr_t{64}), dtype::f32, {2, 40}, {-40, 1});
  CHECK(reduce_error(g, low, g.index_out({2}), nullptr, argx::spec{.dims = {1}}) == "bad_argument");
  const auto high = argx::make_view(reinterpret_cast<const void*>(std::numeric_limits<std::uintptr_t>::max() - 31),
                                    dtype::f64, {2, 3}, {3, 1});
  CHECK(reduce_error(g, high, g.index_out({2}), nullptr, argx::spec{.dims = {1}}) == "bad_argument");
  CHECK(result_error(high, {}) == "bad_argument");
  // With nothing to read, a null input is fine.
  const auto empty = argx::make_view(static_cast<const void*>(nullptr), dtype::f32, {0, 3}, {3, 1});
  CHECK(reduce_error(g, empty, g.index_out({0}), nullptr, argx::spec{.dims = {1}}) == "no error");
}

TEST_CASE("errors: wrong_memory_space (host-only backends)" * doctest::skip(is_gpu(backend_under_test()))) {
  guarded g;
  auto vo = g.value_out({2});
  argx::tensor_view on_device = g.x.view;
  on_device.space = argx::memory_space::device;
  CHECK(reduce_error(g, on_device, g.index_out({2}), &vo, argx::spec{.dims = {1}}) == "wrong_memory_space");
  CHECK(result_error(on_device, argx::spec{.dims = {1}}) == "wrong_memory_space");
  auto io = g.index_out({2});
  io.space = argx::memory_space::device;
  CHECK(reduce_error(g, g.x.view, io, &vo, argx::spec{.dims = {1}}) == "wrong_memory_space");
  vo.space = argx::memory_space::device;
  CHECK(reduce_error(g, g.x.view, g.index_out({2}), &vo, argx::spec{.dims = {1}}) == "wrong_memory_space");
  CHECK(message_of([&] { argx::argmax(argx::seq, on_device, g.index_out({2}), argx::spec{.dims = {1}}); }).find("input") !=
        std::string::npos);
}

TEST_CASE("errors: device pointers declared as host memory are refused by CPU backends" *
          doctest::skip(!is_gpu(backend_under_test()))) {
  // Runs in the GPU executables, where device memory exists: argx asks the driver where a
  // pointer lives instead of trusting the declared space.
  guarded g;
  device_buffer d(g.x.storage->size());
  d.upload(g.x.storage->data(), g.x.storage->size());
  const argx::tensor_view lying = argx::make_view(d.data(), dtype::f32, {2, 3}, {3, 1});  // says host
  for (argx::backend b : {argx::backend::seq, argx::backend::par, argx::backend::tbb}) {
    if (!argx::available(b)) continue;
    INFO(std::string(argx::name(b)));
    CHECK(error_of([&] { argx::reduce(policy_for(b), argx::op::argmax, lying, g.index_out({2}), nullptr, argx::spec{.dims = {1}}); }) ==
          "wrong_memory_space");
    CHECK(g.untouched());
  }
}

TEST_CASE("errors: a failed call does not disturb the next one") {
  guarded g;
  CHECK(reduce_error(g, g.x.view, g.index_out({2}), nullptr, argx::spec{.dims = {9}}) == "bad_dim");
  const outcome r = argmax(g.x, argx::spec{.dims = {1}});
  CHECK(r.indices == std::vector<std::int64_t>{1, 0});
  CHECK(argmin(g.x, argx::spec{.dims = {0}}).indices == std::vector<std::int64_t>{0, 1, 0});
}
