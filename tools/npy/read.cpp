// Reading .npy: preamble, header dict, size checks, then exactly the data the header
// describes. Sizes are checked against the real file size before anything is allocated.
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>

#include "detail.hpp"

namespace argx::npy {
namespace {

constexpr unsigned char magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
constexpr std::size_t short_preamble = 10;  // magic, version, 2-byte header length (1.0)
constexpr std::size_t long_preamble = 12;   // 4-byte header length (2.0, 3.0)

[[noreturn]] void bad(const std::string& what) { throw error(errc::bad_npy, what); }

std::string shape_string(const shape& s) {
  std::string out = "(";
  for (int i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

std::string hex_prefix(std::span<const unsigned char> b) {
  static const char hex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < b.size() && i < 6; ++i) {
    out += "\\x";
    out += hex[b[i] >> 4];
    out += hex[b[i] & 15];
  }
  return out;
}

}  // namespace

header parse_header(std::span<const unsigned char> file, std::uint64_t file_size, const read_options& opt) {
  if (file_size < short_preamble || file.size() < short_preamble)
    bad("file is " + std::to_string(file_size) + " bytes, too short for a .npy preamble");
  if (std::memcmp(file.data(), magic, sizeof magic) != 0)
    bad("not a .npy file: it starts with '" + hex_prefix(file) + "' instead of '\\x93NUMPY'");
  header h;
  h.major = file[6];
  h.minor = file[7];
  if (h.major < 1 || h.major > 3 || h.minor != 0)
    bad("unsupported .npy format version " + std::to_string(h.major) + "." + std::to_string(h.minor) +
        " (argx reads 1.0, 2.0 and 3.0)");
  const std::size_t preamble = h.major == 1 ? short_preamble : long_preamble;
  if (file_size < preamble || file.size() < preamble)
    bad("file is " + std::to_string(file_size) + " bytes, too short for a version " + std::to_string(h.major) +
        ".0 preamble");
  std::uint32_t header_len = file[8] | (std::uint32_t(file[9]) << 8);
  if (h.major > 1) header_len |= (std::uint32_t(file[10]) << 16) | (std::uint32_t(file[11]) << 24);
  if (header_len > opt.max_header_bytes)
    bad("header length " + std::to_string(header_len) + " exceeds the limit of " +
        std::to_string(opt.max_header_bytes) + " bytes");
  if (preamble + header_len > file_size)
    bad("file is truncated: the header needs " + std::to_string(preamble + header_len) + " bytes but the file has " +
        std::to_string(file_size));
  if (file.size() < preamble + header_len) throw error(errc::bad_argument, "parse_header: the header was not passed whole");

  const std::string_view text(reinterpret_cast<const char*>(file.data() + preamble), header_len);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 || c > 0x7e) && c != '\n' && c != '\r' && c != '\t')
      bad("header byte " + std::to_string(i) + " is " + detail::quoted(text.substr(i, 1)) +
          ", not printable ASCII");
  }
  detail::header_dict d = detail::parse_dict(text);
  const detail::descr_info info = detail::parse_descr(d.descr, opt);
  h.descr = d.descr;
  h.type = info.type;
  h.big_endian = info.big_endian;
  h.fortran_order = d.fortran_order;
  h.extents = d.extents;
  h.data_offset = preamble + header_len;

  // As numpy does, the extents other than 0 must multiply to a size that fits even when
  // a 0 makes the array empty: strides are products of those extents.
  std::uint64_t nonzero = 1, bytes_nonzero = 0;
  bool empty = false;
  for (auto e : h.extents) {
    empty |= e == 0;
    if (__builtin_mul_overflow(nonzero, static_cast<std::uint64_t>(e ? e : 1), &nonzero) || nonzero > INT64_MAX)
      bad("shape " + shape_string(h.extents) + " has more elements than fit in 64 bits");
  }
  if (__builtin_mul_overflow(nonzero, size_of(h.type), &bytes_nonzero) || bytes_nonzero > INT64_MAX)
    bad("shape " + shape_string(h.extents) + " of " + std::string(name(h.type)) + " has more bytes than fit in 64 bits");
  h.data_bytes = empty ? 0 : bytes_nonzero;
  const std::uint64_t available = file_size - h.data_offset;
  const std::string described = "shape " + shape_string(h.extents) + " of " + std::string(name(h.type));
  if (h.data_bytes > available)
    bad("file is truncated: " + described + " needs " + std::to_string(h.data_bytes) + " data bytes but the file has " +
        std::to_string(available) + " after the header");
  if (h.data_bytes < available)
    bad("file has " + std::to_string(available - h.data_bytes) + " bytes after the " + std::to_string(h.data_bytes) +
        " data bytes of " + described);
  return h;
}

namespace {

array make_array(const header& h) {
  array a;
  a.type = h.type;
  a.extents = h.extents;
  a.fortran_order = h.fortran_order;
  a.byte_swapped = h.big_endian;
  try {
    a.bytes.resize(h.data_bytes);
  } catch (const std::bad_alloc&) {
    throw error(errc::out_of_memory, "no memory for " + std::to_string(h.data_bytes) + " bytes of .npy data");
  }
  return a;
}

void to_host_order(array& a, const header& h) {
  if (h.big_endian) detail::swap_bytes(a.bytes.data(), h.data_bytes / size_of(h.type), size_of(h.type));
}

// An argx::error's message without the "argx: " prefix what() adds.
std::string message_of(const error& e) {
  const std::string w = e.what();
  return w.rfind("argx: ", 0) == 0 ? w.substr(6) : w;
}

struct file_closer {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

}  // namespace

array parse(std::span<const unsigned char> file, const read_options& opt) {
  const header h = parse_header(file, file.size(), opt);
  array a = make_array(h);
  if (h.data_bytes) std::memcpy(a.bytes.data(), file.data() + h.data_offset, h.data_bytes);
  to_host_order(a, h);
  return a;
}

array read(const std::string& path, const read_options& opt) {
  std::unique_ptr<std::FILE, file_closer> f(std::fopen(path.c_str(), "rb"));
  if (!f) throw error(errc::io_failure, "cannot open " + path + ": " + std::strerror(errno));
  struct stat st;
  if (fstat(fileno(f.get()), &st) != 0) throw error(errc::io_failure, "cannot stat " + path + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw error(errc::io_failure, path + " is not a regular file");
  const std::uint64_t size = static_cast<std::uint64_t>(st.st_size);

  auto read_exact = [&](unsigned char* dst, std::size_t n) {
    if (n && std::fread(dst, 1, n, f.get()) != n)
      throw error(errc::io_failure, "cannot read " + path + (std::ferror(f.get()) ? ": " + std::string(std::strerror(errno)) : ": file shrank while reading"));
  };
  // Preamble first (at most 12 bytes), then the header it announces: parse_header has
  // checked the announced length against the limit and the file size before it is read.
  std::vector<unsigned char> head(size < long_preamble ? size : long_preamble);
  read_exact(head.data(), head.size());
  header h;
  try {
    try {
      h = parse_header(head, size, opt);
    } catch (const error& e) {
      if (e.code() != errc::bad_argument) throw;  // anything but "header not passed whole"
      const std::size_t preamble = head[6] == 1 ? short_preamble : long_preamble;
      std::uint32_t header_len = head[8] | (std::uint32_t(head[9]) << 8);
      if (preamble == long_preamble) header_len |= (std::uint32_t(head[10]) << 16) | (std::uint32_t(head[11]) << 24);
      const std::size_t have = head.size();
      head.resize(preamble + header_len);
      if (head.size() > have) read_exact(head.data() + have, head.size() - have);
      h = parse_header(head, size, opt);
    }
  } catch (const error& e) {
    throw error(e.code(), path + ": " + message_of(e));
  }
  array a = make_array(h);
  const std::size_t already = head.size() - h.data_offset;  // data bytes read with the header
  if (already) std::memcpy(a.bytes.data(), head.data() + h.data_offset, already);
  read_exact(a.bytes.data() + already, h.data_bytes - already);
  to_host_order(a, h);
  return a;
}

std::int64_t array::count() const noexcept {
  std::int64_t n = 1;
  for (auto e : extents) n *= e;
  return n;
}

tensor_view array::view() const {
  shape strides = contiguous_strides(extents);
  if (fortran_order) {
    std::int64_t step = 1;
    for (int i = 0; i < extents.size(); ++i) {
      strides[i] = step;
      step *= extents[i] > 0 ? extents[i] : 1;
    }
  }
  return make_view(bytes.empty() ? nullptr : bytes.data(), type, extents, strides);
}

}  // namespace argx::npy
