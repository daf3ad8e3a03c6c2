// The .npy reader and writer: round trips of every dtype, version, order and byte order;
// exact header bytes; Fortran views without copies; the malformed-file catalogue.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <span>

#include <argx/argx.hpp>

#include "malformed_npy.hpp"
#include "npy.hpp"
#include "slab.hpp"

namespace npy = argx::npy;
using argx::dtype;
using argx::errc;

namespace {

std::span<const unsigned char> bytes_of(const std::string& s) {
  return {reinterpret_cast<const unsigned char*>(s.data()), s.size()};
}
std::span<const unsigned char> bytes_of(const std::vector<unsigned char>& v) { return {v.data(), v.size()}; }

// The elements of a view gathered in C order, as raw bytes.
std::vector<unsigned char> gather(const argx::tensor_view& v) {
  const std::size_t elem = argx::size_of(v.type);
  std::int64_t count = 1;
  for (auto e : v.extents) count *= e;
  std::vector<unsigned char> out;
  for (std::int64_t n = 0; n < count; ++n) {
    std::int64_t rest = n, off = 0;
    for (int d = v.rank() - 1; d >= 0; --d) {
      off += (rest % v.extents[d]) * v.strides[d];
      rest /= v.extents[d];
    }
    const auto* p = static_cast<const unsigned char*>(v.data) + off * static_cast<std::int64_t>(elem);
    out.insert(out.end(), p, p + elem);
  }
  return out;
}

struct temp_dir {
  std::filesystem::path path;
  temp_dir() {
    char tmpl[] = "/tmp/argx-npy-test-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~temp_dir() { std::filesystem::remove_all(path); }
};

errc code_of_parse(const std::string& file, std::string* message = nullptr, npy::read_options opt = {}) {
  try {
    (void)npy::parse(bytes_of(file), opt);
  } catch (const argx::error& e) {
    if (message) *message = e.what();
    return e.code();
  }
  FAIL("parse accepted a malformed file");
  return errc::bad_argument;
}

}  // namespace

TEST_CASE("every dtype round-trips through every version, order and byte order") {
  const argx::shape shapes[] = {{}, {0}, {7}, {2, 3}, {3, 0, 2}, {2, 3, 4}};
  for (int t = 0; t < argx::dtype_count; ++t) {
    const auto type = static_cast<dtype>(t);
    for (const auto& extents : shapes) {
      std::int64_t count = 1;
      for (auto e : extents) count *= e;
      std::vector<unsigned char> data(static_cast<std::size_t>(count) * argx::size_of(type));
      for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<unsigned char>(i * 37 + t);
      const auto view = argx::make_view(data.data(), type, extents, argx::contiguous_strides(extents));
      for (int version = 1; version <= 3; ++version)
        for (bool fortran : {false, true})
          for (bool big : {false, true}) {
            if (big && type == dtype::bf16) continue;
            CAPTURE(t); CAPTURE(version); CAPTURE(fortran); CAPTURE(big); CAPTURE(extents.size());
            const auto file = npy::serialize(view, {.fortran_order = fortran, .big_endian = big, .version = version});
            CHECK(file[6] == version);
            const npy::array a = npy::parse(bytes_of(file));
            CHECK(a.type == type);
            CHECK(a.extents == extents);
            CHECK(a.fortran_order == fortran);
            CHECK(a.byte_swapped == (big && argx::size_of(type) > 1));
            CHECK(gather(a.view()) == data);
          }
    }
  }
}

TEST_CASE("the header is byte for byte what numpy writes") {
  const float x[6] = {};
  const auto file = npy::serialize(argx::make_view(x, {2, 3}));
  const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  REQUIRE(file.size() == 128 + 24);
  CHECK(std::string(file.begin(), file.begin() + 10) == std::string("\x93NUMPY\x01\x00\x76\x00", 10));
  CHECK(std::string(file.begin() + 10, file.begin() + 10 + dict.size()) == dict);
  CHECK(std::string(file.begin() + 10 + dict.size(), file.begin() + 127) == std::string(127 - 10 - dict.size(), ' '));
  CHECK(file[127] == '\n');

  const std::int64_t one[1] = {};
  const auto f1 = npy::serialize(argx::make_view(one, {1}));
  const std::string d1 = "{'descr': '<i8', 'fortran_order': False, 'shape': (1,), }";
  CHECK(std::string(f1.begin() + 10, f1.begin() + 10 + d1.size()) == d1);
  const bool b = true;
  const auto f0 = npy::serialize(argx::make_view(&b, {}));
  const std::string d0 = "{'descr': '|b1', 'fortran_order': False, 'shape': (), }";
  CHECK(std::string(f0.begin() + 10, f0.begin() + 10 + d0.size()) == d0);
  CHECK(f0.size() == 129);
  CHECK(f0[127] == '\n');
  CHECK(f0[128] == 1);
}

TEST_CASE("a Fortran-order file is viewed with Fortran strides, without a copy") {
  // Column-major storage of [[0, 1, 2], [3, 4, 5]] is 0 3 1 4 2 5.
  const std::string data("\x00\x03\x01\x04\x02\x05", 6);
  const npy::array a = npy::parse(bytes_of(npy::catalogue::file(1, npy::catalogue::dict("|u1", "(2, 3)", "True"), data)));
  const argx::tensor_view v = a.view();
  CHECK(v.data == a.bytes.data());
  CHECK(v.strides == argx::shape{1, 2});
  CHECK(std::string(a.bytes.begin(), a.bytes.end()) == data);
  const auto rows = argx::argmax(argx::seq, v, {.dims = {1}});
  CHECK(rows.indices == std::vector<std::int64_t>{2, 2});
  CHECK(rows.value<std::uint8_t>(1) == 5);
  const auto all = argx::argmin(argx::seq, v);
  CHECK(all.indices == std::vector<std::int64_t>{0});
}

TEST_CASE("big-endian data is converted to host order") {
  const std::string data("\x00\x00\x01\x02\xff\xff\xff\xfe", 8);
  const npy::array a = npy::parse(bytes_of(npy::catalogue::file(1, npy::catalogue::dict(">i4", "(2,)"), data)));
  CHECK(a.byte_swapped);
  std::int32_t v[2];
  std::memcpy(v, a.bytes.data(), 8);
  CHECK(v[0] == 258);
  CHECK(v[1] == -2);
}

TEST_CASE("header variants numpy accepts are accepted") {
  using npy::catalogue::file;
  const std::string two_floats(8, '\0');
  const char* dicts[] = {
      "{\"descr\": \"<f4\", \"fortran_order\": False, \"shape\": (2,)}",
      "{'shape': (2,), 'fortran_order': False, 'descr': '<f4'}\r\n",
      "{'descr':'<f4','fortran_order':False,'shape':(2,),}",
      "{'descr': 'float32', 'fortran_order': False, 'shape': (2L,), }   \n",
      "{'descr': '=f4', 'fortran_order': False, 'shape': ( 2 , ) }\t\n",
      "{'descr': '|f4', 'fortran_order': False, 'shape': (2,), }",
      "{'descr': 'f4', 'fortran_order': False, 'shape': (2,), }",
  };
  for (const char* d : dicts) {
    CAPTURE(d);
    const npy::array a = npy::parse(bytes_of(file(1, d, two_floats)));
    CHECK(a.type == dtype::f32);
    CHECK(a.extents == argx::shape{2});
  }
  CHECK(npy::parse(bytes_of(file(1, npy::catalogue::dict("<?", "(1,)"), "\x01"))).type == dtype::boolean);
  CHECK(npy::parse(bytes_of(file(1, npy::catalogue::dict(">u1", "(1,)"), "\x01"))).type == dtype::u8);
}

TEST_CASE("bfloat16: 'bfloat16' always, raw 2-byte data only when asked") {
  using npy::catalogue::dict;
  using npy::catalogue::file;
  const std::string one("\x80\x3f", 2);  // 1.0 in bfloat16
  CHECK(npy::parse(bytes_of(file(1, dict("bfloat16", "(1,)"), one))).type == dtype::bf16);
  CHECK(npy::parse(bytes_of(file(1, dict("<V2", "(1,)"), one)), {.bf16 = true}).type == dtype::bf16);
  CHECK(npy::parse(bytes_of(file(1, dict("<u2", "(1,)"), one)), {.bf16 = true}).type == dtype::bf16);
  CHECK(npy::parse(bytes_of(file(1, dict("<u2", "(1,)"), one))).type == dtype::u16);
  std::string msg;
  CHECK(code_of_parse(file(1, dict("<V2", "(1,)"), one), &msg) == errc::unsupported_dtype);
  CHECK(msg.find("--bf16") != std::string::npos);
  const argx::bfloat16 x{0x3f80};
  const auto written = npy::serialize(argx::make_view(&x, {}));
  CHECK(std::string(written.begin() + 10, written.begin() + 22) == "{'descr': 'b");
  CHECK(npy::parse(bytes_of(written)).type == dtype::bf16);
}

TEST_CASE("every malformed file in the catalogue is rejected with its code and message") {
  temp_dir dir;
  for (const auto& c : npy::catalogue::malformed()) {
    CAPTURE(c.name);
    std::string msg;
    CHECK(code_of_parse(c.bytes, &msg) == c.code);
    CHECK_MESSAGE(msg.find(c.fragment) != std::string::npos, msg);
    const auto path = (dir.path / (c.name + ".npy")).string();
    std::ofstream(path, std::ios::binary) << c.bytes;
    try {
      (void)npy::read(path);
      FAIL("read accepted a malformed file");
    } catch (const argx::error& e) {
      CHECK(e.code() == c.code);
      CHECK_MESSAGE(std::string(e.what()).find(c.fragment) != std::string::npos, e.what());
      CHECK(std::string(e.what()).find(path) != std::string::npos);
    }
  }
}

TEST_CASE("every truncation of a valid file is rejected") {
  const double x[3] = {1, 2, 3};
  const auto file = npy::serialize(argx::make_view(x, {3}));
  for (std::size_t n = 0; n < file.size(); ++n) {
    CAPTURE(n);
    CHECK(code_of_parse(std::string(file.begin(), file.begin() + n)) == errc::bad_npy);
  }
}

TEST_CASE("file errors are io_failure") {
  temp_dir dir;
  auto code_of_read = [](const std::string& p) {
    try {
      (void)npy::read(p);
    } catch (const argx::error& e) {
      return e.code();
    }
    return errc::bad_argument;
  };
  CHECK(code_of_read((dir.path / "missing.npy").string()) == errc::io_failure);
  CHECK(code_of_read(dir.path.string()) == errc::io_failure);
  const float x = 1;
  try {
    npy::write((dir.path / "no" / "such" / "dir.npy").string(), argx::make_view(&x, {}));
    FAIL("write into a missing directory succeeded");
  } catch (const argx::error& e) {
    CHECK(e.code() == errc::io_failure);
  }
}

TEST_CASE("write gathers strided views and reads back what it wrote") {
  temp_dir dir;
  const std::int16_t x[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  const auto v = argx::make_view(x, {3, 4}).transposed(0, 1).flipped(1).sliced(0, 1, 4, 2);  // shape (2, 3)
  const auto path = (dir.path / "v.npy").string();
  npy::write(path, v);
  const npy::array a = npy::read(path);
  CHECK(a.extents == argx::shape{2, 3});
  std::int16_t got[6];
  std::memcpy(got, a.bytes.data(), sizeof got);
  const std::int16_t want[6] = {9, 5, 1, 11, 7, 3};
  CHECK(std::memcmp(got, want, sizeof got) == 0);
  const auto f = npy::serialize(v, {.fortran_order = true});
  const npy::array af = npy::parse(bytes_of(f));
  CHECK(gather(af.view()) == gather(a.view()));
}

TEST_CASE("read_slab reads one range of one dim, in every order and byte order") {
  temp_dir dir;
  std::vector<std::int32_t> x(3 * 4 * 5);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<std::int32_t>(i * 7 + 1);
  const auto whole = argx::make_view(x, {3, 4, 5});
  const auto path = (dir.path / "s.npy").string();
  for (const npy::write_options opt : {npy::write_options{}, npy::write_options{.fortran_order = true},
                                       npy::write_options{.big_endian = true, .version = 2}}) {
    npy::write(path, whole, opt);
    CHECK(npy::read_header(path).extents == argx::shape{3, 4, 5});
    for (int dim = -3; dim < 3; ++dim) {
      const std::int64_t n = whole.extents[dim < 0 ? dim + 3 : dim];
      for (std::int64_t b = 0; b <= n; ++b)
        for (std::int64_t e = b; e <= n; ++e) {
          const npy::array slab = npy::read_slab(path, dim, b, e);
          INFO("fortran ", opt.fortran_order, " big-endian ", opt.big_endian, " dim ", dim, " [", b, ", ", e, ")");
          CHECK(slab.fortran_order == opt.fortran_order);
          CHECK(gather(slab.view()) == gather(whole.sliced(dim < 0 ? dim + 3 : dim, b, e)));
        }
    }
  }
  auto code_of = [&](auto&& f) {
    try {
      f();
    } catch (const argx::error& e) {
      return e.code();
    }
    return errc::bad_argument;
  };
  CHECK(code_of([&] { (void)npy::read_slab(path, 3, 0, 1); }) == errc::bad_dim);
  CHECK(code_of([&] { (void)npy::read_slab(path, 0, 2, 4); }) == errc::bad_argument);
  CHECK(code_of([&] { (void)npy::read_slab(path, 0, 2, 1); }) == errc::bad_argument);
  CHECK(code_of([&] { (void)npy::read_slab((dir.path / "missing.npy").string(), 0, 0, 1); }) == errc::io_failure);
  std::ofstream((dir.path / "short.npy").string(), std::ios::binary) << std::string("\x93NUMPY\x01\x00", 8);
  CHECK(code_of([&] { (void)npy::read_slab((dir.path / "short.npy").string(), 0, 0, 1); }) == errc::bad_npy);
}
