// An input .npy file: opened, checked to be a regular file, read at offsets or mapped whole.
// Shared by read() (the whole array) and read_slab() (one range of one dim).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "npy.hpp"

namespace argx::npy::detail {

/// A regular file opened for reading; io_failure for anything else (a FIFO, a directory, a
/// device), refused without waiting on it.
class input_file {
 public:
  explicit input_file(const std::string& path);
  input_file(const input_file&) = delete;
  input_file& operator=(const input_file&) = delete;
  ~input_file();

  int fd() const noexcept { return fd_; }
  std::uint64_t size() const noexcept { return size_; }
  const std::string& path() const noexcept { return path_; }

  /// Exactly n bytes at `offset` (io_failure if the file shrank).
  void read_at(unsigned char* dst, std::size_t n, std::uint64_t offset) const;

  /// The file's header, checked against its size; errors name the file.
  header read_header(const read_options& opt) const;

 private:
  [[noreturn]] void fail(const std::string& what) const;
  std::string path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
};

/// The whole file mapped read-only (MAP_PRIVATE), unmapped when the last owner goes; nullptr
/// when it cannot be mapped (the caller reads it instead).
std::shared_ptr<const void> map_file(const input_file& f);

}  // namespace argx::npy::detail
