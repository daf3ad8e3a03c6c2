// Reading .npy: preamble, header dict, size checks, then exactly the data the header
// describes, mapped read-only (or read into the heap where it cannot be used in place).
// Sizes are checked against the real file size before anything is allocated or mapped.
#include <cstring>
#include <memory>

#include "detail.hpp"
#include "input_file.hpp"

namespace argx::npy {
namespace {

constexpr unsigned char magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
using detail::long_preamble;
using detail::short_preamble;

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

namespace detail {

preamble read_preamble(std::span<const unsigned char> file, std::uint64_t file_size, const read_options& opt,
                       const origin& from) {
  auto bad = [&](const std::string& what) { return from.fail(errc::bad_npy, what); };
  if (file_size < short_preamble || file.size() < short_preamble)
    throw bad("file is " + std::to_string(file_size) + " bytes, too short for a .npy preamble");
  if (std::memcmp(file.data(), magic, sizeof magic) != 0)
    throw bad("not a .npy file: it starts with '" + hex_prefix(file) + "' instead of '\\x93NUMPY'");
  preamble pre;
  pre.major = file[6];
  pre.minor = file[7];
  if (pre.major < 1 || pre.major > 3 || pre.minor != 0)
    throw bad("unsupported .npy format version " + std::to_string(pre.major) + "." + std::to_string(pre.minor) +
              " (argx reads 1.0, 2.0 and 3.0)");
  pre.dict_offset = pre.major == 1 ? short_preamble : long_preamble;
  if (file_size < pre.dict_offset || file.size() < pre.dict_offset)
    throw bad("file is " + std::to_string(file_size) + " bytes, too short for a version " + std::to_string(pre.major) +
              ".0 preamble");
  std::uint32_t header_len = file[8] | (std::uint32_t(file[9]) << 8);
  if (pre.major > 1) header_len |= (std::uint32_t(file[10]) << 16) | (std::uint32_t(file[11]) << 24);
  if (header_len > opt.max_header_bytes)
    throw bad("header length " + std::to_string(header_len) + " exceeds the limit of " +
              std::to_string(opt.max_header_bytes) + " bytes");
  pre.dict_bytes = header_len;
  if (pre.header_bytes() > file_size)
    throw bad("file is truncated: the header needs " + std::to_string(pre.header_bytes()) +
              " bytes but the file has " + std::to_string(file_size));
  return pre;
}

header parse_header(const preamble& pre, std::span<const unsigned char> file, std::uint64_t file_size,
                    const read_options& opt, const origin& from) {
  auto bad = [&](const std::string& what) { return from.fail(errc::bad_npy, what); };
  header h;
  h.major = pre.major;
  h.minor = pre.minor;
  const std::string_view text(reinterpret_cast<const char*>(file.data() + pre.dict_offset), pre.dict_bytes);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 || c > 0x7e) && c != '\n' && c != '\r' && c != '\t')
      throw bad("header byte " + std::to_string(i) + " is " + quoted(text.substr(i, 1)) + ", not printable ASCII");
  }
  header_dict d = parse_dict(text, from);
  const descr_info info = parse_descr(d.descr, opt, from);
  h.descr = d.descr;
  h.type = info.type;
  h.big_endian = info.big_endian;
  h.fortran_order = d.fortran_order;
  h.extents = d.extents;
  h.data_offset = pre.header_bytes();

  // As numpy does, the extents other than 0 must multiply to a size that fits even when
  // a 0 makes the array empty: strides are products of those extents.
  std::uint64_t nonzero = 1, bytes_nonzero = 0;
  bool empty = false;
  for (auto e : h.extents) {
    empty |= e == 0;
    if (__builtin_mul_overflow(nonzero, static_cast<std::uint64_t>(e ? e : 1), &nonzero) || nonzero > INT64_MAX)
      throw bad("shape " + shape_string(h.extents) + " has more elements than fit in 64 bits");
  }
  if (__builtin_mul_overflow(nonzero, size_of(h.type), &bytes_nonzero) || bytes_nonzero > INT64_MAX)
    throw bad("shape " + shape_string(h.extents) + " of " + std::string(name(h.type)) +
              " has more bytes than fit in 64 bits");
  h.data_bytes = empty ? 0 : bytes_nonzero;
  const std::uint64_t available = file_size - h.data_offset;
  const std::string described = "shape " + shape_string(h.extents) + " of " + std::string(name(h.type));
  if (h.data_bytes > available)
    throw bad("file is truncated: " + described + " needs " + std::to_string(h.data_bytes) +
              " data bytes but the file has " + std::to_string(available) + " after the header");
  if (h.data_bytes < available)
    throw bad("file has " + std::to_string(available - h.data_bytes) + " bytes after the " +
              std::to_string(h.data_bytes) + " data bytes of " + described);
  return h;
}

}  // namespace detail

header parse_header(std::span<const unsigned char> file, std::uint64_t file_size, const read_options& opt) {
  const detail::preamble pre = detail::read_preamble(file, file_size, opt, {});
  if (file.size() < pre.header_bytes())
    throw error(errc::bad_argument, "parse_header: the header was not passed whole");
  return detail::parse_header(pre, file, file_size, opt, {});
}

element_bytes::element_bytes(std::vector<unsigned char> heap) {
  auto owned = std::make_shared<const std::vector<unsigned char>>(std::move(heap));
  data_ = owned->data();
  size_ = owned->size();
  owner_ = std::move(owned);
}

element_bytes::element_bytes(std::shared_ptr<const void> owner, const unsigned char* data, std::size_t size,
                             bool mapped) noexcept
    : owner_(std::move(owner)), data_(data), size_(size), mapped_(mapped) {}

bool operator==(const element_bytes& a, const element_bytes& b) noexcept {
  return a.size_ == b.size_ && (a.size_ == 0 || std::memcmp(a.data_, b.data_, a.size_) == 0);
}

namespace detail {

array array_of(const header& h) {
  array a;
  a.type = h.type;
  a.extents = h.extents;
  a.fortran_order = h.fortran_order;
  a.byte_swapped = h.big_endian;
  return a;
}

std::vector<unsigned char> heap_buffer(std::uint64_t size) {
  try {
    return std::vector<unsigned char>(size);
  } catch (const std::exception&) {
    throw error(errc::out_of_memory, "no memory for " + std::to_string(size) + " bytes of .npy data");
  }
}

void to_host_order(std::vector<unsigned char>& bytes, const header& h) {
  if (h.big_endian) swap_bytes(bytes.data(), bytes.size() / size_of(h.type), size_of(h.type));
}

}  // namespace detail

array parse(std::span<const unsigned char> file, const read_options& opt) {
  const header h = parse_header(file, file.size(), opt);
  array a = detail::array_of(h);
  std::vector<unsigned char> bytes = detail::heap_buffer(h.data_bytes);
  if (h.data_bytes) std::memcpy(bytes.data(), file.data() + h.data_offset, h.data_bytes);
  detail::to_host_order(bytes, h);
  a.bytes = element_bytes(std::move(bytes));
  return a;
}

header read_header(const std::string& path, const read_options& opt) {
  return detail::input_file(path).read_header(opt);
}

array read(const std::string& path, const read_options& opt) {
  const detail::input_file f(path);
  const header h = f.read_header(opt);
  array a = detail::array_of(h);
  if (h.data_bytes == 0) return a;
  // Little-endian (or 1-byte) elements at an offset aligned to their size are used in place.
  if (!h.big_endian && h.data_offset % size_of(h.type) == 0)
    if (auto mapping = detail::map_file(f)) {
      const auto* data = static_cast<const unsigned char*>(mapping.get()) + h.data_offset;
      a.bytes = element_bytes(std::move(mapping), data, h.data_bytes, true);
      return a;
    }
  std::vector<unsigned char> bytes = detail::heap_buffer(h.data_bytes);
  f.read_at(bytes.data(), bytes.size(), h.data_offset);
  detail::to_host_order(bytes, h);
  a.bytes = element_bytes(std::move(bytes));
  return a;
}

std::int64_t array::count() const noexcept {
  std::int64_t n = 1;
  for (auto e : extents) n *= e;
  return n;
}

shape strides_of(const shape& extents, bool fortran_order) {
  if (!fortran_order) return contiguous_strides(extents);
  shape strides;
  std::int64_t step = 1;
  for (int i = 0; i < extents.size(); ++i) {
    strides.push_back(step);
    // Wraps like contiguous_strides for extents whose product does not fit (refused later).
    step = static_cast<std::int64_t>(static_cast<std::uint64_t>(step) *
                                     static_cast<std::uint64_t>(extents[i] > 0 ? extents[i] : 1));
  }
  return strides;
}

tensor_view array::view() const {
  return make_view(bytes.empty() ? nullptr : bytes.data(), type, extents, strides_of(extents, fortran_order));
}

}  // namespace argx::npy
