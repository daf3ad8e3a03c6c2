#include "compare.hpp"

#include <doctest/doctest.h>

#include "../../backends/cuda/dispatch.hpp"
#include "../../backends/cuda/layout.hpp"
#include "element_bits.hpp"

namespace argx_gpu_test {

using namespace argx_test;

void require_same_as_seq(argx::op o, const host_tensor& x, const argx::spec& s, bool check_reference, bool values) {
  INFO(describe(x), "; ", describe(o, s), values ? "" : "; indices only");
  run_options opt;
  opt.values = values;
  const outcome want = reduce_on(argx::backend::seq, o, x, s, opt);
  if (check_reference) check_against_reference(o, x, s, want, "seq");
  for (argx::backend b : {argx::backend::cuda, argx::backend::thrust}) {
    const outcome got = reduce_on(b, o, x, s, opt);
    INFO("backend ", std::string(argx::name(b)));
    REQUIRE(to_string(got.extents) == to_string(want.extents));
    REQUIRE(got.indices.size() == want.indices.size());
    std::string mismatch;
    for (std::size_t i = 0; i < want.indices.size() && mismatch.empty(); ++i) {
      if (got.indices[i] != want.indices[i])
        mismatch = "output " + std::to_string(i) + ": index " + std::to_string(got.indices[i]) + ", seq says " +
                   std::to_string(want.indices[i]);
      else if (values && got.value_bits[i] != want.value_bits[i])
        mismatch = "output " + std::to_string(i) + ": value " + hex_bits(x.type(), got.value_bits[i]) + ", seq says " +
                   hex_bits(x.type(), want.value_bits[i]);
    }
    CHECK_MESSAGE(mismatch.empty(), mismatch);
  }
}

std::string path_of(argx::op o, const host_tensor& x, const argx::spec& s) {
  using argx::detail::gpu::kernel_kind;
  // The plan of the view as it would be in device memory: the same strides, the same
  // alignment of the data pointer relative to 16 bytes (device allocations are aligned).
  argx::detail::plan p = argx::detail::make_plan(x.view, o, s);
  p.data = reinterpret_cast<const void*>(std::uintptr_t(0x10000) + static_cast<std::uintptr_t>(x.data_offset()));
  const auto l = argx::detail::gpu::make_layout(p);
  const auto c = argx::detail::gpu::launch_for(p);
  auto lanes = [&](int log2) { return log2 == 0 ? std::string(" lanes=1") : log2 == 5 ? " lanes=32" : " lanes=2-16"; };
  std::string path;
  switch (c.kernel) {
    case kernel_kind::tiny_rows: path = "tiny_rows"; break;
    case kernel_kind::tiny_slices: path = "tiny_slices"; break;
    case kernel_kind::windows: path = "windows" + lanes(c.team_log2) + " slots=" + std::to_string(c.window_slots); break;
    case kernel_kind::staged_rows:
      path = "staged_rows";
      break;
    case kernel_kind::runs_team:
      path = "runs_team" + lanes(c.team_log2) + (c.run_stream ? " short" : "");
      break;
    case kernel_kind::runs_block:
      path = std::string("runs_block") + (c.run_stream ? " short" : c.run_across ? " across" : "");
      break;
    case kernel_kind::runs_unordered:
      path = std::string("runs_unordered") + (c.run_stream ? " short" : "") + (l.dense ? " dense" : "");
      break;
    case kernel_kind::columns:
      path = std::string("columns ") + to_string(c.read) + (c.packed ? " packed" : "");
      if (c.splits > 1) path += c.packed_meet ? " atomic" : " partials";
      if (c.virt.any()) path += c.virt.window > 1 ? " window" : " folded";  // (answers by a warp or a block: both taken)
      return path;
    case kernel_kind::elements_team: path = "elements_team"; break;
    case kernel_kind::elements_block: path = "elements_block"; break;
  }
  if (c.splits > 1) path += " split";
  // Pieces of a slice of one long run are interleaved stretches of it (run_items.cuh).
  const bool long_runs = (c.kernel == kernel_kind::runs_block || c.kernel == kernel_kind::runs_unordered) && !c.run_stream;
  if (long_runs && c.splits > 1 && l.reduce == l.run_length()) path += " interleaved";
  if (c.memory_order) path += " memory";
  return path;
}

void require_two_variants_same_as_seq(const host_tensor& x, const argx::dim_list& dims, int first,
                                      bool check_reference, std::set<std::string>& paths) {
  for (int k : {0, 7}) {  // the second without values (kernels may store indices alone differently)
    const int v = (first + k) % 16;
    const argx::spec s = spec_variant(v, dims);
    paths.insert(path_of(op_variant(v), x, s));
    require_same_as_seq(op_variant(v), x, s, check_reference, k == 0);
  }
}

std::string listed(const std::set<std::string>& paths) {
  std::string all;
  for (const auto& p : paths) all += "[" + p + "] ";
  return all;
}

argx::spec spec_variant(int i, argx::dim_list dims) {
  argx::spec s;
  s.dims = dims;
  s.nan = (i & 2) ? argx::nan_policy::ignore : argx::nan_policy::propagate;
  s.ties = (i & 4) ? argx::tie_break::last : argx::tie_break::first;
  s.abs = (i & 8) != 0;
  s.index = (i & 1) ? argx::index_type::int32 : argx::index_type::int64;
  return s;
}

}  // namespace argx_gpu_test
