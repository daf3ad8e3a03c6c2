// The shapes of the GPU tests: cases covering every shape class and kernel path of the cuda
// backend (sizes around the warp, team, block and split boundaries; sliced, flipped,
// transposed and broadcast views), and the names of those kernel paths.
#pragma once

#include <string>
#include <vector>

#include <argx/argx.hpp>

#include "host_tensor.hpp"
#include "random_tensor.hpp"

namespace argx_gpu_test {

struct shape_case {
  std::string name;
  argx::shape extents;
  argx::dim_list dims;
  // Applied to the contiguous tensor before reducing.
  enum class view {
    plain, slice_mid, skip_first, transpose01, flip_last, broadcast0, flip_first, step_last, broadcast_kept, flip_all,
    reverse_dims,  ///< every dim in reverse order (a transpose of all)
    flip_ends,     ///< the first and the last dim reversed
    transpose_1_last,  ///< dim 1 and the last swapped
    slice_mid_transposed  ///< every other index of dim 1, then the first and last dims swapped
  } how = view::plain;
};

/// A random tensor of dtype t shaped and viewed as c says.
argx_test::host_tensor make_case(argx_test::rng& r, argx::dtype t, const shape_case& c);

/// Every case, in a fixed order.
std::vector<shape_case> cases();

/// More than 2^19 elements.
bool is_large(const shape_case& c);

/// ARGX_GPU_TEST_QUICK=1 (for runs under compute-sanitizer): small cases, fewer variants.
bool quick();

/// Every kernel path of the cuda backend, as path_of names them.
const std::vector<std::string>& kernel_paths();

}  // namespace argx_gpu_test
