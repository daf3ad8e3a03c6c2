// numpy as an outside oracle: argx on every available backend must give numpy's exact
// indices for np.argmax, np.argmin, np.nanargmax and np.nanargmin (make_cases.py writes
// the cases). Where numpy raises, argx must raise empty_reduction (empty reductions) or
// report -1 (all-NaN slices under nan=ignore). Where numpy's nanargmin/nanargmax return
// a NaN's index (they replace NaN by +inf/-inf, which then ties with a real infinity),
// make_cases.py records argx's rule instead: NaN never wins. The path to the cases file
// comes from the environment (ARGX_NUMPY_CASES); without it the test is skipped (77).
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <set>

#include "case_file.hpp"
#include "harness.hpp"

using namespace argx_test;

namespace {

const numpy_cases* cases = nullptr;

argx::spec spec_for(const numpy_query& q) {
  argx::spec s;
  if (!q.all_axes) s.dims = q.axes;
  s.keepdim = q.keepdims;
  s.nan = q.func.rfind("nan", 0) == 0 ? argx::nan_policy::ignore : argx::nan_policy::propagate;
  return s;
}
argx::op op_for(const numpy_query& q) {
  return q.func.find("max") != std::string::npos ? argx::op::argmax : argx::op::argmin;
}

std::string describe_query(const numpy_query& q, const host_tensor& x) {
  std::string axes = "None";
  if (!q.all_axes) {
    axes.clear();
    for (int d : q.axes) axes += (axes.empty() ? "" : ",") + std::to_string(d);
  }
  return "np." + q.func + " on " + describe(x) + " axis " + axes + (q.keepdims ? " keepdims" : "") + " (numpy: " +
         q.status + ")";
}

std::string first_difference(const numpy_query& q, const outcome& r) {
  if (to_string(r.extents) != to_string(q.extents))
    return "shape " + to_string(r.extents) + ", numpy says " + to_string(q.extents);
  for (std::size_t i = 0; i < q.answer.size(); ++i)
    if (r.indices.at(i) != q.answer[i])
      return "output " + std::to_string(i) + ": index " + std::to_string(r.indices[i]) + ", numpy says " +
             std::to_string(q.answer[i]);
  return {};
}

}  // namespace

TEST_CASE("numpy: the cases cover every dtype, empty reductions and all-NaN slices") {
  REQUIRE(cases != nullptr);
  std::set<argx::dtype> dtypes;
  for (const auto& [id, x] : cases->arrays) dtypes.insert(x.type());
  CHECK(dtypes.size() == 12);  // every argx dtype but bfloat16, which numpy lacks
  std::set<std::string> statuses, funcs;
  for (const auto& q : cases->queries) {
    statuses.insert(q.status);
    funcs.insert(q.func);
  }
  // naninf: numpy's nanarg* returned a NaN's index (it treats NaN as ±inf); the case
  // holds the first infinity instead, because NaN never wins under nan=ignore.
  CHECK(statuses == std::set<std::string>{"ok", "allnan", "empty", "naninf"});
  CHECK(funcs == std::set<std::string>{"argmax", "argmin", "nanargmax", "nanargmin"});
  CHECK(cases->queries.size() > 10000);
}

TEST_CASE("numpy: argx gives numpy's answers on every available backend") {
  REQUIRE(cases != nullptr);
  for (argx::backend b : argx::all_backends) {
    if (b == argx::backend::automatic || !argx::available(b)) continue;
    const std::string who(argx::name(b));
    std::size_t checked = 0;
    for (const auto& q : cases->queries) {
      const host_tensor x = apply_view(cases->arrays.at(q.array), q.view_ops);
      const argx::spec s = spec_for(q);
      const argx::op o = op_for(q);
      INFO(who, ": ", describe_query(q, x));
      if (q.status == "empty") {
        CHECK(error_of([&] { (void)reduce_on(b, o, x, s); }) == "empty_reduction");
      } else {
        const outcome r = reduce_on(b, o, x, s);
        const std::string diff = first_difference(q, r);
        CHECK_MESSAGE(diff.empty(), diff);
        check_against_reference(o, x, s, r, who);
      }
      ++checked;
    }
    MESSAGE(who, ": ", checked, " numpy answers checked");
  }
}

int main(int argc, char** argv) {
  const char* path = std::getenv("ARGX_NUMPY_CASES");
  if (!path || !*path) {
    std::printf("ARGX_NUMPY_CASES is not set (no python3 with numpy at configure time): skipped\n");
    return 77;
  }
  const numpy_cases loaded = read_numpy_cases(path);
  cases = &loaded;
  doctest::Context ctx(argc, argv);
  return ctx.run();
}
