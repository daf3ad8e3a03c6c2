// A catalogue of malformed, truncated, lying and unsupported .npy files, each with the
// error code and a fragment of the message the reader must give. Shared by the reader's
// unit test, the CLI test and the fuzzer's seed corpus.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <argx/error.hpp>

namespace argx::npy::catalogue {

/// .npy bytes: magic, version, header length (the true one unless `len` overrides it),
/// the dict text as given (no padding added), then `data`.
inline std::string file(int major, const std::string& dict, const std::string& data,
                        std::int64_t len = -1, int minor = 0) {
  std::string s("\x93NUMPY", 6);
  s += static_cast<char>(major);
  s += static_cast<char>(minor);
  const std::uint32_t n = len < 0 ? static_cast<std::uint32_t>(dict.size()) : static_cast<std::uint32_t>(len);
  s += static_cast<char>(n & 0xff);
  s += static_cast<char>((n >> 8) & 0xff);
  if (major != 1) {
    s += static_cast<char>((n >> 16) & 0xff);
    s += static_cast<char>((n >> 24) & 0xff);
  }
  return s + dict + data;
}

/// A header dict as numpy writes it (unpadded).
inline std::string dict(const std::string& descr, const std::string& shape, const std::string& fortran = "False") {
  return "{'descr': '" + descr + "', 'fortran_order': " + fortran + ", 'shape': " + shape + ", }\n";
}

struct entry {
  std::string name;      ///< what is wrong, as a file-name-safe word
  std::string bytes;     ///< the file
  errc code;             ///< the error the reader must raise
  std::string fragment;  ///< a piece of its message
};

/// Every entry is rejected by argx::npy::parse and argx::npy::read.
inline std::vector<entry> malformed() {
  const std::string six_floats(24, '\0');
  const std::string good = dict("<f4", "(2, 3)");
  // Six floats in files whose header dict text, shape text, descr or fortran_order alone is
  // wrong; files of a dtype argx does not reduce.
  auto bad_dict_text = [&](std::string name, const std::string& text, std::string fragment) {
    return entry{std::move(name), file(1, text, six_floats), errc::bad_npy, std::move(fragment)};
  };
  auto bad_shape_text = [&](std::string name, const std::string& shape, std::string fragment) {
    return entry{std::move(name), file(1, dict("<f4", shape), six_floats), errc::bad_npy, std::move(fragment)};
  };
  auto bad_descr = [&](std::string name, const std::string& descr) {
    return entry{std::move(name), file(1, dict(descr, "(2, 3)"), six_floats), errc::bad_npy, "not a dtype descriptor"};
  };
  auto bad_order = [&](std::string name, const std::string& fortran) {
    return entry{std::move(name), file(1, dict("<f4", "(2, 3)", fortran), six_floats), errc::bad_npy, "True or False"};
  };
  auto unsupported = [&](std::string name, const std::string& descr, const std::string& shape, std::size_t data_bytes,
                         std::string fragment) {
    return entry{std::move(name), file(1, dict(descr, shape), std::string(data_bytes, '\0')), errc::unsupported_dtype,
                 std::move(fragment)};
  };
  std::vector<entry> c = {
      {"empty", "", errc::bad_npy, "too short"},
      {"five_bytes", std::string("\x93NUMP", 5), errc::bad_npy, "too short"},
      {"wrong_magic", "\x93NUMPZ" + file(1, good, six_floats).substr(6), errc::bad_npy, "not a .npy file"},
      {"text_file", "descr,shape\nf4,2x3\n", errc::bad_npy, "not a .npy file"},
      {"version_4", file(4, good, six_floats), errc::bad_npy, "version 4.0"},
      {"version_1_1", file(1, good, six_floats, -1, 1), errc::bad_npy, "version 1.1"},
      {"version_0", file(0, good, six_floats), errc::bad_npy, "version 0.0"},
      {"v2_short_preamble", file(2, "", "").substr(0, 11), errc::bad_npy, "too short"},
      {"header_len_past_end", file(1, good, "", 4000), errc::bad_npy, "truncated"},
      {"header_len_huge_v2", file(2, good, six_floats, 0xffffffffLL), errc::bad_npy, "exceeds the limit"},
      {"header_len_huge_v3", file(3, good, six_floats, 0x7fffffffLL), errc::bad_npy, "exceeds the limit"},
      {"header_len_zero", file(1, good, six_floats, 0), errc::bad_npy, "expected '{'"},
      {"header_len_short", file(1, good, six_floats, 20), errc::bad_npy, "header dict"},
      {"no_brace", file(1, "'descr': '<f4'\n", ""), errc::bad_npy, "expected '{'"},
      bad_dict_text("no_closing_brace", "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)\n", "expected '}'"),
      bad_dict_text("missing_shape", "{'descr': '<f4', 'fortran_order': False}\n", "'shape' is missing"),
      bad_dict_text("missing_descr", "{'fortran_order': False, 'shape': (2, 3)}\n", "'descr' is missing"),
      bad_dict_text("missing_order", "{'descr': '<f4', 'shape': (2, 3)}\n", "'fortran_order' is missing"),
      bad_dict_text("extra_key", "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), 'x': 1}\n",
                    "unexpected key 'x'"),
      bad_dict_text("duplicate_key", "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)}\n",
                    "appears twice"),
      bad_order("order_not_bool", "'yes'"),
      bad_shape_text("shape_negative", "(-2, 3)", "negative extent"),
      bad_shape_text("shape_not_tuple", "(6)", "not a tuple"),
      bad_shape_text("shape_list", "[2, 3]", "expected '('"),
      bad_shape_text("shape_float", "(2.0, 3)", "expected ')'"),
      bad_shape_text("shape_too_big_int", "(99999999999999999999,)", "does not fit in 64 bits"),
      bad_shape_text("shape_count_overflow", "(4294967296, 4294967296)", "more elements than fit"),
      {"shape_bytes_overflow", file(1, dict("<f8", "(4611686018427387904,)"), six_floats), errc::bad_npy,
       "more bytes than fit"},
      {"shape_empty_but_overflowing", file(1, dict("<f4", "(0, 4294967296, 4294967296)"), ""), errc::bad_npy,
       "more elements than fit"},
      {"shape_empty_but_bytes_overflow", file(1, dict("<f8", "(4611686018427387904, 0)"), ""), errc::bad_npy,
       "more bytes than fit"},
      {"shape_huge_truncated", file(1, dict("<f8", "(1000000000000,)"), six_floats), errc::bad_npy, "truncated"},
      {"data_short", file(1, good, six_floats.substr(0, 20)), errc::bad_npy, "truncated"},
      {"data_long", file(1, good, six_floats + "xyz"), errc::bad_npy, "bytes after the 24 data bytes"},
      {"scalar_no_data", file(1, dict("<f8", "()"), ""), errc::bad_npy, "truncated"},
      {"rank_17", file(1, dict("<f4", "(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)"), "\0\0\0\0"),
       errc::bad_shape, "more than 16 dims"},
      bad_descr("descr_garbage", "zz"),
      bad_descr("descr_empty", ""),
      bad_dict_text("descr_not_string", "{'descr': 4, 'fortran_order': False, 'shape': (2, 3)}\n", "quoted string"),
      unsupported("descr_complex", "<c8", "(2, 3)", 48, "complex"),
      unsupported("descr_unicode", "<U4", "(2, 3)", 96, "unicode"),
      unsupported("descr_f16_bytes", "<f16", "(2, 3)", 96, "not a dtype argx reduces"),
      {"descr_structured", file(1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2, 3)}\n", six_floats),
       errc::unsupported_dtype, "structured"},
      unsupported("descr_void2", "|V2", "(2, 3)", 12, "--bf16"),
      // Real numpy dtypes argx does not reduce, named as numpy names them.
      unsupported("descr_datetime", "<M8[ns]", "(2, 3)", 48, "datetime64[ns]"),
      unsupported("descr_datetime_generic", "<M8", "(2, 3)", 48, "datetime64)"),
      unsupported("descr_timedelta", "<m8[s]", "(2, 3)", 48, "timedelta64[s]"),
      unsupported("descr_timedelta_multiple", "<m8[25h]", "(2, 3)", 48, "timedelta64[25h]"),
      unsupported("descr_object", "|O", "(2, 3)", 48, "object"),
      unsupported("descr_bytes", "|S5", "(2, 3)", 30, "byte string"),
      unsupported("descr_unicode_long", "<U1000", "(1,)", 4000, "unicode"),
      unsupported("descr_void16", "|V16", "(1,)", 16, "void"),
      unsupported("descr_longdouble_code", "<g", "(1,)", 16, "float128"),
      unsupported("descr_complex_code", "<D", "(1,)", 16, "complex128"),
      // Strings numpy does not read as a dtype either.
      bad_descr("descr_int3", "<i3"),
      bad_descr("descr_bool2", "|b2"),
      bad_descr("descr_u_alone", "<u"),
      bad_descr("descr_order_alone", "<"),
      bad_descr("descr_code_and_junk", "<ix"),
      bad_descr("descr_unit_without_size", "<M[ns]"),
      bad_descr("descr_bad_unit", "<M8[xx]"),
      bad_descr("descr_unit_on_int", "<i8[ns]"),
      bad_descr("descr_unclosed_unit", "<M8[ns"),
      bad_descr("descr_huge_size", "|S9999999999999999999"),
      bad_descr("descr_space", " <f4"),
      // Dicts a hostile or careless writer produces.
      bad_order("order_lowercase", "false"),
      bad_order("order_none", "None"),
      bad_shape_text("shape_nested", "((2, 3),)", "expected an integer"),
      bad_shape_text("shape_none", "None", "expected '('"),
      bad_shape_text("shape_string", "'(2, 3)'", "expected '('"),
      bad_shape_text("shape_plus_sign", "(+2, 3)", "expected an integer"),
      bad_shape_text("shape_hex", "(0x2, 3)", "expected ')'"),
      bad_shape_text("shape_double_comma", "(2,, 3)", "expected an integer"),
      bad_shape_text("shape_unclosed", "(2, 3", "expected an integer"),
      bad_shape_text("shape_lone_comma", "(,)", "expected an integer"),
      bad_dict_text("dict_double_comma", "{'descr': '<f4',, 'fortran_order': False, 'shape': (2, 3)}\n",
                    "quoted string as a key"),
      bad_dict_text("dict_missing_colon", "{'descr' '<f4', 'fortran_order': False, 'shape': (2, 3)}\n", "expected ':'"),
      bad_dict_text("key_unquoted", "{descr: '<f4', 'fortran_order': False, 'shape': (2, 3)}\n",
                    "quoted string as a key"),
      bad_dict_text("descr_dict", "{'descr': {'names': ['a']}, 'fortran_order': False, 'shape': (2, 3)}\n",
                    "quoted string as the value of 'descr'"),
      {"magic_only", std::string("\x93NUMPY", 6), errc::bad_npy, "too short"},
      {"v3_utf8_header", file(3, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)} \xc3\xa9\n", six_floats),
       errc::bad_npy, "not printable ASCII"},
      bad_dict_text("unterminated_string", "{'descr': '<f4}\n", "unterminated string"),
      bad_dict_text("string_runs_on", "{'descr': '<f4, 'fortran_order': False, 'shape': (2, 3)}\n", "expected '}'"),
      bad_dict_text("escape_in_string", "{'descr': '<f\\x34', 'fortran_order': False, 'shape': (2, 3)}\n", "escape"),
      {"text_after_dict", file(1, good + "junk\n", six_floats), errc::bad_npy, "after the closing"},
      {"nul_in_header", file(1, std::string("{'descr': '<f4'") + '\0' + ", 'fortran_order': False, 'shape': (2, 3)}\n",
                             six_floats),
       errc::bad_npy, "not printable ASCII"},
      bad_dict_text("high_byte_in_header", "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)}\xff\n",
                    "not printable ASCII"),
  };
  return c;
}

}  // namespace argx::npy::catalogue
