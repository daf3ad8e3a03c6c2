// View transforms applied to an input before reducing it, so that strided, reversed,
// sliced and broadcast layouts can be exercised (and reproduced) from a plain .npy file:
//   --transpose A,B        swap dims A and B
//   --slice D:START:STOP[:STEP]   numpy's x[START:STOP:STEP] along dim D
//   --flip D               reverse dim D (negative stride)
//   --broadcast D:N        dim D (extent 1) repeated N times (stride 0)
// None of them copies data.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <argx/tensor_view.hpp>

namespace argx::cli {

struct view_op {
  enum class kind { transpose, slice, flip, broadcast } what = kind::flip;
  int dim = 0, dim2 = 0;  ///< transpose: dim, dim2
  std::int64_t start = 0, stop = 0, step = 1;  ///< slice (numpy semantics, see tensor_view::sliced)
  std::int64_t count = 0;  ///< broadcast: the new extent
};

/// Parses the value of --transpose / --slice / --flip / --broadcast (usage_error when malformed).
view_op parse_view_op(view_op::kind k, const std::string& opt, const std::string& value);
/// The op applied to `v` (argx::error when it does not fit v's shape).
tensor_view apply_view(const tensor_view& v, const view_op& op);
/// All ops in order.
tensor_view apply_view(tensor_view v, const std::vector<view_op>& ops);
/// The command-line words that give this op ("--slice", "1:0:7:2").
std::vector<std::string> to_args(const view_op& op);

}  // namespace argx::cli
