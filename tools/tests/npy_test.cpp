// The .npy reader and writer: round trips of every dtype, version, order and byte order;
// exact header bytes; Fortran views without copies; the malformed-file catalogue; the type
// strings numpy reads; mapped reads and slabs; FIFOs; writes that fail without losing anything.
#include <doctest/doctest.h>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
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
          const int d = dim < 0 ? dim + 3 : dim;
          CHECK(gather(slab.view()) == gather(whole.sliced(d, b, e)));
          // One run of little-endian elements (a range of the slowest dim in storage order, or
          // a whole dim) is mapped in place; anything else is a copy in host order.
          const bool one_run = d == (opt.fortran_order ? 2 : 0) || (b == 0 && e == n);
          CHECK(slab.bytes.mapped() == (one_run && !opt.big_endian && e > b));
          CHECK(slab.byte_swapped == opt.big_endian);
        }
    }
  }
  auto code_of = [&](auto&& f) -> std::optional<errc> {
    try {
      f();
    } catch (const argx::error& e) {
      return e.code();
    }
    return std::nullopt;
  };
  CHECK(code_of([&] { (void)npy::read_slab(path, 3, 0, 1); }) == errc::bad_dim);
  CHECK(code_of([&] { (void)npy::read_slab(path, 0, 2, 4); }) == errc::bad_argument);
  CHECK(code_of([&] { (void)npy::read_slab(path, 0, 2, 1); }) == errc::bad_argument);
  CHECK(code_of([&] { (void)npy::read_slab((dir.path / "missing.npy").string(), 0, 0, 1); }) == errc::io_failure);
  std::ofstream((dir.path / "short.npy").string(), std::ios::binary) << std::string("\x93NUMPY\x01\x00", 8);
  CHECK(code_of([&] { (void)npy::read_slab((dir.path / "short.npy").string(), 0, 0, 1); }) == errc::bad_npy);
}

TEST_CASE("the type strings numpy reads are read as numpy reads them") {
  using npy::catalogue::dict;
  using npy::catalogue::file;
  struct expect {
    const char* descr;
    dtype type;
    bool big_endian;
  };
  // np.dtype(descr) for each, on a 64-bit Linux (where 'l' and 'p' are 8 bytes).
  const expect cases[] = {
      {"<i", dtype::i32, false},  {"<e", dtype::f16, false},  {"<d", dtype::f64, false}, {"<f", dtype::f32, false},
      {"f", dtype::f32, false},   {"<h", dtype::i16, false},  {"<H", dtype::u16, false}, {"<I", dtype::u32, false},
      {"<l", dtype::i64, false},  {"<L", dtype::u64, false},  {"<q", dtype::i64, false}, {"<Q", dtype::u64, false},
      {"<p", dtype::i64, false},  {"<P", dtype::u64, false},  {"|b", dtype::i8, false},  {"|B", dtype::u8, false},
      {"?", dtype::boolean, false}, {"|b1", dtype::boolean, false}, {">i", dtype::i32, true}, {">d", dtype::f64, true},
      {"=f8", dtype::f64, false}, {"|i8", dtype::i64, false}, {">u1", dtype::u8, false},  {"<f2", dtype::f16, false},
  };
  for (const auto& c : cases) {
    CAPTURE(c.descr);
    const std::size_t size = argx::size_of(c.type);
    std::string data(2 * size, '\0');
    data[c.big_endian ? 2 * size - 1 : size] = 1;  // element 1 holds the smallest nonzero pattern
    const npy::array a = npy::parse(bytes_of(file(1, dict(c.descr, "(2,)"), data)));
    CHECK(a.type == c.type);
    CHECK(a.byte_swapped == c.big_endian);
    CHECK(a.bytes[size] == 1);  // host order after conversion
    CHECK(argx::argmax(argx::seq, a.view()).indices[0] == 1);  // 0 against the smallest positive element
  }
  // With the bf16 option, numpy's 2-byte unsigned code reads as bfloat16 like '<u2'.
  CHECK(npy::parse(bytes_of(file(1, dict("<H", "(1,)"), std::string(2, '\0'))), {.bf16 = true}).type == dtype::bf16);
}

namespace {

// A .npy file on disk; its bytes written by the test.
std::string put_file(const temp_dir& dir, const std::string& name, const std::string& bytes) {
  const auto path = (dir.path / name).string();
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

std::vector<std::string> names_in(const std::filesystem::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

// Runs setup() and then f() in a child process and returns the error code f raised, or
// "none" ("setup" when setup failed).
std::string code_in_child(const std::function<bool()>& setup, const std::function<void()>& f) {
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    if (!setup()) ::_exit(102);
    int status = 100;
    try {
      f();
    } catch (const argx::error& e) {
      status = static_cast<int>(e.code());
    } catch (...) {
      status = 101;
    }
    ::_exit(status);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  const int code = WEXITSTATUS(status);
  return code == 100 ? "none" : code == 101 ? "foreign" : code == 102 ? "setup" : argx::to_string(static_cast<errc>(code));
}

// f in a child whose files may not grow past `limit` bytes: as on a full disk, writes fail
// (EFBIG).
std::string code_with_file_size_limit(rlim_t limit, const std::function<void()>& f) {
  return code_in_child(
      [&] {
        std::signal(SIGXFSZ, SIG_IGN);
        const struct rlimit rl{limit, limit};
        return ::setrlimit(RLIMIT_FSIZE, &rl) == 0;
      },
      f);
}

// f in a child without root's right to write any file (user and group nobody when root).
std::string code_as_unprivileged(const std::function<void()>& f) {
  return code_in_child([] { return ::geteuid() != 0 || (::setgid(65534) == 0 && ::setuid(65534) == 0); }, f);
}

}  // namespace

TEST_CASE("read maps little-endian data in place and copies only what it must") {
  temp_dir dir;
  const std::int32_t v[6] = {5, -1, 9, 9, 0, 3};
  const auto path = (dir.path / "aligned.npy").string();
  npy::write(path, argx::make_view(v, {2, 3}));
  const npy::array a = npy::read(path);
  CHECK(a.bytes.mapped());
  CHECK(a.view().data == a.bytes.data());
  CHECK(std::memcmp(a.bytes.data(), v, sizeof v) == 0);
  CHECK(argx::argmax(argx::seq, a.view(), {.dims = {1}}).indices == std::vector<std::int64_t>{2, 0});
  const npy::array copy = a;  // copies share the mapping, which outlives the original
  CHECK(copy.bytes.data() == a.bytes.data());

  // Big-endian data is converted, so it cannot stay mapped.
  npy::write((dir.path / "big.npy").string(), argx::make_view(v, {6}), {.big_endian = true});
  const npy::array b = npy::read((dir.path / "big.npy").string());
  CHECK_FALSE(b.bytes.mapped());
  CHECK(std::memcmp(b.bytes.data(), v, sizeof v) == 0);

  // A hand-written header of odd length leaves the data misaligned for its elements: copied.
  using npy::catalogue::file;
  const std::string odd_dict = "{'descr': '<i4', 'fortran_order': False, 'shape': (6,)}\n";  // 56 bytes + 10 = 66
  REQUIRE((10 + odd_dict.size()) % 4 != 0);
  const auto odd = put_file(dir, "odd.npy", file(1, odd_dict, std::string(reinterpret_cast<const char*>(v), sizeof v)));
  const npy::array c = npy::read(odd);
  CHECK_FALSE(c.bytes.mapped());
  CHECK(reinterpret_cast<std::uintptr_t>(c.bytes.data()) % 4 == 0);
  CHECK(std::memcmp(c.bytes.data(), v, sizeof v) == 0);
}

TEST_CASE("read_header reads the header only, and a file larger than memory is mapped, not read") {
  temp_dir dir;
  // A sparse file of 2^36 + 1 bytes (64 GiB of zeros, costing no disk): its header says
  // (2^36 + 1,) uint8. read_header must answer at once; read maps it without reading.
  const std::int64_t n = (std::int64_t(1) << 36) + 1;
  const auto path = (dir.path / "huge.npy").string();
  const std::string dict = npy::catalogue::dict("|u1", "(" + std::to_string(n) + ",)");
  std::string padded = dict.substr(0, dict.size() - 1);
  padded.resize(128 - 10 - 1, ' ');
  padded += '\n';
  { std::ofstream(path, std::ios::binary | std::ios::trunc) << npy::catalogue::file(1, padded, ""); }
  REQUIRE(::truncate(path.c_str(), 128 + n) == 0);

  const npy::header h = npy::read_header(path);
  CHECK(h.extents == argx::shape{n});
  CHECK(h.data_offset == 128);
  const npy::array a = npy::read(path);
  CHECK(a.bytes.mapped());
  CHECK(a.bytes.size() == static_cast<std::size_t>(n));
  CHECK(a.bytes[0] == 0);
  CHECK(a.bytes[static_cast<std::size_t>(n - 1)] == 0);
}

TEST_CASE("a FIFO is refused at once, not waited on") {
  temp_dir dir;
  const auto path = (dir.path / "fifo.npy").string();
  REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
  ::alarm(20);  // a hang ends the test (SIGALRM) instead of the suite
  for (auto f : {+[](const std::string& p) { (void)npy::read(p); }, +[](const std::string& p) { (void)npy::read_header(p); },
                 +[](const std::string& p) { (void)npy::read_slab(p, 0, 0, 1); }}) {
    try {
      f(path);
      FAIL("a FIFO was read");
    } catch (const argx::error& e) {
      CHECK(e.code() == errc::io_failure);
      CHECK(std::string(e.what()).find("not a regular file") != std::string::npos);
    }
  }
  ::alarm(0);
}

TEST_CASE("a failed write leaves the previous file untouched and no temporary behind") {
  temp_dir dir;
  const auto path = (dir.path / "out.npy").string();
  const std::int64_t old_values[3] = {7, 8, 9};
  npy::write(path, argx::make_view(old_values, {3}));
  const std::string before = slurp(path);
  std::vector<std::int64_t> big(4096, 1);  // 32 KiB: more than the limit below allows
  CHECK(code_with_file_size_limit(8192, [&] { npy::write(path, argx::make_view(big)); }) == "io_failure");
  CHECK(slurp(path) == before);
  CHECK(names_in(dir.path) == std::vector<std::string>{"out.npy"});

  // Two files: the second one fails, so neither is replaced; then both succeed together.
  const auto other = (dir.path / "values.npy").string();
  npy::write(other, argx::make_view(old_values, {3}));
  const std::string other_before = slurp(other);
  const std::int64_t small_values[2] = {1, 2};
  const std::vector<npy::output_file> both = {{path, argx::make_view(small_values, {2})}, {other, argx::make_view(big)}};
  CHECK(code_with_file_size_limit(8192, [&] { npy::write(both); }) == "io_failure");
  CHECK(slurp(path) == before);
  CHECK(slurp(other) == other_before);
  CHECK(names_in(dir.path) == std::vector<std::string>{"out.npy", "values.npy"});
  npy::write(both);
  CHECK(npy::read(path).extents == argx::shape{2});
  CHECK(npy::read(other).extents == argx::shape{4096});
  CHECK(names_in(dir.path) == std::vector<std::string>{"out.npy", "values.npy"});
}

TEST_CASE("write: links are written through, permissions kept, devices written in place, duplicates refused") {
  temp_dir dir;
  const std::int16_t v[2] = {3, 4};
  const auto target = (dir.path / "target.npy").string(), link = (dir.path / "link.npy").string();
  npy::write(target, argx::make_view(v, {1}));
  REQUIRE(::chmod(target.c_str(), 0640) == 0);
  std::filesystem::create_symlink("target.npy", link);
  npy::write(link, argx::make_view(v, {2}));
  CHECK(std::filesystem::is_symlink(link));
  CHECK(npy::read(target).extents == argx::shape{2});
  struct stat st;
  REQUIRE(::stat(target.c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0640);
  CHECK(npy::destination(link) == npy::destination(target));
  // A file we may not write is not replaced, even in a directory we may write.
  REQUIRE(::chmod(dir.path.c_str(), 0777) == 0);
  REQUIRE(::chmod(target.c_str(), 0444) == 0);
  CHECK(code_as_unprivileged([&] { npy::write(link, argx::make_view(v, {1})); }) == "io_failure");
  CHECK(npy::read(target).extents == argx::shape{2});
  REQUIRE(::chmod(target.c_str(), 0640) == 0);
  CHECK(npy::destination("/dev/null").empty());
  npy::write("/dev/null", argx::make_view(v, {2}));

  // The same file twice (here through the link) is refused before anything is written.
  const std::string before = slurp(target);
  const std::vector<npy::output_file> twice = {{target, argx::make_view(v, {1})}, {link, argx::make_view(v, {1})}};
  try {
    npy::write(twice);
    FAIL("the same file was written twice");
  } catch (const argx::error& e) {
    CHECK(e.code() == errc::bad_argument);
  }
  CHECK(slurp(target) == before);
  // A directory or a missing directory is no place for a file.
  for (const std::string& bad : {dir.path.string(), (dir.path / "missing" / "x.npy").string(), dir.path.string() + "/."}) {
    CAPTURE(bad);
    try {
      (void)npy::destination(bad);
      FAIL("accepted");
    } catch (const argx::error& e) {
      CHECK(e.code() == errc::io_failure);
    }
  }
  CHECK(names_in(dir.path) == std::vector<std::string>{"link.npy", "target.npy"});
}
