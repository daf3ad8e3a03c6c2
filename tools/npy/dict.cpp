// The .npy header dict: a Python literal, parsed by a small strict scanner (no eval).
// Accepted: exactly the keys 'descr', 'fortran_order' and 'shape', each once, in any
// order, an optional trailing comma, then only whitespace.
#include <cstdint>
#include <limits>

#include "detail.hpp"

namespace argx::npy::detail {
namespace {

class scanner {
 public:
  scanner(std::string_view t, const origin& from) : text_(t), from_(from) {}

  /// A malformed dict: bad_npy.
  [[noreturn]] void fail(const std::string& what) const { throw from_.fail(errc::bad_npy, "header dict: " + what); }

  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }
  std::string where() const { return "at byte " + std::to_string(pos_); }

  void expect(char c, const std::string& context) {
    skip_space();
    if (peek() != c) fail(std::string("expected '") + c + "' " + context + " " + where() + found());
    ++pos_;
  }
  bool accept(char c) {
    skip_space();
    if (peek() != c) return false;
    ++pos_;
    return true;
  }

  // A quoted string without escapes (no legitimate .npy header needs them).
  std::string string(const char* context) {
    skip_space();
    const char q = peek();
    if (q != '\'' && q != '"') fail(std::string("expected a quoted string ") + context + " " + where() + found());
    const std::size_t start = ++pos_;
    while (!at_end() && text_[pos_] != q) {
      if (text_[pos_] == '\\') fail("escape sequences in strings are not supported " + where());
      ++pos_;
    }
    if (at_end()) fail(std::string("unterminated string ") + context);
    return std::string(text_.substr(start, pos_++ - start));
  }

  bool boolean(const char* context) {
    skip_space();
    if (text_.substr(pos_, 4) == "True") { pos_ += 4; return true; }
    if (text_.substr(pos_, 5) == "False") { pos_ += 5; return false; }
    fail(std::string("expected True or False ") + context + " " + where() + found());
  }

  // A non-negative decimal integer (Python 2 headers may carry an 'L' suffix).
  std::int64_t integer(const char* context) {
    skip_space();
    if (peek() == '-') fail(std::string("negative extent ") + context + " " + where());
    if (peek() < '0' || peek() > '9') fail(std::string("expected an integer ") + context + " " + where() + found());
    std::int64_t v = 0;
    while (peek() >= '0' && peek() <= '9') {
      const int digit = text_[pos_++] - '0';
      if (v > (std::numeric_limits<std::int64_t>::max() - digit) / 10)
        fail(std::string("extent ") + context + " does not fit in 64 bits");
      v = v * 10 + digit;
    }
    if (peek() == 'L' || peek() == 'l') ++pos_;
    return v;
  }

  // A tuple of integers: (), (n,), (a, b), (a, b,). A one-element tuple needs its comma,
  // as in Python, where (n) is just n.
  shape extents() {
    expect('(', "to open 'shape'");
    shape s;
    bool trailing_comma = false;
    while (!accept(')')) {
      if (s.size() == max_rank)
        throw from_.fail(errc::bad_shape, "the .npy shape has more than " + std::to_string(max_rank) + " dims");
      s.push_back(integer("in 'shape'"));
      trailing_comma = accept(',');
      if (!trailing_comma) {
        expect(')', "to close 'shape'");
        break;
      }
    }
    if (s.size() == 1 && !trailing_comma) fail("'shape' (n) is not a tuple; a one-dim shape is written (n,)");
    return s;
  }

 private:
  std::string found() const {
    if (at_end()) return " (found the end of the header)";
    return " (found " + quoted(text_.substr(pos_, 1)) + ")";
  }
  std::string_view text_;
  const origin& from_;
  std::size_t pos_ = 0;
};

}  // namespace

header_dict parse_dict(std::string_view text, const origin& from) {
  scanner sc(text, from);
  header_dict d;
  bool have_descr = false, have_order = false, have_shape = false;
  sc.expect('{', "to open the header dict");
  while (!sc.accept('}')) {
    const std::string key = sc.string("as a key");
    sc.expect(':', "after key " + quoted(key));
    if (key == "descr") {
      if (have_descr) sc.fail("key 'descr' appears twice");
      sc.skip_space();
      if (sc.peek() == '[')
        throw from.fail(errc::unsupported_dtype, "structured dtypes (a list as 'descr') are not supported");
      d.descr = sc.string("as the value of 'descr'");
      have_descr = true;
    } else if (key == "fortran_order") {
      if (have_order) sc.fail("key 'fortran_order' appears twice");
      d.fortran_order = sc.boolean("as the value of 'fortran_order'");
      have_order = true;
    } else if (key == "shape") {
      if (have_shape) sc.fail("key 'shape' appears twice");
      d.extents = sc.extents();
      have_shape = true;
    } else {
      sc.fail("unexpected key " + quoted(key) + " (a .npy header has only 'descr', 'fortran_order' and 'shape')");
    }
    if (!sc.accept(',')) {
      sc.expect('}', "to close the header dict");
      break;
    }
  }
  sc.skip_space();
  if (!sc.at_end()) sc.fail("unexpected text after the closing '}' " + sc.where());
  if (!have_descr) sc.fail("key 'descr' is missing");
  if (!have_order) sc.fail("key 'fortran_order' is missing");
  if (!have_shape) sc.fail("key 'shape' is missing");
  return d;
}

std::string quoted(std::string_view s) {
  static const char hex[] = "0123456789abcdef";
  std::string out = "'";
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\') {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out + "'";
}

}  // namespace argx::npy::detail
