// The argx command-line tool, run as a user runs it: outputs checked against hand-worked
// answers, exit status 2 for usage errors and 1 for input errors (one line on stderr),
// every malformed .npy of the catalogue rejected, demo / diff / fuzz passing, and the
// defects found by probing it (crashes, lost files, hangs, vacuous comparisons) gone.
// The path of the argx binary comes in the ARGX_EXE environment variable.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <regex>
#include <sstream>

#include <argx/argx.hpp>

#include "malformed_npy.hpp"
#include "npy.hpp"

namespace fs = std::filesystem;
namespace npy = argx::npy;

namespace {

struct ran {
  int status;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

struct sandbox {
  fs::path dir;
  sandbox() {
    char tmpl[] = "/tmp/argx-cli-test-XXXXXX";
    dir = ::mkdtemp(tmpl);
  }
  ~sandbox() { fs::remove_all(dir); }
  std::string path(const std::string& name) const { return (dir / name).string(); }

  // Runs `argx ARGS` in the sandbox directory, after the shell words `prefix` (e.g.
  // "ulimit -f 8;" or "timeout 20").
  ran argx(const std::string& args, const std::string& prefix = "") const {
    const char* exe = std::getenv("ARGX_EXE");
    REQUIRE_MESSAGE(exe != nullptr, "set ARGX_EXE to the argx binary");
    const std::string cmd = "cd '" + dir.string() + "' && " + prefix + " '" + exe + "' " + args + " >stdout.txt 2>stderr.txt";
    const int raw = std::system(cmd.c_str());
    REQUIRE(WIFEXITED(raw));
    return {WEXITSTATUS(raw), slurp(dir / "stdout.txt"), slurp(dir / "stderr.txt")};
  }
};

template <class T>
std::vector<T> elements(const npy::array& a) {
  REQUIRE(a.bytes.size() % sizeof(T) == 0);
  std::vector<T> v(a.bytes.size() / sizeof(T));
  if (!v.empty()) std::memcpy(v.data(), a.bytes.data(), a.bytes.size());
  return v;
}

std::size_t lines(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

// Runs `argx ARGS` (after the shell words `prefix`) where it must fail with exit `status`
// (2: usage, 1: input or compute) and one line on stderr; returns what it printed.
ran refused_run(const sandbox& sb, const std::string& args, int status, const std::string& prefix = "") {
  const ran r = sb.argx(args, prefix);
  CHECK(r.status == status);
  CHECK(lines(r.err) == 1);
  return r;
}

// AddressSanitizer reserves terabytes of address space: limits on memory (ulimit -v, -d)
// stop a sanitized argx before it starts. The argx binary is built like this test.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool address_sanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool address_sanitized = true;
#else
constexpr bool address_sanitized = false;
#endif
#else
constexpr bool address_sanitized = false;
#endif

constexpr float nan_ = std::numeric_limits<float>::quiet_NaN();

// [[1, 3, 3], [NaN, 0, 5]]: a tie in row 0, a NaN in row 1.
const float small[6] = {1, 3, 3, nan_, 0, 5};

}  // namespace

TEST_CASE("reduce writes exactly the answers numpy gives, for every option") {
  sandbox sb;
  npy::write(sb.path("x.npy"), argx::make_view(small, {2, 3}));
  npy::write(sb.path("xf.npy"), argx::make_view(small, {2, 3}), {.fortran_order = true});
  npy::write(sb.path("xbe.npy"), argx::make_view(small, {2, 3}), {.big_endian = true});

  struct expect {
    std::string options;
    argx::shape extents;
    std::vector<std::int64_t> indices;
  };
  const expect cases[] = {
      {"--dim 1", {2}, {1, 0}},
      {"--dim -1 --ties last", {2}, {2, 0}},
      {"--dim 1 --nan ignore", {2}, {1, 2}},
      {"--dim 1 --op argmin", {2}, {0, 0}},
      {"--dim 1 --op argmin --nan ignore", {2}, {0, 1}},
      {"--dim 0", {3}, {1, 0, 1}},
      {"--dim 0 --nan ignore", {3}, {0, 0, 1}},
      {"--dim 1 --keepdim", {2, 1}, {1, 0}},
      {"", {}, {3}},
      {"--nan ignore", {}, {5}},
      {"--keepdim --nan=ignore", {1, 1}, {5}},
      {"--dim 0 --dim 1 --op argmin --nan ignore", {}, {4}},
      {"--dim 1 --abs --op argmin --nan ignore", {2}, {0, 1}},
      {"--transpose 0,1 --dim 0", {2}, {1, 0}},
      {"--flip 1 --dim 1", {2}, {0, 2}},
      {"--slice 1:1:3 --dim 1", {2}, {0, 1}},
  };
  for (const char* input : {"x.npy", "xf.npy", "xbe.npy"})
    for (const char* backend : {"seq", "auto"})
      for (const auto& c : cases) {
        CAPTURE(input); CAPTURE(backend); CAPTURE(c.options);
        const ran r = sb.argx(std::string("reduce ") + input + " -o out.npy --backend " + backend + " " + c.options);
        REQUIRE_MESSAGE(r.status == 0, r.err);
        const npy::array out = npy::read(sb.path("out.npy"));
        CHECK(out.type == argx::dtype::i64);
        CHECK(out.extents == c.extents);
        CHECK(elements<std::int64_t>(out) == c.indices);
      }
}

TEST_CASE("reduce: values, int32 indices, bfloat16, broadcast views and timing") {
  sandbox sb;
  npy::write(sb.path("x.npy"), argx::make_view(small, {2, 3}));
  ran r = sb.argx("reduce x.npy -o i.npy --dim 1 --index-type int32 --values v.npy");
  REQUIRE_MESSAGE(r.status == 0, r.err);
  const npy::array i = npy::read(sb.path("i.npy")), v = npy::read(sb.path("v.npy"));
  CHECK(i.type == argx::dtype::i32);
  CHECK(elements<std::int32_t>(i) == std::vector<std::int32_t>{1, 0});
  CHECK(v.type == argx::dtype::f32);
  const auto vals = elements<std::uint32_t>(v);
  CHECK(vals == std::vector<std::uint32_t>{0x40400000u, 0x7fc00000u});  // 3.0 and the NaN's own bits

  // bfloat16: 1, 2, 2, -inf as raw 2-byte data and as the 'bfloat16' descr.
  const std::uint16_t bf[4] = {0x3f80, 0x4000, 0x4000, 0xff80};
  npy::write(sb.path("u2.npy"), argx::make_view(bf, {4}));
  npy::write(sb.path("bf.npy"), argx::make_view(reinterpret_cast<const argx::bfloat16*>(bf), {4}));
  r = sb.argx("reduce u2.npy -o i.npy --bf16 --op argmin --values v.npy");
  REQUIRE_MESSAGE(r.status == 0, r.err);
  CHECK(elements<std::int64_t>(npy::read(sb.path("i.npy"))) == std::vector<std::int64_t>{3});
  CHECK(npy::read(sb.path("v.npy")).type == argx::dtype::bf16);
  r = sb.argx("reduce bf.npy -o i.npy --ties last");
  REQUIRE_MESSAGE(r.status == 0, r.err);
  CHECK(elements<std::int64_t>(npy::read(sb.path("i.npy"))) == std::vector<std::int64_t>{2});

  // A zero-stride dim: every element of a broadcast row ties, so ties=last picks the end.
  const std::int8_t row[3] = {7, -1, 7};
  npy::write(sb.path("row.npy"), argx::make_view(row, {1, 3}));
  r = sb.argx("reduce row.npy -o i.npy --broadcast 0:5 --dim 0 --ties last");
  REQUIRE_MESSAGE(r.status == 0, r.err);
  CHECK(elements<std::int64_t>(npy::read(sb.path("i.npy"))) == std::vector<std::int64_t>{4, 4, 4});

  r = sb.argx("reduce x.npy -o i.npy --repeat 3");
  REQUIRE(r.status == 0);
  CHECK(std::regex_match(r.out, std::regex("time_ms median=[0-9.e+-]+ min=[0-9.e+-]+\n")));
}

TEST_CASE("usage errors exit 2 with one line on stderr") {
  sandbox sb;
  npy::write(sb.path("x.npy"), argx::make_view(small, {2, 3}));
  const ran bare = sb.argx("");  // bare `argx` prints the command list
  CHECK(bare.status == 2);
  CHECK(lines(bare.err) >= 1);
  const char* bad[] = {
      "frobnicate",
      "reduce",
      "reduce x.npy",
      "reduce x.npy x.npy -o o.npy",
      "reduce x.npy -o",
      "reduce x.npy -o o.npy --frob",
      "reduce x.npy -o o.npy --op maximum",
      "reduce x.npy -o o.npy --dim one",
      "reduce x.npy -o o.npy --nan skip",
      "reduce x.npy -o o.npy --ties middle",
      "reduce x.npy -o o.npy --index-type int16",
      "reduce x.npy -o o.npy --backend gpu",
      "reduce x.npy -o o.npy --repeat 0",
      "reduce x.npy -o o.npy --keepdim=yes",
      "reduce x.npy -o o.npy --slice 0:1",
      "reduce x.npy -o o.npy --transpose 0",
      "diff",
      "diff x.npy --backends seq,gpu",
      "fuzz extra",
      "fuzz --seconds -1",
      "fuzz --nan-rate 2",
      "info now",
      "demo --size 0,4",
  };
  for (const char* args : bad) {
    CAPTURE(args);
    (void)refused_run(sb, args, 2);
  }
  CHECK(!fs::exists(sb.dir / "o.npy"));
  CHECK(sb.argx("reduce --help").status == 0);
  CHECK(sb.argx("--help").status == 0);
}

TEST_CASE("input and compute errors exit 1 with one line naming the error") {
  sandbox sb;
  npy::write(sb.path("x.npy"), argx::make_view(small, {2, 3}));
  npy::write(sb.path("empty.npy"), argx::make_view(small, {2, 0}));
  struct expect {
    std::string args, code;
  };
  std::vector<expect> cases = {
      {"reduce missing.npy -o o.npy", "[io_failure]"},
      {"reduce . -o o.npy", "[io_failure]"},
      {"reduce x.npy -o no/such/dir/o.npy", "[io_failure]"},
      {"reduce x.npy -o o.npy --dim 2", "[bad_dim]"},
      {"reduce x.npy -o o.npy --dim 1 --dim -1", "[duplicate_dim]"},
      {"reduce empty.npy -o o.npy --dim 1", "[empty_reduction]"},
      {"reduce x.npy -o o.npy --broadcast 0:3", "[bad_argument]"},
      {"diff x.npy --dim 7", "[bad_dim]"},
  };
  for (argx::backend b : argx::all_backends)
    if (!argx::available(b))
      cases.push_back({"reduce x.npy -o o.npy --backend " + std::string(argx::name(b)), "[backend_unavailable]"});
  for (const auto& c : cases) {
    CAPTURE(c.args);
    const ran r = refused_run(sb, c.args, 1);
    CHECK_MESSAGE(r.err.find(c.code) != std::string::npos, r.err);
  }
  // An empty output is not an error: the kept extent 0 gives shape (0,).
  const ran r = sb.argx("reduce empty.npy -o o.npy --dim 0");
  REQUIRE_MESSAGE(r.status == 0, r.err);
  CHECK(npy::read(sb.path("o.npy")).extents == argx::shape{0});
}

TEST_CASE("every malformed .npy is rejected with exit 1 and a clear message") {
  sandbox sb;
  for (const auto& c : npy::catalogue::malformed()) {
    CAPTURE(c.name);
    std::ofstream(sb.path(c.name + ".npy"), std::ios::binary) << c.bytes;
    const ran r = refused_run(sb, "reduce " + c.name + ".npy -o o.npy", 1);
    CHECK_MESSAGE(r.err.find(c.fragment) != std::string::npos, r.err);
    CHECK_MESSAGE(r.err.find(std::string("[") + argx::to_string(c.code) + "]") != std::string::npos, r.err);
    CHECK(r.err.find(c.name + ".npy") != std::string::npos);
    CHECK(!fs::exists(sb.dir / "o.npy"));
  }
}

TEST_CASE("--version prints the library's version (meson.build's, through version.hpp)") {
  sandbox sb;
  for (const char* flag : {"--version", "-V"}) {
    const ran r = sb.argx(flag);
    CHECK(r.status == 0);
    CHECK(r.out == std::string("argx ") + argx::version_string + "\n");
  }
}

TEST_CASE("info, demo, diff and fuzz run and report agreement") {
  sandbox sb;
  ran r = sb.argx("info");
  CHECK(r.status == 0);
  CHECK(r.out.find("seq     usable") != std::string::npos);

  r = sb.argx("demo --size 64,256 --repeat 1");
  CHECK_MESSAGE(r.status == 0, r.out);
  CHECK(r.out.find("all backends agree bit for bit: yes") != std::string::npos);
  CHECK(r.out.find("argmax dim=2 nan=propagate -> [[1 1 0 0] [0 0 2 0] [0 1 0 4]]") != std::string::npos);
  CHECK(r.out.find("argmax dim=2 nan=ignore    -> [[1 3 0 0] [-1 0 0 0] [0 3 0 4]]") != std::string::npos);
  CHECK(r.out.find("timing: float32 (64, 256) without NaN") != std::string::npos);

  std::vector<double> ramp(4096);
  for (std::size_t i = 0; i < ramp.size(); ++i) ramp[i] = static_cast<double>(i % 97);
  npy::write(sb.path("ramp.npy"), argx::make_view(ramp, {64, 64}));
  r = sb.argx("diff ramp.npy --dim 0 --nan ignore --repro repro");
  CHECK_MESSAGE(r.status == 0, (r.out + r.err));
  CHECK(r.out.find("result: all") != std::string::npos);
  CHECK(r.out.find(" NO ") == std::string::npos);
  CHECK(!fs::exists(sb.dir / "repro"));

  r = sb.argx("fuzz --seconds 5 --seed 7 --quiet");
  CHECK_MESSAGE(r.status == 0, r.out);
  CHECK(r.out.find("fuzz: 0 mismatches") != std::string::npos);
  CHECK(!fs::exists(sb.dir / "argx-fuzz-repro"));

  r = sb.argx("fuzz --seed 7 --case 3");
  CHECK_MESSAGE(r.status == 0, r.out);
  CHECK(r.out.find("case 3 of seed 7: ") != std::string::npos);
}

TEST_CASE("an output too large to address is refused, on every backend, instead of crashing") {
  sandbox sb;
  const std::int8_t one = 5;
  npy::write(sb.path("one11.npy"), argx::make_view(&one, {1, 1}));
  std::vector<std::string> backends = {"seq", "par", "auto"};
  if (argx::available(argx::backend::tbb)) backends.push_back("tbb");
  for (const auto& b : backends)
    for (const char* options : {"--broadcast 0:2305843009213693952 --dim 1",
                                "--broadcast 0:4611686018427387904 --index-type int32 --dim 1",
                                "--broadcast 0:2305843009213693952 --dim 1 --values v.npy"}) {
      CAPTURE(b); CAPTURE(options);
      const ran r = refused_run(sb, "reduce one11.npy -o b.npy --backend " + b + " " + options, 1);
      CHECK_MESSAGE(r.err.find("[shape_overflow]") != std::string::npos, r.err);
    }
  const ran d = sb.argx("diff one11.npy --broadcast 0:2305843009213693952 --dim 1");
  CHECK(d.status == 1);
  CHECK_MESSAGE(d.out.find("result: every backend raises shape_overflow") != std::string::npos, d.out);
  CHECK(!fs::exists(sb.dir / "b.npy"));
  CHECK(!fs::exists(sb.dir / "v.npy"));
}

TEST_CASE("a write that fails (a full disk) leaves the previous outputs as they were, and no temporary") {
  sandbox sb;
  std::vector<double> x(3000 * 3);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>((i * 7) % 11);
  npy::write(sb.path("x.npy"), argx::make_view(x, {3000, 3}));
  const std::int64_t previous[2] = {41, 42};
  npy::write(sb.path("out.npy"), argx::make_view(previous, {2}));
  npy::write(sb.path("val.npy"), argx::make_view(previous, {2}));
  const std::string out_before = slurp(sb.dir / "out.npy"), val_before = slurp(sb.dir / "val.npy");
  // Files may not grow past 8 blocks (4 or 8 KiB, by the shell); each output needs 24 KiB.
  for (const char* values : {"", " --values val.npy"}) {
    CAPTURE(values);
    const ran r = refused_run(sb, std::string("reduce x.npy -o out.npy --dim 1") + values, 1, "ulimit -f 8;");
    CHECK_MESSAGE(r.err.find("[io_failure]") != std::string::npos, r.err);
    CHECK(slurp(sb.dir / "out.npy") == out_before);
    CHECK(slurp(sb.dir / "val.npy") == val_before);
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(sb.dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    CHECK(names == std::vector<std::string>{"out.npy", "stderr.txt", "stdout.txt", "val.npy", "x.npy"});
  }
  // Without the limit both are replaced.
  const ran r = sb.argx("reduce x.npy -o out.npy --dim 1 --values val.npy");
  REQUIRE_MESSAGE(r.status == 0, r.err);
  CHECK(npy::read(sb.path("out.npy")).extents == argx::shape{3000});
  CHECK(npy::read(sb.path("val.npy")).type == argx::dtype::f64);
}

TEST_CASE("outputs that name the input or each other are refused before any work") {
  sandbox sb;
  npy::write(sb.path("x.npy"), argx::make_view(small, {2, 3}));
  const std::string input_before = slurp(sb.dir / "x.npy");
  fs::create_directory(sb.dir / "sub");
  fs::create_symlink("x.npy", sb.dir / "alias.npy");
  fs::create_symlink("same.npy", sb.dir / "same_link.npy");  // dangling: same.npy does not exist yet
  const char* refused[] = {
      "reduce x.npy -o same.npy --values same.npy",
      "reduce x.npy -o same.npy --values sub/../same.npy",
      "reduce x.npy -o same_link.npy --values same.npy",
      "reduce x.npy -o x.npy",
      "reduce x.npy -o i.npy --values x.npy",
      "reduce x.npy -o alias.npy",
      "reduce alias.npy -o ./x.npy --dim 1",
  };
  for (const char* args : refused) {
    CAPTURE(args);
    (void)refused_run(sb, args, 2);
    CHECK(slurp(sb.dir / "x.npy") == input_before);
    CHECK(!fs::exists(sb.dir / "same.npy"));
    CHECK(!fs::exists(sb.dir / "i.npy"));
  }
  // A path that merely looks different is written: hard links and /dev/null are fine too.
  ran r = sb.argx("reduce x.npy -o /dev/null --values /dev/null --dim 1");
  CHECK_MESSAGE(r.status == 0, r.err);
  r = sb.argx("reduce alias.npy -o sub/../i.npy --dim 1");
  CHECK_MESSAGE(r.status == 0, r.err);
  CHECK(elements<std::int64_t>(npy::read(sb.path("i.npy"))) == std::vector<std::int64_t>{1, 0});
}

TEST_CASE("--slice is numpy's x[start:stop:step]: huge steps, inverted and reversed ranges") {
  sandbox sb;
  npy::write(sb.path("x.npy"), argx::make_view(small, {2, 3}));  // [[1, 3, 3], [NaN, 0, 5]]
  struct expect {
    std::string options;
    argx::shape extents;
    std::vector<std::int64_t> indices;
  };
  const expect cases[] = {
      {"--slice 0:0:2:9223372036854775807 --dim 0", {3}, {0, 0, 0}},  // x[0:2:2**63-1]: one row
      {"--slice 1:0:3:9223372036854775807 --dim 1", {2}, {0, 0}},
      {"--slice 1:1:0 --dim 0", {0}, {}},                              // x[:, 1:0] is empty
      {"--slice 1:1::-1 --dim 1", {2}, {0, 1}},                        // x[:, 1::-1] = [[3, 1], [0, NaN]]
      {"--slice 1:::-1 --dim 1 --ties last", {2}, {1, 2}},             // x[:, ::-1]
      {"--slice 1:-2: --dim 1", {2}, {0, 1}},                          // x[:, -2:] = [[3, 3], [0, 5]]
      {"--slice 0:-100:100 --dim 0", {3}, {1, 0, 1}},                  // clamped to the whole dim
      {"--slice 1:2:-9223372036854775808:-9223372036854775808 --dim 1", {2}, {0, 0}},
  };
  for (const auto& c : cases) {
    CAPTURE(c.options);
    const ran r = sb.argx("reduce x.npy -o out.npy " + c.options);
    REQUIRE_MESSAGE(r.status == 0, r.err);
    const npy::array out = npy::read(sb.path("out.npy"));
    CHECK(out.extents == c.extents);
    CHECK(elements<std::int64_t>(out) == c.indices);
  }
  // Reducing an empty slice is numpy's "attempt to get argmax of an empty sequence".
  ran r = sb.argx("reduce x.npy -o out.npy --slice 1:1:0 --dim 1");
  CHECK(r.status == 1);
  CHECK(r.err.find("[empty_reduction]") != std::string::npos);
  r = sb.argx("reduce x.npy -o out.npy --slice 1:0:3:0");
  CHECK(r.status == 2);
  CHECK(r.err.find("cannot be zero") != std::string::npos);
}

TEST_CASE("a FIFO as input is refused at once") {
  sandbox sb;
  REQUIRE(::mkfifo(sb.path("fifo.npy").c_str(), 0600) == 0);
  for (const char* command : {"reduce fifo.npy -o o.npy", "diff fifo.npy"}) {
    CAPTURE(command);
    const ran r = sb.argx(command, "timeout 20");  // before the fix: waits for a writer forever
    CHECK(r.status == 1);
    CHECK_MESSAGE(r.err.find("not a regular file") != std::string::npos, r.err);
    CHECK(r.err.find("[io_failure]") != std::string::npos);
  }
}

TEST_CASE("a comparison needs two backends that run: diff, fuzz and demo refuse to compare nothing") {
  sandbox sb;
  npy::write(sb.path("x.npy"), argx::make_view(small, {2, 3}));
  std::vector<std::string> commands = {"diff x.npy --backends seq", "fuzz --backends seq --seconds 1",
                                       "demo --backends seq --repeat 1"};
  if (!argx::available(argx::backend::cuda))
    for (const char* c : {"diff x.npy --backends cuda,thrust", "fuzz --backends cuda --seconds 1", "demo --backends cuda"})
      commands.push_back(c);
  for (const auto& c : commands) {
    CAPTURE(c);
    const ran r = refused_run(sb, c, 1);
    CHECK_MESSAGE(r.err.find("nothing to compare") != std::string::npos, r.err);
    CHECK(r.err.find("[backend_unavailable]") != std::string::npos);
  }
}

TEST_CASE("a request is checked against the header before the data is read, and inputs are mapped") {
  sandbox sb;
  // Sparse files: (2^31 + 1,) int8 and (2^29,) uint8 of zeros with a 7 near the end.
  auto sparse = [&](const std::string& name, const char* descr, std::int64_t n, std::int64_t seven_at) {
    const std::string dict = "{'descr': '" + std::string(descr) + "', 'fortran_order': False, 'shape': (" +
                             std::to_string(n) + ",), }";
    std::string head = std::string("\x93NUMPY\x01\x00", 8) + "  " + dict;
    head.resize(127, ' ');
    head += '\n';
    head[8] = static_cast<char>(118);
    head[9] = 0;
    std::ofstream(sb.path(name), std::ios::binary) << head;
    REQUIRE(::truncate(sb.path(name).c_str(), 128 + n) == 0);
    if (seven_at >= 0) {
      std::fstream f(sb.path(name), std::ios::binary | std::ios::in | std::ios::out);
      f.seekp(128 + seven_at);
      f.put(7);
    }
  };
  const std::int64_t big = (std::int64_t(1) << 31) + 1, half_gib = std::int64_t(1) << 29;
  sparse("big.npy", "|i1", big, -1);
  sparse("half.npy", "|u1", half_gib, half_gib - 1000);
  // 1 GiB of address space cannot hold the 2 GiB input: only a check from the header answers.
  const std::string no_big_memory = address_sanitized ? "" : "ulimit -v 1048576;";
  ran r = sb.argx("reduce big.npy -o o.npy --index-type int32", no_big_memory);
  CHECK(r.status == 1);
  CHECK_MESSAGE(r.err.find("[index_overflow]") != std::string::npos, r.err);
  r = sb.argx("reduce big.npy -o o.npy --slice 0:::-1 --dim 0 --index-type int32", no_big_memory);
  CHECK_MESSAGE(r.err.find("[index_overflow]") != std::string::npos, r.err);
  // 128 MiB of heap cannot hold the 512 MiB input: mapped, it needs none.
  r = sb.argx("reduce half.npy -o o.npy --backend seq", address_sanitized ? "" : "ulimit -d 131072;");
  REQUIRE_MESSAGE(r.status == 0, r.err);
  CHECK(elements<std::int64_t>(npy::read(sb.path("o.npy"))) == std::vector<std::int64_t>{half_gib - 1000});
}
