// Reader for the file tests/numpy/make_cases.py writes: arrays (raw C-order bytes) and
// queries with numpy's answers. The format is described in make_cases.py.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <argx/argx.hpp>

#include "host_tensor.hpp"

namespace argx_test {

/// One numpy call and its answer.
struct numpy_query {
  int array = 0;                       ///< id of the array it reads
  std::vector<std::string> view_ops;   ///< "swap:A:B", "flip:D", "slice:D:B:E:S", applied in order
  std::string func;                    ///< argmax, argmin, nanargmax or nanargmin
  bool all_axes = true;                ///< axis=None
  argx::dim_list axes;                 ///< otherwise these
  bool keepdims = false;
  std::string status;                  ///< ok, allnan (numpy raised; -1 marks all-NaN slices), empty (numpy raised)
  argx::shape extents;                 ///< shape of the answer
  std::vector<std::int64_t> answer;
};

struct numpy_cases {
  std::map<int, host_tensor> arrays;
  std::vector<numpy_query> queries;
};

/// Reads the whole file; throws std::runtime_error naming the problem on a malformed file.
numpy_cases read_numpy_cases(const std::string& path);

/// The array seen through a query's view ops.
host_tensor apply_view(const host_tensor& x, const std::vector<std::string>& ops);

}  // namespace argx_test
