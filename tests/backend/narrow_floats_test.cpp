// half and bfloat16 in the layouts that reduce many short slices at once (a few rows of
// contiguous lanes an output, outputs in or out of the lanes' order, lanes meeting in one
// output at positions a row apart) and in long contiguous ranges: every op, NaN policy, tie
// rule and abs, on data with NaN of both signs, ±0, infinities and dense ties, and an
// all-NaN slice. Indices and value bits must be the reference oracle's and seq's.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "element_bits.hpp"
#include "harness.hpp"
#include "random_tensor.hpp"

using namespace argx_test;
using argx::dtype;

namespace {

/// A view to reduce and the dims to reduce it over.
struct layout_case {
  const char* what;
  argx::shape extents;  // of the contiguous tensor the view is taken of
  int swap_a = 0, swap_b = 0;  // dims the view swaps (equal: none)
  int flip = -1;               // dim the view reverses (-1: none)
  argx::dim_list dims;         // empty: all
};

const std::vector<layout_case> cases = {
    {"13 lanes of 5 rows an output, many outputs", {3000, 5, 13}, 0, 0, -1, {1}},
    {"16 rows an output (the most a short walk has)", {700, 16, 20}, 0, 0, -1, {1}},
    {"17 rows an output", {700, 17, 20}, 0, 0, -1, {1}},
    {"2 rows of long lanes", {60, 2, 3000}, 0, 0, -1, {1}},
    // Lanes along dim 0 of the transposed view, whose outputs are 40 apart.
    {"3 rows, outputs out of the lanes' order", {3, 40, 300}, 0, 2, -1, {2}},
    // Positions of a slice: row * 64 + lane; rows along dim 0.
    {"lanes meeting in one output, rows 64 positions apart", {4, 50, 64}, 0, 0, -1, {0, 2}},
    {"a reversed short reduced dim", {900, 6, 24}, 0, 0, 1, {1}},
    {"a long contiguous range", {300001}, 0, 0, -1, {}},
    {"a long reversed range", {300001}, 0, 0, 0, {}},
    {"long runs of a column-major matrix", {300, 1500}, 0, 1, -1, {}},
};

host_tensor view_of(const host_tensor& x, const layout_case& c) {
  host_tensor v = c.swap_a != c.swap_b ? x.transposed(c.swap_a, c.swap_b) : x;
  return c.flip >= 0 ? v.flipped(c.flip) : v;
}

/// Makes every element of the view's first slice (output 0) a NaN, of either sign and
/// with its own payload, when the slices are short: under nan ignore its index is -1.
void nan_first_slice(host_tensor& x, const layout_case& c) {
  const host_tensor v = view_of(x, c);
  std::int64_t slice = 1;
  for (int d : c.dims) slice *= v.view.extents[d];
  if (c.dims.empty() || slice > 64) return;
  const std::int64_t esize = static_cast<std::int64_t>(argx::size_of(x.type()));
  std::vector<std::int64_t> at(v.rank(), 0);  // an odometer over the reduced dims, the kept ones at 0
  for (bool more = true; more;) {
    std::int64_t flat = v.data_offset() / esize;
    for (int d = 0; d < v.rank(); ++d) flat += at[d] * v.view.strides[d];
    set_flat(x, flat, nan_bits(x.type(), (flat & 1) != 0, static_cast<std::uint64_t>(flat)));
    more = false;
    for (int i = static_cast<int>(c.dims.size()) - 1; i >= 0 && !more; --i) {
      const int d = c.dims[i];
      if (++at[d] < v.view.extents[d]) more = true;
      else at[d] = 0;
    }
  }
}

/// Every op, NaN policy, tie rule and abs.
std::vector<std::pair<argx::op, argx::spec>> every_spec(const argx::dim_list& dims) {
  std::vector<std::pair<argx::op, argx::spec>> v;
  for (int m = 0; m < 16; ++m) {
    argx::spec s;
    s.dims = dims;
    s.nan = (m & 2) ? argx::nan_policy::ignore : argx::nan_policy::propagate;
    s.ties = (m & 4) ? argx::tie_break::last : argx::tie_break::first;
    s.abs = (m & 8) != 0;
    v.emplace_back((m & 1) ? argx::op::argmin : argx::op::argmax, s);
  }
  return v;
}

}  // namespace

TEST_CASE("narrow floats: short slices side by side and long ranges, every spec, against seq") {
  rng r(0x6e61'7272'6f77);
  for (dtype t : {dtype::f16, dtype::bf16}) {
    for (const layout_case& c : cases) {
      fill_profile f;
      // Long ranges: NaN rare enough that most blocks of a scan have none.
      f.nan_rate = c.dims.empty() ? 1e-5 : 0.03;
      f.pool_size = 4;
      f.tie_rate = 0.7;
      host_tensor x = random_tensor(r, t, c.extents, f);
      nan_first_slice(x, c);
      const host_tensor v = view_of(x, c);
      for (const auto& op_spec : every_spec(c.dims)) {
        // (not a structured binding: INFO captures them, which clang before 16 refuses)
        const argx::op o = op_spec.first;
        const argx::spec& s = op_spec.second;
        INFO(name_of(t), ": ", c.what, ": ", describe(v), "; ", describe(o, s));
        const outcome got = run(o, v, s);
        if (backend_under_test() == argx::backend::seq) continue;  // run() checked it against the reference
        const outcome want = reduce_on(argx::backend::seq, o, v, s);
        CHECK(got.indices == want.indices);
        CHECK(got.value_bits == want.value_bits);
      }
    }
  }
}
