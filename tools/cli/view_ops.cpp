#include "view_ops.hpp"

#include <limits>

#include <argx/error.hpp>
#include <argx/detail/plan.hpp>

#include "options.hpp"

namespace argx::cli {

view_op parse_view_op(view_op::kind k, const std::string& opt, const std::string& value) {
  constexpr std::int64_t big = std::numeric_limits<std::int64_t>::max();
  constexpr std::int64_t least = std::numeric_limits<std::int64_t>::min();
  view_op op;
  op.what = k;
  switch (k) {
    case view_op::kind::transpose: {
      const auto p = split(opt, value, ',');
      if (p.size() != 2) throw usage_error(opt + ": expected A,B");
      op.dim = static_cast<int>(parse_int(opt, p[0], -max_rank, max_rank - 1));
      op.dim2 = static_cast<int>(parse_int(opt, p[1], -max_rank, max_rank - 1));
      break;
    }
    case view_op::kind::slice: {
      // numpy's x[START:STOP:STEP] along dim D: START, STOP and STEP may be omitted or negative.
      const auto p = split(opt, value, ':', true);
      if (p.size() != 3 && p.size() != 4) throw usage_error(opt + ": expected D:START:STOP[:STEP]");
      op.dim = static_cast<int>(parse_int(opt, p[0], -max_rank, max_rank - 1));
      op.step = p.size() == 4 && !p[3].empty() ? parse_int(opt, p[3], least, big) : 1;
      if (op.step == 0) throw usage_error(opt + ": STEP cannot be zero");
      // An omitted bound is the CPython convention: the far end in the step's direction.
      op.start = p[1].empty() ? (op.step > 0 ? 0 : big) : parse_int(opt, p[1], least, big);
      op.stop = p[2].empty() ? (op.step > 0 ? big : least) : parse_int(opt, p[2], least, big);
      break;
    }
    case view_op::kind::flip: op.dim = static_cast<int>(parse_int(opt, value, -max_rank, max_rank - 1)); break;
    case view_op::kind::broadcast: {
      const auto p = split(opt, value, ':');
      if (p.size() != 2) throw usage_error(opt + ": expected D:N");
      op.dim = static_cast<int>(parse_int(opt, p[0], -max_rank, max_rank - 1));
      op.count = parse_int(opt, p[1], 0, big);
      break;
    }
  }
  return op;
}

tensor_view apply_view(const tensor_view& v, const view_op& op) {
  switch (op.what) {
    case view_op::kind::transpose: return v.transposed(op.dim, op.dim2);
    case view_op::kind::slice: return v.sliced(op.dim, op.start, op.stop, op.step);
    case view_op::kind::flip: return v.flipped(op.dim);
    case view_op::kind::broadcast: {
      const int d = argx::detail::checked_dim(op.dim, v.rank(), "broadcast");
      if (v.extents[d] != 1)
        throw error(errc::bad_argument, "broadcast: dim " + std::to_string(op.dim) + " has extent " +
                                            std::to_string(v.extents[d]) + ", not 1");
      tensor_view out = v;
      out.extents[d] = op.count;
      out.strides[d] = 0;
      return out;
    }
  }
  return v;
}

tensor_view apply_view(tensor_view v, const std::vector<view_op>& ops) {
  for (const auto& op : ops) v = apply_view(v, op);
  return v;
}

std::vector<std::string> to_args(const view_op& op) {
  switch (op.what) {
    case view_op::kind::transpose: return {"--transpose", std::to_string(op.dim) + "," + std::to_string(op.dim2)};
    case view_op::kind::slice:
      return {"--slice", std::to_string(op.dim) + ":" + std::to_string(op.start) + ":" + std::to_string(op.stop) + ":" +
                             std::to_string(op.step)};
    case view_op::kind::flip: return {"--flip", std::to_string(op.dim)};
    case view_op::kind::broadcast: return {"--broadcast", std::to_string(op.dim) + ":" + std::to_string(op.count)};
  }
  return {};
}

}  // namespace argx::cli
