// Every way the column kernel reads rows, forced on the same shapes whatever the launch
// choice would pick (the choice sends shuffled reads only to long walks of wide outer rows,
// which are too large for a test): aligned (where rows are), shifted and shuffled reads on
// narrow and wide outer rows, warps whose groups end inside or at an outer row's end, rows
// split across blocks, two reduced axes, rows starting at every alignment, the tensor's
// first and last bytes; every dtype against seq, bit for bit.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "../../backends/cuda/launch.hpp"
#include "cases.hpp"
#include "compare.hpp"

using namespace argx_test;
using namespace argx_gpu_test;
using argx::detail::gpu::column_read;

TEST_CASE("column reads: aligned, shifted and shuffled reads match seq on every shape and dtype") {
  using v = shape_case::view;
  const std::vector<shape_case> shapes = {
      {"one wide outer row", {300, 1001}, {0}},
      {"outer rows of 33 groups or so (a warp and a bit)", {7, 40, 129}, {1}},
      {"narrow outer rows", {50, 60, 37}, {1}},
      {"many outer rows, three rows", {800, 3, 201}, {1}},
      {"rows past the first element", {64, 1003}, {0}, v::skip_first},
      {"reversed columns", {100, 515}, {0}, v::flip_last},
      {"two reduced axes of a sliced view", {12, 9, 1001}, {0, 1}, v::slice_mid},
      {"rows split across blocks", {2000, 250}, {0}},
      {"columns of a transposed matrix", {300, 200}, {1}, v::transpose01},
      {"aligned rows", {64, 1024}, {0}},
      // walks of virtual columns (inputs of at least 1 MiB: windows of 2- to 8-byte types,
      // folds of 2-byte ones)
      {"windows of 5 read as columns", {600, 200, 5}, {0, 2}},
      {"columns of two elements, rows folded", {300007, 2}, {0}},
  };
  rng r(20261126);
  std::set<std::string> paths;
  for (column_read read : {column_read::aligned, column_read::shifted, column_read::shuffled}) {
    const argx::detail::gpu::column_read_forced forced(read);
    for (std::size_t ci = 0; ci < shapes.size(); ++ci) {
      const shape_case& c = shapes[ci];
      for (std::size_t ti = 0; ti < all_dtypes().size(); ++ti) {
        if (quick() && ti % 3 != ci % 3) continue;
        const argx::dtype t = all_dtypes()[ti];
        INFO("read ", to_string(read), ", case: ", c.name, ", dtype ", argx::name(t));
        const host_tensor x = make_case(r, t, c);
        require_two_variants_same_as_seq(x, c.dims, static_cast<int>((ci * 5 + ti) % 16), false, paths);
      }
    }
  }
  MESSAGE("column paths taken: ", listed(paths));
  if (quick()) return;
  for (const char* want : {"columns shuffled", "columns shuffled packed", "columns shuffled atomic",
                           "columns shuffled packed atomic", "columns shuffled partials", "columns shifted",
                           "columns shifted packed atomic", "columns aligned atomic"})
    CHECK_MESSAGE(paths.count(want) == 1, "column path not exercised: ", std::string(want));
}
