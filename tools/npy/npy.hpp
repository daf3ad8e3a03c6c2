// Reading and writing NumPy .npy files (format versions 1.0, 2.0 and 3.0).
//
//   argx::npy::array a = argx::npy::read("x.npy");
//   auto r = argx::argmax(argx::seq, a.view());
//   argx::npy::write("idx.npy", argx::make_view(r.indices.data(), r.extents));
//
// Every malformed, truncated or inconsistent file is an argx::error with code bad_npy
// (never a crash, never an allocation larger than the file); a file that cannot be
// opened, read or written, or is not a regular file (a FIFO, a directory), is io_failure;
// a well-formed file of a dtype argx cannot reduce (complex, datetime64, object, strings,
// ...) is unsupported_dtype, naming numpy's dtype.
//
// Reading maps the file read-only instead of copying it: the elements stay in the page
// cache, so a file larger than memory can be reduced. Writing is all or nothing: a file
// is written beside its target and renamed into place only when complete.
//
// bfloat16 (numpy has no such type): argx writes it with descr 'bfloat16', the name
// ml_dtypes gives it, and reads that descr back. np.save of an ml_dtypes bfloat16 array
// writes '<V2' (raw 2-byte records), which could be anything; read_options::bf16 declares
// that such data (and '<u2' data) holds bfloat16.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
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

/// The elements of an array, read-only: the file's pages mapped into memory, or a buffer
/// on the heap. Copies share the same bytes.
class element_bytes {
 public:
  element_bytes() = default;
  /// Takes a heap buffer.
  explicit element_bytes(std::vector<unsigned char> heap);
  /// Bytes kept alive by `owner` (e.g. a mapping that is unmapped when the last copy goes).
  element_bytes(std::shared_ptr<const void> owner, const unsigned char* data, std::size_t size, bool mapped) noexcept;

  const unsigned char* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  const unsigned char* begin() const noexcept { return data_; }
  const unsigned char* end() const noexcept { return data_ + size_; }
  unsigned char operator[](std::size_t i) const noexcept { return data_[i]; }
  /// True when the bytes are the file's own pages (mapped), false for a heap copy.
  bool mapped() const noexcept { return mapped_; }

  friend bool operator==(const element_bytes& a, const element_bytes& b) noexcept;

 private:
  std::shared_ptr<const void> owner_;
  const unsigned char* data_ = nullptr;
  std::size_t size_ = 0;
  bool mapped_ = false;
};

/// A .npy array, elements in host byte order.
struct array {
  argx::dtype type = dtype::f32;
  shape extents;
  bool fortran_order = false;  ///< elements are column-major; view() has Fortran strides
  bool byte_swapped = false;   ///< the file was big-endian and was converted (into a heap copy)
  element_bytes bytes;         ///< the elements, in file order

  /// Number of elements.
  std::int64_t count() const noexcept;
  /// A view of the elements: C strides, or Fortran strides for a column-major file (no copy).
  tensor_view view() const;
};

/// Strides (in elements) of a dense array of these extents: row-major, or column-major.
shape strides_of(const shape& extents, bool fortran_order);

/// Parses the magic, version, header length and header dict at the start of `file`
/// (which may be only a prefix of the file, at least 12 bytes) and checks the data size
/// against `file_size`, the size of the whole file.
header parse_header(std::span<const unsigned char> file, std::uint64_t file_size, const read_options& opt = {});

/// Parses a whole .npy file held in memory.
array parse(std::span<const unsigned char> file, const read_options& opt = {});

/// Reads a .npy file: the header is parsed and checked, then the elements are mapped
/// read-only (MAP_PRIVATE). Big-endian files, files whose data is not aligned to the
/// element size and files that cannot be mapped are read into a heap buffer instead.
array read(const std::string& path, const read_options& opt = {});

/// Reads and checks only the header of a .npy file (nothing of the data is read), so that
/// a request can be checked against its shape before the data is touched.
header read_header(const std::string& path, const read_options& opt = {});

/// How to write.
struct write_options {
  bool fortran_order = false;  ///< store column-major (the view is gathered in that order)
  bool big_endian = false;     ///< store most significant byte first ('>' descr)
  int version = 0;             ///< 1, 2 or 3; 0 = the lowest version that fits the header
};

/// The .npy bytes of `x` (a host view with any strides; gathered in C or Fortran order).
std::vector<unsigned char> serialize(const tensor_view& x, const write_options& opt = {});

/// One .npy file to write.
struct output_file {
  std::string path;
  tensor_view x;
  write_options opt{};
};

/// Writes every array to its path, all or nothing. Each file is written in full to a new
/// temporary file in its target's directory and flushed to disk; only when all are complete
/// are they renamed into place. On any failure (a full disk, a write error) the temporary
/// files are removed and every path keeps what it held. A symbolic link is written through
/// (its target is replaced; permissions of a replaced file are kept); a path that is a device
/// or a FIFO (/dev/null, /dev/stdout) is written directly. Two paths that name the same file
/// are refused (bad_argument) before anything is written.
void write(std::span<const output_file> files);

/// Writes `x` to `path` as a .npy file (write() of one file).
void write(const std::string& path, const tensor_view& x, const write_options& opt = {});

/// The file a write to `path` replaces: its absolute path with symbolic links and the
/// directory resolved, or "" for a device or FIFO (written in place). io_failure when
/// `path` cannot be written there (a missing directory, a directory, a link loop).
std::string destination(const std::string& path);

/// The descr argx writes for a dtype ('<f4', '|b1', 'bfloat16', ...).
std::string descr_of(argx::dtype t, bool big_endian = false);

}  // namespace argx::npy
