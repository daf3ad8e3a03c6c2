// Reading and writing NumPy .npy files (format versions 1.0, 2.0 and 3.0).
//
//   argx::npy::array a = argx::npy::read("x.npy");
//   auto r = argx::argmax(argx::seq, a.view());
//   argx::npy::write("idx.npy", argx::make_view(r.indices.data(), r.extents));
//
// Every malformed, truncated or inconsistent file is an argx::error with code bad_npy
// (never a crash, never an allocation larger than the file); a file that cannot be
// opened, read or written is io_failure; a well-formed file of a dtype argx cannot reduce
// (complex, structured, strings, ...) is unsupported_dtype.
//
// bfloat16 (numpy has no such type): argx writes it with descr 'bfloat16', the name
// ml_dtypes gives it, and reads that descr back. np.save of an ml_dtypes bfloat16 array
// writes '<V2' (raw 2-byte records), which could be anything; read_options::bf16 declares
// that such data (and '<u2' data) holds bfloat16.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <argx/dtype.hpp>
#include <argx/error.hpp>
#include <argx/tensor_view.hpp>

namespace argx::npy {

/// How strictly and how to read.
struct read_options {
  /// Read 2-byte raw data ('<V2', '|V2') and '<u2' data as bfloat16.
  bool bf16 = false;
  /// Longest header dict accepted, in bytes (a legitimate header for rank <= 16 is far
  /// shorter; this bounds what a lying header length can make the reader allocate).
  std::uint32_t max_header_bytes = 65536;
};

/// The parsed header of a .npy file.
struct header {
  int major = 1, minor = 0;     ///< format version
  std::string descr;            ///< the dtype descriptor as written ('<f4', 'bfloat16', ...)
  argx::dtype type = dtype::f32;
  bool big_endian = false;      ///< elements are stored most significant byte first
  bool fortran_order = false;   ///< elements are stored column-major
  shape extents;
  std::size_t data_offset = 0;  ///< bytes from the start of the file to the first element
  std::uint64_t data_bytes = 0; ///< element count * element size
};

/// A .npy array in memory, elements in host byte order.
struct array {
  argx::dtype type = dtype::f32;
  shape extents;
  bool fortran_order = false;       ///< elements are column-major; view() has Fortran strides
  bool byte_swapped = false;        ///< the file was big-endian and was converted
  std::vector<unsigned char> bytes; ///< the elements, in file order

  /// Number of elements.
  std::int64_t count() const noexcept;
  /// A view of the elements: C strides, or Fortran strides for a column-major file (no copy).
  tensor_view view() const;
};

/// Parses the magic, version, header length and header dict at the start of `file`
/// (which may be only a prefix of the file, at least 12 bytes) and checks the data size
/// against `file_size`, the size of the whole file.
header parse_header(std::span<const unsigned char> file, std::uint64_t file_size, const read_options& opt = {});

/// Parses a whole .npy file held in memory.
array parse(std::span<const unsigned char> file, const read_options& opt = {});

/// Reads a .npy file.
array read(const std::string& path, const read_options& opt = {});

/// How to write.
struct write_options {
  bool fortran_order = false;  ///< store column-major (the view is gathered in that order)
  bool big_endian = false;     ///< store most significant byte first ('>' descr)
  int version = 0;             ///< 1, 2 or 3; 0 = the lowest version that fits the header
};

/// The .npy bytes of `x` (a host view with any strides; gathered in C or Fortran order).
std::vector<unsigned char> serialize(const tensor_view& x, const write_options& opt = {});

/// Writes `x` to `path` as a .npy file.
void write(const std::string& path, const tensor_view& x, const write_options& opt = {});

/// The descr argx writes for a dtype ('<f4', '|b1', 'bfloat16', ...).
std::string descr_of(argx::dtype t, bool big_endian = false);

}  // namespace argx::npy
