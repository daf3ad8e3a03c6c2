// A catalogue of malformed, truncated, lying and unsupported .npy files, each with the
// error code and a fragment of the message the reader must give. Shared by the reader's
// unit test, the CLI test and the fuzzer's seed corpus.
#pragma once

#include <cstdint>
#include <string>
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
      {"no_closing_brace", file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)\n", six_floats),
       errc::bad_npy, "expected '}'"},
      {"missing_shape", file(1, "{'descr': '<f4', 'fortran_order': False}\n", six_floats), errc::bad_npy,
       "'shape' is missing"},
      {"missing_descr", file(1, "{'fortran_order': False, 'shape': (2, 3)}\n", six_floats), errc::bad_npy,
       "'descr' is missing"},
      {"missing_order", file(1, "{'descr': '<f4', 'shape': (2, 3)}\n", six_floats), errc::bad_npy,
       "'fortran_order' is missing"},
      {"extra_key", file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), 'x': 1}\n", six_floats),
       errc::bad_npy, "unexpected key 'x'"},
      {"duplicate_key", file(1, "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)}\n", six_floats),
       errc::bad_npy, "appears twice"},
      {"order_not_bool", file(1, dict("<f4", "(2, 3)", "'yes'"), six_floats), errc::bad_npy, "True or False"},
      {"shape_negative", file(1, dict("<f4", "(-2, 3)"), six_floats), errc::bad_npy, "negative extent"},
      {"shape_not_tuple", file(1, dict("<f4", "(6)"), six_floats), errc::bad_npy, "not a tuple"},
      {"shape_list", file(1, dict("<f4", "[2, 3]"), six_floats), errc::bad_npy, "expected '('"},
      {"shape_float", file(1, dict("<f4", "(2.0, 3)"), six_floats), errc::bad_npy, "expected ')'"},
      {"shape_too_big_int", file(1, dict("<f4", "(99999999999999999999,)"), six_floats), errc::bad_npy,
       "does not fit in 64 bits"},
      {"shape_count_overflow", file(1, dict("<f4", "(4294967296, 4294967296)"), six_floats), errc::bad_npy,
       "more elements than fit"},
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
      {"descr_garbage", file(1, dict("zz", "(2, 3)"), six_floats), errc::bad_npy, "not a dtype descriptor"},
      {"descr_empty", file(1, dict("", "(2, 3)"), six_floats), errc::bad_npy, "not a dtype descriptor"},
      {"descr_not_string", file(1, "{'descr': 4, 'fortran_order': False, 'shape': (2, 3)}\n", six_floats),
       errc::bad_npy, "quoted string"},
      {"descr_complex", file(1, dict("<c8", "(2, 3)"), std::string(48, '\0')), errc::unsupported_dtype, "complex"},
      {"descr_unicode", file(1, dict("<U4", "(2, 3)"), std::string(96, '\0')), errc::unsupported_dtype, "unicode"},
      {"descr_f16_bytes", file(1, dict("<f16", "(2, 3)"), std::string(96, '\0')), errc::unsupported_dtype,
       "not a dtype argx reduces"},
      {"descr_structured", file(1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2, 3)}\n", six_floats),
       errc::unsupported_dtype, "structured"},
      {"descr_void2", file(1, dict("|V2", "(2, 3)"), std::string(12, '\0')), errc::unsupported_dtype, "--bf16"},
      // Real numpy dtypes argx does not reduce, named as numpy names them.
      {"descr_datetime", file(1, dict("<M8[ns]", "(2, 3)"), std::string(48, '\0')), errc::unsupported_dtype,
       "datetime64[ns]"},
      {"descr_datetime_generic", file(1, dict("<M8", "(2, 3)"), std::string(48, '\0')), errc::unsupported_dtype,
       "datetime64)"},
      {"descr_timedelta", file(1, dict("<m8[s]", "(2, 3)"), std::string(48, '\0')), errc::unsupported_dtype,
       "timedelta64[s]"},
      {"descr_timedelta_multiple", file(1, dict("<m8[25h]", "(2, 3)"), std::string(48, '\0')), errc::unsupported_dtype,
       "timedelta64[25h]"},
      {"descr_object", file(1, dict("|O", "(2, 3)"), std::string(48, '\0')), errc::unsupported_dtype, "object"},
      {"descr_bytes", file(1, dict("|S5", "(2, 3)"), std::string(30, '\0')), errc::unsupported_dtype, "byte string"},
      {"descr_unicode_long", file(1, dict("<U1000", "(1,)"), std::string(4000, '\0')), errc::unsupported_dtype,
       "unicode"},
      {"descr_void16", file(1, dict("|V16", "(1,)"), std::string(16, '\0')), errc::unsupported_dtype, "void"},
      {"descr_longdouble_code", file(1, dict("<g", "(1,)"), std::string(16, '\0')), errc::unsupported_dtype,
       "float128"},
      {"descr_complex_code", file(1, dict("<D", "(1,)"), std::string(16, '\0')), errc::unsupported_dtype,
       "complex128"},
      // Strings numpy does not read as a dtype either.
      {"descr_int3", file(1, dict("<i3", "(2, 3)"), six_floats), errc::bad_npy, "not a dtype descriptor"},
      {"descr_bool2", file(1, dict("|b2", "(2, 3)"), six_floats), errc::bad_npy, "not a dtype descriptor"},
      {"descr_u_alone", file(1, dict("<u", "(2, 3)"), six_floats), errc::bad_npy, "not a dtype descriptor"},
      {"descr_order_alone", file(1, dict("<", "(2, 3)"), six_floats), errc::bad_npy, "not a dtype descriptor"},
      {"descr_code_and_junk", file(1, dict("<ix", "(2, 3)"), six_floats), errc::bad_npy, "not a dtype descriptor"},
      {"descr_unit_without_size", file(1, dict("<M[ns]", "(2, 3)"), six_floats), errc::bad_npy,
       "not a dtype descriptor"},
      {"descr_bad_unit", file(1, dict("<M8[xx]", "(2, 3)"), six_floats), errc::bad_npy, "not a dtype descriptor"},
      {"descr_unit_on_int", file(1, dict("<i8[ns]", "(2, 3)"), six_floats), errc::bad_npy, "not a dtype descriptor"},
      {"descr_unclosed_unit", file(1, dict("<M8[ns", "(2, 3)"), six_floats), errc::bad_npy, "not a dtype descriptor"},
      {"descr_huge_size", file(1, dict("|S9999999999999999999", "(2, 3)"), six_floats), errc::bad_npy,
       "not a dtype descriptor"},
      {"descr_space", file(1, dict(" <f4", "(2, 3)"), six_floats), errc::bad_npy, "not a dtype descriptor"},
      // Dicts a hostile or careless writer produces.
      {"order_lowercase", file(1, dict("<f4", "(2, 3)", "false"), six_floats), errc::bad_npy, "True or False"},
      {"order_none", file(1, dict("<f4", "(2, 3)", "None"), six_floats), errc::bad_npy, "True or False"},
      {"shape_nested", file(1, dict("<f4", "((2, 3),)"), six_floats), errc::bad_npy, "expected an integer"},
      {"shape_none", file(1, dict("<f4", "None"), six_floats), errc::bad_npy, "expected '('"},
      {"shape_string", file(1, dict("<f4", "'(2, 3)'"), six_floats), errc::bad_npy, "expected '('"},
      {"shape_plus_sign", file(1, dict("<f4", "(+2, 3)"), six_floats), errc::bad_npy, "expected an integer"},
      {"shape_hex", file(1, dict("<f4", "(0x2, 3)"), six_floats), errc::bad_npy, "expected ')'"},
      {"shape_double_comma", file(1, dict("<f4", "(2,, 3)"), six_floats), errc::bad_npy, "expected an integer"},
      {"shape_unclosed", file(1, dict("<f4", "(2, 3"), six_floats), errc::bad_npy, "expected an integer"},
      {"shape_lone_comma", file(1, dict("<f4", "(,)"), six_floats), errc::bad_npy, "expected an integer"},
      {"dict_double_comma", file(1, "{'descr': '<f4',, 'fortran_order': False, 'shape': (2, 3)}\n", six_floats),
       errc::bad_npy, "quoted string as a key"},
      {"dict_missing_colon", file(1, "{'descr' '<f4', 'fortran_order': False, 'shape': (2, 3)}\n", six_floats),
       errc::bad_npy, "expected ':'"},
      {"key_unquoted", file(1, "{descr: '<f4', 'fortran_order': False, 'shape': (2, 3)}\n", six_floats), errc::bad_npy,
       "quoted string as a key"},
      {"descr_dict", file(1, "{'descr': {'names': ['a']}, 'fortran_order': False, 'shape': (2, 3)}\n", six_floats),
       errc::bad_npy, "quoted string as the value of 'descr'"},
      {"magic_only", std::string("\x93NUMPY", 6), errc::bad_npy, "too short"},
      {"v3_utf8_header", file(3, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)} \xc3\xa9\n", six_floats),
       errc::bad_npy, "not printable ASCII"},
      {"unterminated_string", file(1, "{'descr': '<f4}\n", six_floats), errc::bad_npy, "unterminated string"},
      {"string_runs_on", file(1, "{'descr': '<f4, 'fortran_order': False, 'shape': (2, 3)}\n", six_floats),
       errc::bad_npy, "expected '}'"},
      {"escape_in_string", file(1, "{'descr': '<f\\x34', 'fortran_order': False, 'shape': (2, 3)}\n", six_floats),
       errc::bad_npy, "escape"},
      {"text_after_dict", file(1, good + "junk\n", six_floats), errc::bad_npy, "after the closing"},
      {"nul_in_header", file(1, std::string("{'descr': '<f4'") + '\0' + ", 'fortran_order': False, 'shape': (2, 3)}\n",
                             six_floats),
       errc::bad_npy, "not printable ASCII"},
      {"high_byte_in_header", file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)}\xff\n", six_floats),
       errc::bad_npy, "not printable ASCII"},
  };
  return c;
}

}  // namespace argx::npy::catalogue
