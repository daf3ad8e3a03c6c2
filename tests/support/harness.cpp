#include "harness.hpp"

#include <cstring>
#include <optional>
#include <stdexcept>

#include <doctest/doctest.h>

#include "device_memory.hpp"
#include "element_bits.hpp"
#include "reference.hpp"

namespace argx_test {

using argx::dtype;

bool is_gpu(argx::backend b) noexcept { return b == argx::backend::cuda || b == argx::backend::thrust; }

argx::policy policy_for(argx::backend b) noexcept { return argx::policy{b}; }

namespace {

// Every output byte starts as this, so a missing or stray write is visible.
constexpr unsigned char sentinel = 0xA5;

// Host buffers of `count` output elements plus one guard element past the end.
struct host_outputs {
  std::vector<unsigned char> indices, values;
  host_outputs(std::int64_t count, std::size_t index_width, std::size_t value_width)
      : indices((count + 1) * index_width, sentinel), values((count + 1) * value_width, sentinel) {}
};

bool all_sentinel(const unsigned char* p, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (p[i] != sentinel) return false;
  return true;
}

outcome read_outcome(const argx::shape& extents, std::int64_t count, const host_outputs& h, bool int32, bool values,
                     dtype t) {
  outcome r;
  r.extents = extents;
  const std::size_t iw = int32 ? 4 : 8, vw = argx::size_of(t);
  if (!all_sentinel(h.indices.data() + count * iw, iw))
    throw std::runtime_error("index output written past its end");
  if (values && !all_sentinel(h.values.data() + count * vw, vw))
    throw std::runtime_error("values output written past its end");
  for (std::int64_t i = 0; i < count; ++i) {
    if (int32) {
      std::int32_t v;
      std::memcpy(&v, h.indices.data() + i * 4, 4);
      r.indices.push_back(v);
    } else {
      std::int64_t v;
      std::memcpy(&v, h.indices.data() + i * 8, 8);
      r.indices.push_back(v);
    }
    if (values) r.value_bits.push_back(load_bits(t, h.values.data() + i * vw));
  }
  return r;
}

// The result-returning overload (int64 indices and values, always on the host).
outcome reduce_result_form(const argx::policy& pol, argx::op o, const argx::tensor_view& v, const argx::spec& s) {
  const argx::result res = argx::reduce(pol, o, v, s);
  outcome r;
  r.extents = res.extents;
  r.indices = res.indices;
  const std::size_t vw = argx::size_of(v.type);
  if (res.value_type != v.type || res.values.size() != res.indices.size() * vw)
    throw std::runtime_error("result form: values have the wrong dtype or size");
  for (std::size_t i = 0; i < res.indices.size(); ++i) r.value_bits.push_back(load_bits(v.type, res.values.data() + i * vw));
  return r;
}

// The caller-buffer overload with host or device buffers.
outcome reduce_buffer_form(const argx::policy& pol, argx::op o, const argx::tensor_view& v, const argx::spec& s,
                           const run_options& opt, bool on_device) {
  std::optional<argx::shape> shape_or;
  try {
    shape_or = argx::output_shape(v, s);
  } catch (const argx::error&) {
    // Invalid input: the reduction itself must raise the error (with dummy outputs).
    std::int64_t dummy[2] = {};
    argx::reduce(pol, o, v, argx::make_output(dummy, argx::shape{}), nullptr, s);
    throw std::logic_error("argx::reduce accepted an input that argx::output_shape rejects");
  }
  const argx::shape extents = *shape_or;
  const std::int64_t count = element_count(extents);
  const bool int32 = s.index == argx::index_type::int32;
  const dtype it = int32 ? dtype::i32 : dtype::i64;
  const std::size_t iw = argx::size_of(it), vw = argx::size_of(v.type);
  host_outputs h(count, iw, vw);

  if (!on_device) {
    const auto iv = argx::make_output(h.indices.data(), it, extents);
    const auto vv = argx::make_output(h.values.data(), v.type, extents);
    argx::reduce(pol, o, v, iv, opt.values ? &vv : nullptr, s);
    return read_outcome(extents, count, h, int32, opt.values, v.type);
  }
  device_buffer di(h.indices.size()), dv(h.values.size());
  di.upload(h.indices.data(), h.indices.size());
  dv.upload(h.values.data(), h.values.size());
  const auto iv = argx::make_output(di.data(), it, extents, argx::memory_space::device);
  const auto vv = argx::make_output(dv.data(), v.type, extents, argx::memory_space::device);
  argx::reduce(pol, o, v, iv, opt.values ? &vv : nullptr, s);
  device_synchronize();
  di.download(h.indices.data(), h.indices.size());
  dv.download(h.values.data(), h.values.size());
  return read_outcome(extents, count, h, int32, opt.values, v.type);
}

}  // namespace

outcome reduce_on(argx::backend b, argx::op o, const host_tensor& x, const argx::spec& s, run_options opt) {
  const argx::policy pol = policy_for(b);
  const bool on_device = is_gpu(b) && opt.memory == placement::device;
  const std::vector<unsigned char> before = *x.storage;

  outcome r;
  if (on_device) {
    device_buffer input(x.storage->size());
    input.upload(x.storage->data(), x.storage->size());
    argx::tensor_view dv = x.view;
    dv.data = static_cast<const unsigned char*>(input.data()) + x.data_offset();
    dv.space = argx::memory_space::device;
    r = opt.result_form ? reduce_result_form(pol, o, dv, s) : reduce_buffer_form(pol, o, dv, s, opt, true);
    std::vector<unsigned char> after(x.storage->size());
    input.download(after.data(), after.size());
    if (after != before) throw std::runtime_error("the input in device memory was modified");
  } else {
    r = opt.result_form ? reduce_result_form(pol, o, x.view, s) : reduce_buffer_form(pol, o, x.view, s, opt, false);
  }
  if (*x.storage != before) throw std::runtime_error("the input was modified");
  return r;
}

void check_against_reference(argx::op o, const host_tensor& x, const argx::spec& s, const outcome& got,
                             const std::string& who) {
  const reference_answer want = reference_reduce(o, x, s);
  INFO("backend ", who, ": ", describe(x), "; ", describe(o, s));
  REQUIRE(to_string(got.extents) == to_string(want.extents));
  REQUIRE(got.indices.size() == want.indices.size());
  std::string mismatch;  // the first difference only: one message per case is enough
  for (std::size_t i = 0; i < want.indices.size() && mismatch.empty(); ++i) {
    if (got.indices[i] != want.indices[i])
      mismatch = "output " + std::to_string(i) + ": index " + std::to_string(got.indices[i]) +
                 " but the reference says " + std::to_string(want.indices[i]);
    else if (!got.value_bits.empty() && got.value_bits[i] != want.value_bits[i])
      mismatch = "output " + std::to_string(i) + ": value " + hex_bits(x.type(), got.value_bits[i]) +
                 " but the reference says " + hex_bits(x.type(), want.value_bits[i]);
  }
  CHECK_MESSAGE(mismatch.empty(), mismatch);
}

}  // namespace argx_test
