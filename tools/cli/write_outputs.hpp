// Writing a reduction's outputs (argx reduce, alone or --distributed): the indices and,
// when asked, the values, replacing what was at their paths together or not at all.
#pragma once

#include <string>
#include <vector>

#include <argx/argx.hpp>

namespace argx::cli {

/// Writes the indices (elements of `index_type`, C order, shaped `extents`) to `indices_path`
/// and, when `values_path` is not empty, the values (of `value_type`) to it, with one
/// all-or-nothing npy::write.
void write_outputs(const shape& extents, const std::string& indices_path, const std::vector<unsigned char>& indices,
                   dtype index_type, const std::string& values_path, const std::vector<unsigned char>& values,
                   dtype value_type);

}  // namespace argx::cli
