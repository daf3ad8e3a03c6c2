// Reading one slab of a .npy file: elements [begin, end) along one dim, every other dim
// whole, without reading the rest of the file (for the ranks of a distributed reduction).
#pragma once

#include <cstdint>
#include <string>

#include "npy.hpp"

namespace argx::npy {

/// The header of the .npy file at `path` (checked against the file's size, as read() does).
header read_header(const std::string& path, const read_options& opt = {});

/// Elements [begin, end) along `dim` (negative counts from the end) of the .npy file at
/// `path`, as an array of the file's dtype and order whose extent along `dim` is
/// end - begin. Reads only those elements' bytes. bad_dim for a dim out of range,
/// bad_argument for a range outside the dim; otherwise the errors of read().
array read_slab(const std::string& path, int dim, std::int64_t begin, std::int64_t end, const read_options& opt = {});

}  // namespace argx::npy
