#include "input_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "detail.hpp"

namespace argx::npy::detail {

// O_NONBLOCK: opening a FIFO must not wait for a writer before it can be refused.
input_file::input_file(const std::string& path) : path_(path) {
  fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd_ < 0) throw error(errc::io_failure, "cannot open " + path + ": " + std::strerror(errno));
  struct stat st;
  if (::fstat(fd_, &st) != 0) {
    const int err = errno;
    ::close(fd_);
    throw error(errc::io_failure, "cannot stat " + path + ": " + std::strerror(err));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd_);
    const char* what = S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO or pipe"
                       : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : "a special file";
    throw error(errc::io_failure, path + " is not a regular file (it is " + what + ")");
  }
  size_ = static_cast<std::uint64_t>(st.st_size);
}

input_file::~input_file() { ::close(fd_); }

void input_file::read_at(unsigned char* dst, std::size_t n, std::uint64_t offset) const {
  while (n > 0) {
    const ssize_t got = ::pread(fd_, dst, n, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) fail("cannot read " + path_);
    if (got == 0) throw error(errc::io_failure, "cannot read " + path_ + ": the file shrank while it was read");
    dst += got;
    n -= static_cast<std::size_t>(got);
    offset += static_cast<std::uint64_t>(got);
  }
}

// Preamble first (at most long_preamble bytes), then the dict it announces, whose length
// read_preamble has checked against the limit and the file size before it is read. Every
// error names the file.
header input_file::read_header(const read_options& opt) const {
  const origin from{path_};
  std::vector<unsigned char> head(size_ < long_preamble ? size_ : long_preamble);
  read_at(head.data(), head.size(), 0);
  const preamble pre = read_preamble(head, size_, opt, from);
  const std::size_t have = head.size();
  if (pre.header_bytes() > have) {
    head.resize(pre.header_bytes());
    read_at(head.data() + have, pre.header_bytes() - have, have);
  }
  return parse_header(pre, head, size_, opt, from);
}

void input_file::fail(const std::string& what) const {
  throw error(errc::io_failure, what + ": " + std::strerror(errno));
}

std::shared_ptr<const void> map_file(const input_file& f) {
  if (f.size() == 0) return nullptr;
  void* p = ::mmap(nullptr, f.size(), PROT_READ, MAP_PRIVATE, f.fd(), 0);
  if (p == MAP_FAILED) return nullptr;
  const std::size_t size = f.size();
  return std::shared_ptr<const void>(p, [size](const void* q) { ::munmap(const_cast<void*>(q), size); });
}

}  // namespace argx::npy::detail
