#include "harness.hpp"

#include <stdexcept>
#include <utility>

#include <argx/detail/guarded_run.hpp>
#include <doctest/doctest.h>

#include "device_memory.hpp"
#include "element_bits.hpp"
#include "reference.hpp"

namespace argx_test {

using argx::dtype;

bool is_gpu(argx::backend b) noexcept { return b == argx::backend::cuda || b == argx::backend::thrust; }

argx::policy policy_for(argx::backend b) noexcept { return argx::policy{b}; }

namespace {

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

// Outputs in GPU memory: each guarded buffer copied there whole, guards too, before the
// run, and back after it.
class device_placement {
 public:
  static constexpr argx::memory_space space = argx::memory_space::device;
  void* place(argx::detail::guarded_buffer& b) {
    auto& bytes = b.with_guards();
    copies_.push_back({&b, device_buffer(bytes.size())});
    copies_.back().second.upload(bytes.data(), bytes.size());
    return static_cast<unsigned char*>(copies_.back().second.data()) + argx::detail::guarded_buffer::guard_bytes;
  }
  void fetch(argx::detail::guarded_buffer& b) {
    device_synchronize();
    for (const auto& [host, copy] : copies_)
      if (host == &b) copy.download(b.with_guards().data(), b.with_guards().size());
  }

 private:
  std::vector<std::pair<argx::detail::guarded_buffer*, device_buffer>> copies_;
};

// The caller-buffer overload into guarded buffers on the host or the device.
template <class Placement>
outcome reduce_buffer_form(const argx::policy& pol, argx::op o, const argx::tensor_view& v, const argx::spec& s,
                           const run_options& opt, Placement& where) {
  const argx::detail::guarded_outcome g = argx::detail::run_guarded(
      v, o, s, opt.values, where,
      [&](const argx::output_view& iv, const argx::output_view* vv) { argx::reduce(pol, o, v, iv, vv, s); });
  if (!g.damage.empty()) throw std::runtime_error("backend " + std::string(argx::name(pol.kind)) + " " + g.damage);
  if (!g.ok) {
    if (g.error) std::rethrow_exception(g.error);
    throw argx::error(g.code, g.message);  // no host memory for the outputs
  }
  outcome r;
  r.extents = g.extents;
  r.indices = g.indices_int64(s.index);
  const std::size_t vw = argx::size_of(v.type);
  for (std::size_t i = 0; i * vw < g.values.size(); ++i)
    r.value_bits.push_back(load_bits(v.type, g.values.data() + i * vw));
  return r;
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
    device_placement outputs;
    r = opt.result_form ? reduce_result_form(pol, o, dv, s) : reduce_buffer_form(pol, o, dv, s, opt, outputs);
    std::vector<unsigned char> after(x.storage->size());
    input.download(after.data(), after.size());
    if (after != before) throw std::runtime_error("the input in device memory was modified");
  } else {
    argx::detail::host_placement outputs;
    r = opt.result_form ? reduce_result_form(pol, o, x.view, s) : reduce_buffer_form(pol, o, x.view, s, opt, outputs);
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
