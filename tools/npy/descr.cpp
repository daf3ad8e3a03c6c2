// dtype descriptors: '<f4', '|b1', '>i8', 'float32', 'bfloat16', ... <-> argx::dtype.
#include "detail.hpp"

namespace argx::npy {
namespace detail {
namespace {

struct typecode {
  char kind;
  int size;
  argx::dtype type;
};
constexpr typecode typecodes[] = {
    {'f', 2, dtype::f16}, {'f', 4, dtype::f32}, {'f', 8, dtype::f64}, {'i', 1, dtype::i8},
    {'i', 2, dtype::i16}, {'i', 4, dtype::i32}, {'i', 8, dtype::i64}, {'u', 1, dtype::u8},
    {'u', 2, dtype::u16}, {'u', 4, dtype::u32}, {'u', 8, dtype::u64}, {'b', 1, dtype::boolean},
};

constexpr std::string_view kind_names = "biufcmMOSUVa?";

const char* kind_description(char k) {
  switch (k) {
    case 'c': return "complex";
    case 'm': return "timedelta";
    case 'M': return "datetime";
    case 'O': return "Python object";
    case 'S': case 'a': return "byte string";
    case 'U': return "unicode string";
    case 'V': return "raw (void)";
    case 'f': return "floating point of this size";
    default: return "numeric of this size";
  }
}

}  // namespace

descr_info parse_descr(std::string_view d, const read_options& opt) {
  // Type names numpy's np.dtype() also accepts ('float32', 'bool', ...), and 'bfloat16'.
  for (int i = 0; i < dtype_count; ++i) {
    const auto t = static_cast<argx::dtype>(i);
    if (d == name(t)) return {opt.bf16 && t == dtype::u16 ? dtype::bf16 : t, false};
  }
  std::string_view rest = d;
  char order = '=';
  if (!rest.empty() && (rest[0] == '<' || rest[0] == '>' || rest[0] == '|' || rest[0] == '=')) {
    order = rest[0];
    rest.remove_prefix(1);
  }
  if (rest == "?") return {dtype::boolean, false};
  const bool digits_follow = rest.size() >= 2 && rest.size() <= 4 &&
                             rest.find_first_not_of("0123456789", 1) == std::string_view::npos;
  if (!digits_follow || kind_names.find(rest[0]) == std::string_view::npos)
    throw error(errc::bad_npy, "descr " + quoted(d) + " is not a dtype descriptor");
  const char kind = rest[0] == '?' ? 'b' : rest[0];
  const int size = std::stoi(std::string(rest.substr(1)));
  const bool big = order == '>' && size > 1;

  if (opt.bf16 && size == 2 && (kind == 'V' || kind == 'u')) return {dtype::bf16, big};
  for (const auto& tc : typecodes)
    if (tc.kind == kind && tc.size == size) return {tc.type, big};
  if (kind == 'V' && size == 2)
    throw error(errc::unsupported_dtype, "descr " + quoted(d) +
                                             " is raw 2-byte data; if it holds bfloat16 (np.save writes ml_dtypes' "
                                             "bfloat16 this way), read it with the bf16 option (argx: --bf16)");
  throw error(errc::unsupported_dtype, "descr " + quoted(d) + " (" + kind_description(kind) +
                                           ") is not a dtype argx reduces");
}

void swap_bytes(unsigned char* data, std::uint64_t count, std::size_t elem_size) {
  for (std::uint64_t i = 0; i < count; ++i, data += elem_size)
    for (std::size_t a = 0, b = elem_size - 1; a < b; ++a, --b) std::swap(data[a], data[b]);
}

}  // namespace detail

std::string descr_of(argx::dtype t, bool big_endian) {
  if (t == dtype::bf16) {
    if (big_endian) throw error(errc::unsupported_dtype, "bfloat16 has no big-endian .npy descr");
    return "bfloat16";
  }
  for (const auto& tc : detail::typecodes)
    if (tc.type == t) {
      const char order = tc.size == 1 ? '|' : (big_endian ? '>' : '<');
      return std::string(1, order) + tc.kind + std::to_string(tc.size);
    }
  throw error(errc::unsupported_dtype, "dtype code " + std::to_string(static_cast<int>(t)) + " has no .npy descr");
}

}  // namespace argx::npy
