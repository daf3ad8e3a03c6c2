// The public API around the reductions: policies and their names, availability and
// backend_unavailable, the automatic policy, view factories and transforms, unravel,
// output_shape, result::value, dtype and error names.
#include <doctest/doctest.h>

#include <array>
#include <limits>
#include <new>
#include <set>
#include <stdexcept>
#include <span>
#include <vector>

#include <argx/argx.hpp>

#include "element_bits.hpp"
#include "error_of.hpp"
#include "host_tensor.hpp"

using namespace argx_test;
using argx::backend;

TEST_CASE("api: backend names round-trip and policies carry their settings") {
  std::set<std::string> names;
  for (backend b : argx::all_backends) {
    names.insert(std::string(argx::name(b)));
    CHECK(argx::parse_backend(argx::name(b)) == b);
    CHECK(argx::policy::from_name(argx::name(b))->kind == b);
  }
  CHECK(names == std::set<std::string>{"seq", "par", "tbb", "cuda", "thrust", "auto"});
  CHECK_FALSE(argx::parse_backend("gpu").has_value());
  CHECK_FALSE(argx::policy::from_name("").has_value());
  int stream_object = 0;
  const argx::policy c = argx::cuda.on(&stream_object);
  CHECK(c.kind == backend::cuda);
  CHECK(c.stream == &stream_object);
  CHECK(argx::policy(argx::thrust.on(&stream_object)).stream == &stream_object);
  const argx::policy a = argx::automatic.allowing_transfer();
  CHECK(a.kind == backend::automatic);
  CHECK(a.allow_transfer);
  CHECK_FALSE(argx::policy(argx::automatic).allow_transfer);
}

TEST_CASE("api: available() matches what was built and what is present") {
  CHECK(argx::available(backend::seq));
  CHECK(argx::available(backend::par));
  CHECK(argx::available(backend::automatic));
  // The current device (0 here) decides: a GPU argx has no kernels for is present but
  // unusable (supported is the prediction from the built architectures; loading a kernel
  // decides, e.g. when the driver may not compile PTX).
  const auto gs = argx::gpus();
  const bool gpu = argx::available(backend::cuda);
  if (gpu) CHECK((argx::built_with_cuda() && !gs.empty() && gs[0].supported));
  if (argx::built_with_cuda() && !gs.empty() && !gs[0].supported) CHECK_FALSE(gpu);
  CHECK(argx::available(backend::thrust) == gpu);
  if (!argx::built_with_cuda()) CHECK(gs.empty());
  CHECK(std::string(argx::cuda_archs()).empty() == !argx::built_with_cuda());
  std::string usable = "seq par";
  if (argx::available(backend::tbb)) usable += " tbb";
  if (gpu) usable += " cuda thrust";
  MESSAGE("usable here: ", usable);
}

TEST_CASE("api: an optional backend either runs or raises backend_unavailable and writes nothing") {
  const host_tensor x = make_tensor(argx::dtype::f32, {1, 3, 2}, {3});
  for (backend b : {backend::tbb, backend::cuda, backend::thrust}) {
    INFO(std::string(argx::name(b)));
    std::vector<std::int64_t> idx(2, -7);
    const std::string code =
        error_of([&] { argx::argmax(argx::policy{b}, x.view, argx::make_output(idx.data(), argx::shape{})); });
    if (argx::available(b)) {  // host memory: a GPU backend stages it
      CHECK(code == "no error");
      CHECK(idx == std::vector<std::int64_t>{1, -7});
      CHECK(argx::argmin(argx::policy{b}, x.view).indices == std::vector<std::int64_t>{0});
      continue;
    }
    CHECK(code == "backend_unavailable");
    CHECK(idx == std::vector<std::int64_t>(2, -7));
    CHECK(error_of([&] { (void)argx::argmin(argx::policy{b}, x.view); }) == "backend_unavailable");
    std::string what = "no error";
    try {
      (void)argx::argmax(argx::policy{b}, x.view);
    } catch (const argx::error& e) {
      what = e.what();
    }
    CHECK(what.find("backend " + std::string(argx::name(b))) != std::string::npos);  // names the backend
  }
}

TEST_CASE("api: automatic runs host memory on the CPU and device memory on cuda") {
  const host_tensor x = make_tensor(argx::dtype::i16, {4, -2, 9, 9, 0, 1}, {2, 3});
  argx::spec s;
  s.dims = {1};
  const auto r = argx::argmax(argx::automatic, x.view, s);
  CHECK(r.indices == std::vector<std::int64_t>{2, 0});
  CHECK(argx::argmax(argx::automatic.allowing_transfer(), x.view, s).indices == r.indices);
  if (!argx::available(backend::cuda)) {
    argx::tensor_view d = x.view;  // declared device memory cannot go to a CPU backend
    d.space = argx::memory_space::device;
    CHECK(error_of([&] { (void)argx::argmax(argx::automatic, d, s); }) == "backend_unavailable");
  }
}

TEST_CASE("api: locate says host for host memory, on every build") {
  const host_tensor x = make_tensor(argx::dtype::i16, {4, -2, 9}, {3});
  CHECK(argx::locate(x.view.data) == argx::memory_space::host);
  CHECK(argx::locate(nullptr) == argx::memory_space::host);
  int on_stack = 0;
  CHECK(argx::locate(&on_stack) == argx::memory_space::host);
}

TEST_CASE("api: a policy with an unknown backend code is bad_argument") {
  const host_tensor x = make_tensor(argx::dtype::f32, {1, 2}, {2});
  for (int code : {6, 99}) {
    const argx::policy p{static_cast<backend>(code)};
    CHECK(error_of([&] { (void)argx::argmax(p, x.view); }) == "bad_argument");
  }
}

TEST_CASE("api: view factories") {
  const std::vector<double> v = {1, 5, 2, 5};
  auto a = argx::make_view(v);
  CHECK(a.type == argx::dtype::f64);
  CHECK(a.extents == argx::shape{4});
  CHECK(a.strides == argx::shape{1});
  CHECK(a.space == argx::memory_space::host);
  auto b = argx::make_view(v, {2, 2});
  CHECK(b.strides == argx::shape{2, 1});
  const std::array<std::uint8_t, 3> arr = {1, 7, 7};
  CHECK(argx::argmax(argx::seq, argx::make_view(arr)).indices[0] == 1);
  CHECK(argx::argmax(argx::seq, argx::make_view(std::span<const std::uint8_t>(arr))).indices[0] == 1);
  auto c = argx::make_view(v.data(), {2, 2}, {1, 2});  // column-major: [[1, 2], [5, 5]]
  CHECK(argx::argmax(argx::seq, c, {.dims = {1}}).indices == std::vector<std::int64_t>{1, 0});
  CHECK(argx::contiguous_strides({2, 0, 3}) == argx::shape{3, 3, 1});
  const argx::half h[2] = {{0x3C00}, {0x4000}};
  CHECK(argx::argmax(argx::seq, argx::make_view(&h[0], {2})).indices[0] == 1);
  const argx::bfloat16 bf[2] = {{0x4000}, {0x3F80}};
  CHECK(argx::argmax(argx::seq, argx::make_view(&bf[0], {2})).indices[0] == 0);
}

TEST_CASE("api: view transforms and their errors") {
  const std::vector<float> v = {0, 1, 2, 3, 4, 5};
  const auto x = argx::make_view(v, {2, 3});
  const auto t = x.transposed(0, -1);
  CHECK(t.extents == argx::shape{3, 2});
  CHECK(t.strides == argx::shape{1, 3});
  const auto s = x.sliced(1, 1, 3);
  CHECK(s.extents == argx::shape{2, 2});
  CHECK(s.data == v.data() + 1);
  const auto f = x.flipped(0);
  CHECK(f.data == v.data() + 3);
  CHECK(f.strides == argx::shape{-3, 1});
  CHECK(error_of([&] { (void)x.transposed(0, 2); }) == "bad_dim");
  CHECK(error_of([&] { (void)x.flipped(-3); }) == "bad_dim");
  CHECK(error_of([&] { (void)x.sliced(1, 0, 3, 0); }) == "bad_argument");
  CHECK(error_of([&] { (void)x.sliced(2, 0, 1); }) == "bad_dim");
  CHECK(x.sliced(1, 3, 3).extents == argx::shape{2, 0});
}

TEST_CASE("api: sliced is numpy's x[begin:end:step]") {
  constexpr std::int64_t none_hi = std::numeric_limits<std::int64_t>::max();  // CPython's stand-ins for None
  constexpr std::int64_t none_lo = std::numeric_limits<std::int64_t>::min();
  const std::vector<std::int16_t> v = {10, 11, 12, 13, 14, 15, 16};
  const auto x = argx::make_view(v);
  // The elements a slice holds, read through its view.
  auto elements = [](const argx::tensor_view& s) {
    std::vector<std::int16_t> out;
    for (std::int64_t i = 0; i < s.extents[0]; ++i) out.push_back(static_cast<const std::int16_t*>(s.data)[i * s.strides[0]]);
    return out;
  };
  using e = std::vector<std::int16_t>;
  struct expect {
    std::int64_t begin, end, step;
    e want;  // what numpy's np.arange(10, 17)[begin:end:step] holds
  };
  const expect cases[] = {
      {0, 2, none_hi, {10}},                // x[0:2:2**63-1]: one element (no overflow)
      {1, 0, 1, {}},                        // inverted: empty, like numpy
      {5, 2, 1, {}},
      {0, 100, 1, {10, 11, 12, 13, 14, 15, 16}},  // bounds past the end are clamped
      {9, 20, 1, {}},
      {-2, none_hi, 1, {15, 16}},           // x[-2:]
      {-100, 2, 1, {10, 11}},
      {0, -5, 1, {10, 11}},
      {none_hi, none_lo, -1, {16, 15, 14, 13, 12, 11, 10}},  // x[::-1]
      {5, 1, -2, {15, 13}},
      {1, 5, -1, {}},
      {-1, -100, -3, {16, 13, 10}},
      {100, 3, -2, {16, 14}},
      {3, none_lo, none_lo, {13}},          // the most negative step: one element
      {0, 7, 3, {10, 13, 16}},
      {2, 7, none_hi, {12}},
  };
  for (const auto& c : cases) {
    CAPTURE(c.begin); CAPTURE(c.end); CAPTURE(c.step);
    const auto s = x.sliced(0, c.begin, c.end, c.step);
    CHECK(s.extents[0] == static_cast<std::int64_t>(c.want.size()));
    CHECK(elements(s) == c.want);
  }
  // An empty slice of an empty dim, and slices of a slice.
  CHECK(x.sliced(0, 3, 3).sliced(0, none_hi, none_lo, -1).extents[0] == 0);
  CHECK(elements(x.sliced(0, 1, 6, 2).sliced(0, none_hi, none_lo, -1)) == e{15, 13, 11});
  // A step that makes the stride overflow is refused when the slice has two elements or more.
  const auto wide = argx::make_view(v.data(), {3}, {std::int64_t(1) << 62});
  CHECK(error_of([&] { (void)wide.sliced(0, 0, 3, 2); }) == "shape_overflow");
  CHECK(wide.sliced(0, 0, 3, none_hi).extents[0] == 1);
}

TEST_CASE("api: only argx::error leaves the library (foreign exceptions are translated)") {
  auto code_of = [](auto&& thrower) {
    return error_of([&] { argx::detail::with_argx_errors("test", thrower); });
  };
  CHECK(code_of([] { throw std::bad_alloc(); }) == "out_of_memory");
  CHECK(code_of([] { std::vector<std::int64_t>().resize(std::size_t(1) << 62); }) == "out_of_memory");  // length_error
  CHECK(code_of([] { throw std::logic_error("boom"); }) == "internal");
  CHECK(code_of([] { throw 42; }) == "internal");
  CHECK(code_of([] { throw argx::error(argx::errc::bad_dim, "kept"); }) == "bad_dim");
  try {
    argx::detail::with_argx_errors("testing", [] { throw std::logic_error("boom"); });
  } catch (const argx::error& e) {
    CHECK(std::string(e.what()) == "argx: testing: unexpected boom");
  }
  CHECK(argx::detail::with_argx_errors("test", [] { return 7; }) == 7);
  // The case: a 2^61-element result (one element seen through stride 0) used to
  // throw std::length_error out of argx::argmax.
  const std::int8_t one = 5;
  const auto x = argx::make_view(&one, {std::int64_t(1) << 61, 1}, {0, 0});
  CHECK(error_of([&] { (void)argx::argmax(argx::seq, x, {.dims = {1}}); }) == "shape_overflow");
  CHECK(error_of([&] { (void)argx::output_shape(x, {.dims = {1}}); }) == "shape_overflow");
}

TEST_CASE("api: unravel") {
  CHECK(argx::unravel(0, {2, 3, 4}) == argx::shape{0, 0, 0});
  CHECK(argx::unravel(23, {2, 3, 4}) == argx::shape{1, 2, 3});
  CHECK(argx::unravel(13, {2, 3, 4}) == argx::shape{1, 0, 1});
  CHECK(argx::unravel(0, argx::shape{}) == argx::shape{});
  for (std::int64_t i = 0; i < 60; ++i) {  // inverse of the row-major flattening
    const argx::shape m = argx::unravel(i, {3, 4, 5});
    CHECK((m[0] * 4 + m[1]) * 5 + m[2] == i);
  }
  CHECK(error_of([] { (void)argx::unravel(24, {2, 3, 4}); }) == "bad_argument");
  CHECK(error_of([] { (void)argx::unravel(-1, {2, 3, 4}); }) == "bad_argument");
}

TEST_CASE("api: output_shape") {
  const std::vector<float> v(24);
  const auto x = argx::make_view(v, {2, 3, 4});
  CHECK(argx::output_shape(x) == argx::shape{});
  CHECK(argx::output_shape(x, {.keepdim = true}) == argx::shape{1, 1, 1});
  CHECK(argx::output_shape(x, {.dims = {1}}) == argx::shape{2, 4});
  CHECK(argx::output_shape(x, {.dims = {-1, 0}, .keepdim = true}) == argx::shape{1, 3, 1});
  CHECK(error_of([&] { (void)argx::output_shape(x, {.dims = {3}}); }) == "bad_dim");
}

TEST_CASE("api: result holds int64 indices, the values, and checks value<T>") {
  const std::vector<std::int16_t> v = {3, -8, 3};
  const argx::result r = argx::argmin(argx::seq, argx::make_view(v), {.index = argx::index_type::int32});
  CHECK(r.size() == 1);
  CHECK(r.indices == std::vector<std::int64_t>{1});
  CHECK(r.value_type == argx::dtype::i16);
  CHECK(r.value<std::int16_t>(0) == -8);
  CHECK(r.value<std::uint16_t>(0) == 0xFFF8);
  CHECK(error_of([&] { (void)r.value<std::int32_t>(0); }) == "bad_argument");
}

TEST_CASE("api: dtype and error names") {
  std::set<std::string> seen;
  for (argx::dtype t : all_dtypes()) {
    const std::string n(argx::name(t));
    seen.insert(n);
    CHECK(argx::parse_dtype(n) == t);
  }
  CHECK(seen.size() == argx::dtype_count);
  CHECK(argx::parse_dtype("bf16") == argx::dtype::bf16);
  CHECK(argx::parse_dtype("bool") == argx::dtype::boolean);
  CHECK_FALSE(argx::parse_dtype("float128").has_value());
  std::set<std::string> codes;
  // comm_failure is the last code: codes are only ever appended (their numbers are stable).
  constexpr auto last = argx::errc::comm_failure;
  for (int c = 0; c <= static_cast<int>(last); ++c) codes.insert(argx::to_string(static_cast<argx::errc>(c)));
  CHECK(codes.size() == static_cast<std::size_t>(last) + 1);
  CHECK(codes.count("unknown") == 0);
  CHECK(std::string(argx::to_string(static_cast<argx::errc>(static_cast<int>(last) + 1))) == "unknown");
  CHECK(static_cast<int>(argx::errc::internal) == static_cast<int>(argx::errc::io_failure) + 1);
  CHECK(static_cast<int>(argx::errc::comm_failure) == static_cast<int>(argx::errc::internal) + 1);
  CHECK(std::string(argx::to_string(argx::errc::internal)) == "internal");
  CHECK(std::string(argx::to_string(argx::errc::comm_failure)) == "comm_failure");
  const argx::error e(argx::errc::bad_npy, "x.npy: truncated header");
  CHECK(std::string(e.what()) == "argx: x.npy: truncated header");
  CHECK(e.code() == argx::errc::bad_npy);
}
