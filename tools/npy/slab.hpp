// Reading one slab of a .npy file: elements [begin, end) along one dim, every other dim
// whole, without reading the rest of the file (for the ranks of a distributed reduction).
#pragma once

#include <cstdint>
#include <string>

#include "npy.hpp"

namespace argx::npy {

/// Elements [begin, end) along `dim` (negative counts from the end) of the .npy file at
/// `path`, as an array of the file's dtype and order whose extent along `dim` is
/// end - begin. A slab that is one run of the file's little-endian elements (the slowest
/// dim in storage order, or the whole dim) is the file's own mapped pages, as read() gives;
/// any other slab is copied, and only its own pages are touched. bad_dim for a dim out of
/// range, bad_argument for a range outside the dim; otherwise the errors of read().
array read_slab(const std::string& path, int dim, std::int64_t begin, std::int64_t end, const read_options& opt = {});

}  // namespace argx::npy
