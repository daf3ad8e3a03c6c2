#include "write_outputs.hpp"

#include "npy.hpp"

namespace argx::cli {

void write_outputs(const shape& extents, const std::string& indices_path, const std::vector<unsigned char>& indices,
                   dtype index_type, const std::string& values_path, const std::vector<unsigned char>& values,
                   dtype value_type) {
  const shape strides = contiguous_strides(extents);
  auto view_of = [&](const std::vector<unsigned char>& bytes, dtype t) {
    return make_view(bytes.empty() ? nullptr : bytes.data(), t, extents, strides);
  };
  std::vector<npy::output_file> files = {{indices_path, view_of(indices, index_type)}};
  if (!values_path.empty()) files.push_back({values_path, view_of(values, value_type)});
  npy::write(files);
}

}  // namespace argx::cli
