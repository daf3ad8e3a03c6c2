// What to compute: which dims to reduce and how to order the elements.
#pragma once

#include "config.hpp"  // first: the C++20 check

#include <cstdint>

#include "bounded_vector.hpp"

namespace argx {

/// argmax: the largest element wins; argmin: the smallest.
enum class op : std::uint8_t { argmax, argmin };
/// propagate (numpy argmax, torch): NaN beats every number, the first NaN wins.
/// ignore (numpy nanargmax): NaN never wins; an all-NaN slice reports index -1.
enum class nan_policy : std::uint8_t { propagate, ignore };
/// Which of several equal elements wins: the lowest position (numpy, torch) or the highest.
enum class tie_break : std::uint8_t { first, last };
/// Element type of the index output.
enum class index_type : std::uint8_t { int64, int32 };

/// Dims to reduce; negative dims count from the end. Empty means all dims.
using dim_list = bounded_vector<int, max_rank>;

/// Options of one reduction. Designated initializers name any subset, in this order:
/// `{.dims = {1}, .keepdim = true, .nan = argx::nan_policy::ignore}`.
struct spec {
  dim_list dims{};                        ///< reduced dims (empty: all, flat index)
  bool keepdim = false;                   ///< reduced dims stay in the output with extent 1
  nan_policy nan = nan_policy::propagate; ///< what NaN does
  tie_break ties = tie_break::first;      ///< which equal element wins
  bool abs = false;                       ///< compare |x| (the element itself is returned)
  index_type index = index_type::int64;   ///< index output type
};

}  // namespace argx
