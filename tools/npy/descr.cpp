// dtype descriptors: '<f4', '|b1', '>i8', '<i', 'float32', 'bfloat16', ... <-> argx::dtype.
#include <algorithm>
#include <iterator>

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

// numpy's one-character type codes (np.dtype('<i') is int32) as (kind, size) on an LP64
// platform, where numpy's 'l' and 'p' are 8 bytes; size 0 = a string of no length.
struct char_code {
  char code, kind;
  int size;
};
constexpr char_code char_codes[] = {
    {'?', 'b', 1}, {'b', 'i', 1}, {'B', 'u', 1}, {'h', 'i', 2},  {'H', 'u', 2},  {'i', 'i', 4}, {'I', 'u', 4},
    {'l', 'i', 8}, {'L', 'u', 8}, {'q', 'i', 8}, {'Q', 'u', 8},  {'p', 'i', 8},  {'P', 'u', 8}, {'e', 'f', 2},
    {'f', 'f', 4}, {'d', 'f', 8}, {'g', 'f', 16}, {'F', 'c', 8}, {'D', 'c', 16}, {'G', 'c', 32}, {'O', 'O', 8},
    {'S', 'S', 0}, {'a', 'S', 0}, {'c', 'S', 1}, {'U', 'U', 0},  {'V', 'V', 0},  {'M', 'M', 8}, {'m', 'm', 8},
};

// Whether numpy has a dtype of this kind and item size ('i3' and 'f12' are no dtypes).
bool numpy_has(char kind, std::uint64_t size) {
  switch (kind) {
    case 'b': return size == 1;
    case 'i': case 'u': return size == 1 || size == 2 || size == 4 || size == 8;
    case 'f': return size == 2 || size == 4 || size == 8 || size == 16;
    case 'c': return size == 8 || size == 16 || size == 32;
    case 'O': return size == 4 || size == 8;
    case 'M': case 'm': return size == 8;
    case 'S': case 'U': case 'V': return true;
    default: return false;
  }
}

// A datetime64 / timedelta64 unit as numpy writes it: "[ns]", "[10ms]", "[generic]", "[s/4]".
bool is_time_unit(std::string_view u) {
  if (u.size() < 3 || u.front() != '[' || u.back() != ']') return false;
  u = u.substr(1, u.size() - 2);
  if (u == "generic") return true;
  const std::size_t slash = u.find('/');
  if (slash != std::string_view::npos) {
    const std::string_view den = u.substr(slash + 1);
    if (den.empty() || den.size() > 18 || den.find_first_not_of("0123456789") != std::string_view::npos) return false;
    u = u.substr(0, slash);
  }
  const std::size_t digits = u.find_first_not_of("0123456789");
  if (digits == std::string_view::npos || digits > 18) return false;
  static constexpr std::string_view units[] = {"Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs", "as"};
  for (auto name : units)
    if (u.substr(digits) == name) return true;
  return false;
}

// numpy's name for a dtype argx does not reduce, as np.dtype(descr) prints it.
std::string numpy_name(char kind, std::uint64_t size, std::string_view unit) {
  const std::string n = std::to_string(size);
  switch (kind) {
    case 'f': return "float" + std::to_string(8 * size);
    case 'c': return "complex" + std::to_string(8 * size) + ": complex";
    case 'M': return "datetime64" + std::string(unit == "[generic]" ? "" : unit);
    case 'm': return "timedelta64" + std::string(unit == "[generic]" ? "" : unit);
    case 'O': return "object: Python objects";
    case 'S': return "S" + n + ": byte string";
    case 'U': return "U" + n + ": unicode string";
    case 'V': return "V" + n + ": raw (void)";
    default: return std::string(1, kind) + n;
  }
}

}  // namespace

descr_info parse_descr(std::string_view d, const read_options& opt, const origin& from) {
  // Type names numpy's np.dtype() also accepts ('float32', 'bool', ...), and 'bfloat16'.
  for (int i = 0; i < dtype_count; ++i) {
    const auto t = static_cast<argx::dtype>(i);
    if (d == name(t)) return {opt.bf16 && t == dtype::u16 ? dtype::bf16 : t, false};
  }
  // Otherwise numpy's type strings: [<>=|] then a type code, or a kind and an item size,
  // and for datetime64 / timedelta64 an optional unit ('<i', '<f4', '|b1', '<M8[ns]', '|O').
  std::string_view rest = d;
  char order = '=';
  if (!rest.empty() && (rest[0] == '<' || rest[0] == '>' || rest[0] == '|' || rest[0] == '=')) {
    order = rest[0];
    rest.remove_prefix(1);
  }
  auto not_a_dtype = [&] {
    return from.fail(errc::bad_npy, "descr " + quoted(d) + " is not a dtype descriptor numpy reads");
  };
  if (rest.empty()) throw not_a_dtype();
  char kind = rest[0];
  std::uint64_t size = 0;
  std::string_view unit;
  const std::string_view after = rest.substr(1);
  const std::size_t digits = std::min(after.find_first_not_of("0123456789"), after.size());
  if (digits == 0) {
    // A type code alone: 'i', 'e', 'd', 'O', 'M', ...
    const auto* c = std::find_if(std::begin(char_codes), std::end(char_codes), [&](const char_code& cc) { return cc.code == kind; });
    if (c == std::end(char_codes) || !after.empty()) throw not_a_dtype();
    kind = c->kind;
    size = static_cast<std::uint64_t>(c->size);
  } else {
    // A kind and an item size: 'f4', 'b1', 'U12', 'M8[ns]'; 'a' is numpy's old name for 'S'.
    if (kind == 'a') kind = 'S';
    if (digits > 18 || std::string_view("biufcOSUVMm").find(kind) == std::string_view::npos) throw not_a_dtype();
    for (char c : after.substr(0, digits)) size = size * 10 + static_cast<std::uint64_t>(c - '0');
    unit = after.substr(digits);
    if (!numpy_has(kind, size)) throw not_a_dtype();
  }
  if (!unit.empty() && !((kind == 'M' || kind == 'm') && is_time_unit(unit))) throw not_a_dtype();
  const bool big = order == '>' && size > 1;

  if (opt.bf16 && size == 2 && (kind == 'V' || kind == 'u')) return {dtype::bf16, big};
  for (const auto& tc : typecodes)
    if (tc.kind == kind && static_cast<std::uint64_t>(tc.size) == size) return {tc.type, big};
  if (kind == 'V' && size == 2)
    throw from.fail(errc::unsupported_dtype, "descr " + quoted(d) +
                                                 " is raw 2-byte data; if it holds bfloat16 (np.save writes ml_dtypes' "
                                                 "bfloat16 this way), read it with the bf16 option (argx: --bf16)");
  throw from.fail(errc::unsupported_dtype, "descr " + quoted(d) + " (numpy " + numpy_name(kind, size, unit) +
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
