// The file is mapped read-only: the header is parsed from the mapping, and only the pages
// holding the slab are touched (read) when it is copied out.
#include "slab.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>
#include <span>

#include "detail.hpp"

namespace argx::npy {
namespace {

// A read-only mapping of a whole regular file.
class mapped_file {
 public:
  explicit mapped_file(const std::string& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw error(errc::io_failure, "cannot open " + path + ": " + std::strerror(errno));
    struct stat st;
    if (::fstat(fd_, &st) != 0) fail("cannot stat " + path + ": " + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) fail(path + " is not a regular file");
    size_ = static_cast<std::uint64_t>(st.st_size);
    if (size_ == 0) return;
    void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd_, 0);
    if (p == MAP_FAILED) fail("cannot map " + path + ": " + std::strerror(errno));
    data_ = static_cast<const unsigned char*>(p);
  }
  ~mapped_file() {
    if (data_) ::munmap(const_cast<unsigned char*>(data_), size_);
    if (fd_ >= 0) ::close(fd_);
  }
  mapped_file(const mapped_file&) = delete;
  mapped_file& operator=(const mapped_file&) = delete;

  std::span<const unsigned char> bytes() const { return {data_, static_cast<std::size_t>(size_)}; }
  std::uint64_t size() const { return size_; }

  header parse(const read_options& opt) const {
    try {
      return parse_header(bytes(), size_, opt);
    } catch (const error& e) {
      const std::string w = e.what();
      throw error(e.code(), path_ + ": " + (w.rfind("argx: ", 0) == 0 ? w.substr(6) : w));
    }
  }

 private:
  [[noreturn]] void fail(const std::string& message) {
    ::close(fd_);
    fd_ = -1;
    throw error(errc::io_failure, message);
  }
  std::string path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
  const unsigned char* data_ = nullptr;
};

}  // namespace

header read_header(const std::string& path, const read_options& opt) { return mapped_file(path).parse(opt); }

array read_slab(const std::string& path, int dim, std::int64_t begin, std::int64_t end, const read_options& opt) {
  const mapped_file file(path);
  const header h = file.parse(opt);
  const int rank = h.extents.size();
  if (dim < -rank || dim >= rank)
    throw error(errc::bad_dim,
                "dim " + std::to_string(dim) + " is out of range for " + path + " of rank " + std::to_string(rank));
  const int d = dim < 0 ? dim + rank : dim;
  const std::int64_t n = h.extents[d];
  if (begin < 0 || end < begin || end > n)
    throw error(errc::bad_argument, "slab [" + std::to_string(begin) + ", " + std::to_string(end) + ") of dim " +
                                        std::to_string(d) + " lies outside its extent " + std::to_string(n));
  array a;
  a.type = h.type;
  a.extents = h.extents;
  a.extents[d] = end - begin;
  a.fortran_order = h.fortran_order;
  a.byte_swapped = h.big_endian;
  // In storage order the dims run slowest to fastest: row-major as written, or reversed
  // for a Fortran-order file. The slab is then `outer` runs of (end - begin) * inner elements.
  std::int64_t outer = 1, inner = 1;
  for (int i = 0; i < rank; ++i) {
    const bool slower = h.fortran_order ? i > d : i < d;
    if (i != d) (slower ? outer : inner) *= h.extents[i];
  }
  const std::size_t elem = size_of(h.type);
  const std::uint64_t run = static_cast<std::uint64_t>((end - begin) * inner) * elem;
  const std::uint64_t total = run * static_cast<std::uint64_t>(outer);
  try {
    a.bytes.resize(static_cast<std::size_t>(total));
  } catch (const std::bad_alloc&) {
    throw error(errc::out_of_memory, "no memory for a slab of " + std::to_string(total) + " bytes of " + path);
  }
  if (run == 0) return a;
  const unsigned char* data = file.bytes().data() + h.data_offset;
  for (std::int64_t o = 0; o < outer; ++o)
    std::memcpy(a.bytes.data() + o * run, data + static_cast<std::uint64_t>((o * n + begin) * inner) * elem, run);
  if (h.big_endian) detail::swap_bytes(a.bytes.data(), a.bytes.size() / elem, elem);
  return a;
}

}  // namespace argx::npy
