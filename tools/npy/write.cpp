// Serializing .npy: the header numpy writes (dict padded with spaces to a 64-byte
// boundary, ending in a newline), then the view's elements gathered in C or Fortran order.
// (Putting the bytes into files is replace.cpp's job.)
#include <cstring>

#include "detail.hpp"

namespace argx::npy {
namespace {

std::string header_dict_text(const std::string& descr, bool fortran, const shape& extents) {
  std::string s = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': (";
  for (int i = 0; i < extents.size(); ++i) s += (i ? ", " : "") + std::to_string(extents[i]);
  if (extents.size() == 1) s += ",";
  return s + "), }";
}

// Visits every element of `x` in C order (or Fortran order), passing its element offset.
template <class F>
void for_each_offset(const tensor_view& x, bool fortran, F&& f) {
  const int rank = x.rank();
  std::int64_t count = 1;
  for (auto e : x.extents) count *= e;
  if (count == 0) return;
  std::int64_t idx[max_rank] = {};
  std::int64_t off = 0;
  for (std::int64_t n = 0; n < count; ++n) {
    f(off);
    // Odometer: the fastest dim is the last (C) or the first (Fortran).
    for (int k = 0; k < rank; ++k) {
      const int d = fortran ? k : rank - 1 - k;
      if (++idx[d] < x.extents[d]) {
        off += x.strides[d];
        break;
      }
      off -= (x.extents[d] - 1) * x.strides[d];
      idx[d] = 0;
    }
  }
}

}  // namespace

std::vector<unsigned char> serialize(const tensor_view& x, const write_options& opt) {
  if (x.space != memory_space::host) throw error(errc::wrong_memory_space, "npy: can only write host memory");
  if (x.strides.size() != x.extents.size()) throw error(errc::bad_shape, "npy: extents and strides differ in length");
  std::int64_t count = 1;
  for (auto e : x.extents) {
    if (e < 0) throw error(errc::bad_shape, "npy: negative extent");
    if (__builtin_mul_overflow(count, e, &count)) throw error(errc::shape_overflow, "npy: element count overflows");
  }
  if (count > 0 && x.data == nullptr) throw error(errc::bad_argument, "npy: view data is null");

  const std::string dict = header_dict_text(descr_of(x.type, opt.big_endian), opt.fortran_order, x.extents);
  // Total header size (preamble + dict + padding + '\n') is a multiple of 64, as numpy writes it.
  auto padded_len = [&](std::size_t preamble) {
    const std::size_t unpadded = preamble + dict.size() + 1;
    return ((unpadded + 63) / 64) * 64 - preamble;
  };
  int version = opt.version;
  if (version == 0) version = padded_len(10) <= 0xffff ? 1 : 2;
  if (version < 1 || version > 3) throw error(errc::bad_argument, "npy: version must be 1, 2 or 3");
  const std::size_t preamble = version == 1 ? 10 : 12;
  const std::size_t header_len = padded_len(preamble);
  if (version == 1 && header_len > 0xffff) throw error(errc::bad_argument, "npy: header too long for version 1.0");

  const std::size_t elem = size_of(x.type);
  std::string head("\x93NUMPY", 6);
  head += static_cast<char>(version);
  head += '\0';
  for (std::size_t i = 0; i < preamble - 8; ++i) head += static_cast<char>((header_len >> (8 * i)) & 0xff);
  head += dict;
  head.resize(preamble + header_len - 1, ' ');
  head += '\n';

  std::vector<unsigned char> out(head.size() + static_cast<std::size_t>(count) * elem);
  std::memcpy(out.data(), head.data(), head.size());
  const auto* base = static_cast<const unsigned char*>(x.data);
  const std::size_t data_start = head.size();
  unsigned char* dst = out.data() + data_start;
  for_each_offset(x, opt.fortran_order, [&](std::int64_t off) {
    std::memcpy(dst, base + off * static_cast<std::int64_t>(elem), elem);
    dst += elem;
  });
  if (opt.big_endian && elem > 1) detail::swap_bytes(out.data() + data_start, static_cast<std::uint64_t>(count), elem);
  return out;
}

void write(const std::string& path, const tensor_view& x, const write_options& opt) {
  const output_file one{path, x, opt};
  write(std::span<const output_file>(&one, 1));
}

}  // namespace argx::npy
