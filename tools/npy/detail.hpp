// Internals of the .npy reader and writer shared between its files.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "npy.hpp"

namespace argx::npy::detail {

constexpr std::size_t short_preamble = 10;  ///< magic, version, 2-byte header length (1.0)
constexpr std::size_t long_preamble = 12;   ///< 4-byte header length (2.0, 3.0)

/// Whose bytes a parse reads, for its errors: a file's path ("x.npy: file is truncated ...")
/// or none (bytes in memory).
struct origin {
  std::string_view path;
  /// The error to throw: `what`, after the path when there is one.
  error fail(errc code, const std::string& what) const {
    return error(code, path.empty() ? what : std::string(path) + ": " + what);
  }
};

/// What a .npy preamble says: the format version and where the header dict lies.
struct preamble {
  int major = 1, minor = 0;
  std::size_t dict_offset = 0;  ///< the preamble's own bytes: magic, version, header length
  std::size_t dict_bytes = 0;   ///< the header dict's length
  /// Bytes of preamble and dict together: what must be read before the dict is parsed.
  std::size_t header_bytes() const { return dict_offset + dict_bytes; }
};

/// Checks the preamble at the start of `prefix` (magic, version, header length against the
/// limit and `file_size`).
preamble read_preamble(std::span<const unsigned char> prefix, std::uint64_t file_size, const read_options& opt,
                       const origin& from);

/// The header of a file whose preamble is `pre`: the dict parsed from `file` (at least its
/// first pre.header_bytes() bytes) and the data size checked against `file_size`.
header parse_header(const preamble& pre, std::span<const unsigned char> file, std::uint64_t file_size,
                    const read_options& opt, const origin& from);

/// What a .npy header dict says, before it is checked against argx's limits.
struct header_dict {
  std::string descr;
  bool fortran_order = false;
  shape extents;
};

/// Parses the Python-literal dict of a .npy header:
/// {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), } followed by whitespace.
header_dict parse_dict(std::string_view text, const origin& from);

/// A descr's dtype and byte order.
struct descr_info {
  argx::dtype type;
  bool big_endian;
};
/// Maps a descr to an argx dtype; bad_npy for a string that is no dtype at all,
/// unsupported_dtype for a real numpy dtype that argx does not reduce.
descr_info parse_descr(std::string_view descr, const read_options& opt, const origin& from);

/// An array of the header's dtype, extents and order, without elements yet.
array array_of(const header& h);

/// A zeroed heap buffer of `size` bytes (out_of_memory when it cannot be had).
std::vector<unsigned char> heap_buffer(std::uint64_t size);

/// Converts elements read from a file of header `h` to host byte order, in place.
void to_host_order(std::vector<unsigned char>& bytes, const header& h);

/// Reverses the bytes of each `elem_size`-byte element in place.
void swap_bytes(unsigned char* data, std::uint64_t count, std::size_t elem_size);

/// Quotes a string for an error message, escaping anything unprintable.
std::string quoted(std::string_view s);

}  // namespace argx::npy::detail
