// argx::testing: check your own argmax/argmin against argx, bit for bit.
//
//   std::vector<std::int64_t> mine = my_argmax_rows(data, rows, cols);
//   auto x = argx::make_view(data.data(), {rows, cols});
//   auto rep = argx::testing::compare(x, argx::op::argmax, {.dims = {1}}, std::span(mine));
//   if (!rep) std::cerr << rep.to_string() << "\n";
//
// argx (the seq backend, the reference every argx backend matches) computes the expected
// answer under the same spec; the report names the first output that differs, both
// indices, the input coordinates they point at and the elements' bits. An input or spec
// that argx rejects (empty reduction, bad dim, ...) makes compare throw that argx::error,
// so a test can also check that its own implementation refuses the same inputs.
//
// Header-only; link with argx as for any argx call.
#pragma once

#include "config.hpp"  // first: the C++20 check

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "argx.hpp"

namespace argx::testing {

/// One answer to a reduction: indices row-major over the output shape and, optionally,
/// the winning elements' raw bytes (size_of(input dtype) bytes per output; empty = not
/// compared).
struct answer {
  std::vector<std::int64_t> indices;
  std::vector<unsigned char> values;
};

/// The outcome of a comparison. Converts to true when the answers agree.
struct report {
  bool equal = true;
  std::string problem;              ///< set when the answers cannot be compared (wrong sizes)
  std::int64_t outputs = 0;         ///< output elements compared
  std::int64_t differing = 0;       ///< outputs whose index or value differ
  std::int64_t output = -1;         ///< first differing output, flat row-major
  shape position;                   ///< ... and its multi-index in the output shape
  std::int64_t expected_index = 0;  ///< index argx gives there
  std::int64_t actual_index = 0;    ///< index the answer under test gives there
  shape expected_element;           ///< input coordinates of expected_index (empty for -1)
  shape actual_element;             ///< input coordinates of actual_index (empty for -1 or out of range)
  bool values_compared = false;
  argx::dtype value_type = dtype::f32;
  std::uint64_t expected_bits = 0;  ///< the winning element's bits, zero-extended
  std::uint64_t actual_bits = 0;
  std::string expected_name = "argx", actual_name = "actual";

  explicit operator bool() const noexcept { return equal; }
  /// One line: agreement, or the first difference with both answers.
  std::string to_string() const;
};

/// An element for people: its value and its bits, e.g. "1.5 [0x3fc00000]".
std::string format_element(argx::dtype t, std::uint64_t bits);

/// Compares two answers to reducing `x` with (o, s); `expected` is taken as right.
report compare_answers(const tensor_view& x, op o, const spec& s, const answer& expected, const answer& actual,
                       std::string expected_name = "argx", std::string actual_name = "actual");

/// Compares `actual` with argx's answer, computed with `reference` (seq by default).
inline report compare(const tensor_view& x, op o, const spec& s, const answer& actual, const policy& reference = seq) {
  return argx::detail::with_argx_errors("testing::compare", [&] {
    const result r = reduce(reference, o, x, s);
    answer expected{r.indices, actual.values.empty() ? std::vector<unsigned char>{} : r.values};
    return compare_answers(x, o, s, expected, actual);
  });
}

/// Compares indices (int64 or int32) and, optionally, values with argx's answer.
inline report compare(const tensor_view& x, op o, const spec& s, std::span<const std::int64_t> indices) {
  return argx::detail::with_argx_errors("testing::compare",
                                        [&] { return compare(x, o, s, answer{{indices.begin(), indices.end()}, {}}); });
}
inline report compare(const tensor_view& x, op o, const spec& s, std::span<const std::int32_t> indices) {
  return argx::detail::with_argx_errors("testing::compare",
                                        [&] { return compare(x, o, s, answer{{indices.begin(), indices.end()}, {}}); });
}
template <element T>
report compare(const tensor_view& x, op o, const spec& s, std::span<const std::int64_t> indices,
               std::span<const T> values) {
  if (dtype_of_v<T> != x.type)
    throw error(errc::bad_argument, "testing::compare: values are " + std::string(name(dtype_of_v<T>)) +
                                        " but the input is " + std::string(name(x.type)));
  const auto* b = reinterpret_cast<const unsigned char*>(values.data());
  return argx::detail::with_argx_errors("testing::compare", [&] {
    return compare(x, o, s, answer{{indices.begin(), indices.end()}, {b, b + values.size_bytes()}});
  });
}
template <element T>
report compare(const tensor_view& x, op o, const spec& s, std::span<const std::int64_t> indices, std::span<T> values) {
  return compare(x, o, s, indices, std::span<const T>(values));
}

// ---- implementation --------------------------------------------------------------------

namespace detail {

/// compare_answers without the translation of foreign exceptions.
inline report compare_answers_unchecked(const tensor_view& x, op o, const spec& s, const answer& expected,
                                        const answer& actual, std::string expected_name, std::string actual_name);

inline std::string shape_string(const shape& s) {
  std::string out = "(";
  for (int i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + ")";
}

inline std::string hex(std::uint64_t bits, std::size_t bytes) {
  static const char digits[] = "0123456789abcdef";
  std::string out = "0x";
  for (int i = static_cast<int>(bytes) * 2 - 1; i >= 0; --i) out += digits[(bits >> (4 * i)) & 15];
  return out;
}

// The value a half's bits encode, exactly (every half is a double).
inline double half_value(std::uint16_t h) {
  const int e = (h >> 10) & 31, m = h & 1023;
  const double sign = (h & 0x8000) ? -1.0 : 1.0;
  if (e == 31) return m ? std::nan("") : sign * INFINITY;
  return sign * (e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25));
}

template <class F>
std::string shortest(F v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

// Input coordinates of `index` for output `output`: the kept dims come from the output
// position, the reduced dims from unravelling the index over their extents.
inline shape element_coordinates(const tensor_view& x, const spec& s, std::int64_t output, std::int64_t index) {
  const int rank = x.rank();
  bool reduced[max_rank] = {};
  for (int d = 0; d < rank; ++d) reduced[d] = s.dims.empty();
  for (int d : s.dims) reduced[d < 0 ? d + rank : d] = true;
  shape kept, red;
  for (int d = 0; d < rank; ++d) (reduced[d] ? red : kept).push_back(x.extents[d]);
  std::int64_t total = 1;
  for (auto e : red) total *= e;
  if (index < 0 || index >= total) return {};
  const shape ri = unravel(index, red);
  shape ki = kept;
  for (int d = kept.size() - 1; d >= 0; --d) {
    ki[d] = output % kept[d];
    output /= kept[d];
  }
  shape out;
  for (int d = 0, k = 0, r = 0; d < rank; ++d) out.push_back(reduced[d] ? ri[r++] : ki[k++]);
  return out;
}

inline std::string element_text(const shape& coords) {
  if (coords.empty()) return "";
  std::string s = " (x[";
  for (int i = 0; i < coords.size(); ++i) s += (i ? ", " : "") + std::to_string(coords[i]);
  return s + "]";
}

}  // namespace detail

inline std::string format_element(argx::dtype t, std::uint64_t bits) {
  std::string v;
  switch (t) {
    case dtype::f16: v = detail::shortest(static_cast<float>(detail::half_value(static_cast<std::uint16_t>(bits)))); break;
    case dtype::bf16: {
      const std::uint32_t w = static_cast<std::uint32_t>(bits) << 16;
      float f;
      std::memcpy(&f, &w, 4);
      v = detail::shortest(f);
      break;
    }
    case dtype::f32: {
      const std::uint32_t w = static_cast<std::uint32_t>(bits);
      float f;
      std::memcpy(&f, &w, 4);
      v = detail::shortest(f);
      break;
    }
    case dtype::f64: {
      double f;
      std::memcpy(&f, &bits, 8);
      v = detail::shortest(f);
      break;
    }
    case dtype::i8: v = std::to_string(static_cast<std::int8_t>(bits)); break;
    case dtype::i16: v = std::to_string(static_cast<std::int16_t>(bits)); break;
    case dtype::i32: v = std::to_string(static_cast<std::int32_t>(bits)); break;
    case dtype::i64: v = std::to_string(static_cast<std::int64_t>(bits)); break;
    case dtype::boolean: v = bits ? "true" : "false"; break;
    default: v = std::to_string(bits); break;
  }
  return v + " [" + detail::hex(bits, size_of(t)) + "]";
}

inline std::string report::to_string() const {
  if (!problem.empty()) return "argx::testing: " + problem;
  const std::string what = values_compared ? "indices and values" : "indices";
  if (equal) return "argx::testing: all " + std::to_string(outputs) + " outputs agree (" + what + ")";
  auto side = [&](const std::string& who, std::int64_t index, const shape& coords, std::uint64_t bits) {
    std::string s = who + " index " + std::to_string(index) + detail::element_text(coords);
    if (values_compared) s += (coords.empty() ? " (value " : " = ") + format_element(value_type, bits) + ")";
    else if (!coords.empty()) s += ")";
    return s;
  };
  return "argx::testing: " + std::to_string(differing) + " of " + std::to_string(outputs) + " outputs differ (" +
         what + "); first at output " + detail::shape_string(position) + ": " +
         side(expected_name, expected_index, expected_element, expected_bits) + ", " +
         side(actual_name, actual_index, actual_element, actual_bits);
}

inline report compare_answers(const tensor_view& x, op o, const spec& s, const answer& expected, const answer& actual,
                              std::string expected_name, std::string actual_name) {
  return argx::detail::with_argx_errors("testing::compare_answers", [&] {
    return detail::compare_answers_unchecked(x, o, s, expected, actual, std::move(expected_name), std::move(actual_name));
  });
}

namespace detail {

inline report compare_answers_unchecked(const tensor_view& x, op o, const spec& s, const answer& expected,
                                        const answer& actual, std::string expected_name, std::string actual_name) {
  const argx::detail::plan p = argx::detail::make_plan(x, o, s);
  report r;
  r.expected_name = std::move(expected_name);
  r.actual_name = std::move(actual_name);
  r.value_type = x.type;
  r.outputs = p.outputs;
  const std::size_t n = static_cast<std::size_t>(p.outputs), elem = size_of(x.type);
  auto size_problem = [&](const std::string& who, const char* what, std::size_t got, std::size_t want) {
    r.equal = false;
    r.problem = who + " has " + std::to_string(got) + " " + what + " but the output shape " +
                detail::shape_string(p.out_extents) + " needs " + std::to_string(want);
    return r;
  };
  if (expected.indices.size() != n) return size_problem(r.expected_name, "indices", expected.indices.size(), n);
  if (actual.indices.size() != n) return size_problem(r.actual_name, "indices", actual.indices.size(), n);
  r.values_compared = !expected.values.empty() && !actual.values.empty();
  if (r.values_compared) {
    if (expected.values.size() != n * elem) return size_problem(r.expected_name, "value bytes", expected.values.size(), n * elem);
    if (actual.values.size() != n * elem) return size_problem(r.actual_name, "value bytes", actual.values.size(), n * elem);
  }
  auto bits_at = [&](const std::vector<unsigned char>& v, std::size_t i) {
    std::uint64_t b = 0;
    std::memcpy(&b, v.data() + i * elem, elem);  // little-endian host: low bytes
    return b;
  };
  for (std::size_t i = 0; i < n; ++i) {
    const bool same_index = expected.indices[i] == actual.indices[i];
    const bool same_value = !r.values_compared || std::memcmp(expected.values.data() + i * elem,
                                                              actual.values.data() + i * elem, elem) == 0;
    if (same_index && same_value) continue;
    if (r.differing++ == 0) {
      r.equal = false;
      r.output = static_cast<std::int64_t>(i);
      r.position = unravel(r.output, p.out_extents);
      r.expected_index = expected.indices[i];
      r.actual_index = actual.indices[i];
      r.expected_element = detail::element_coordinates(x, s, r.output, r.expected_index);
      r.actual_element = detail::element_coordinates(x, s, r.output, r.actual_index);
      if (r.values_compared) {
        r.expected_bits = bits_at(expected.values, i);
        r.actual_bits = bits_at(actual.values, i);
      }
    }
  }
  return r;
}

}  // namespace detail

}  // namespace argx::testing
