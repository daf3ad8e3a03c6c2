// The argx command-line tool, run as a user runs it: outputs checked against hand-worked
// answers, exit status 2 for usage errors and 1 for input errors (one line on stderr),
// every malformed .npy of the catalogue rejected, and demo / diff / fuzz passing.
// The path of the argx binary comes in the ARGX_EXE environment variable.
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

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

  // Runs `argx ARGS` in the sandbox directory.
  ran argx(const std::string& args) const {
    const char* exe = std::getenv("ARGX_EXE");
    REQUIRE_MESSAGE(exe != nullptr, "set ARGX_EXE to the argx binary");
    const std::string cmd = "cd '" + dir.string() + "' && '" + exe + "' " + args + " >stdout.txt 2>stderr.txt";
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
  const char* bad[] = {
      "",
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
    const ran r = sb.argx(args);
    CHECK(r.status == 2);
    CHECK(lines(r.err) >= 1);
    if (std::string(args).empty()) continue;  // bare `argx` prints the command list
    CHECK(lines(r.err) == 1);
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
    const ran r = sb.argx(c.args);
    CHECK(r.status == 1);
    CHECK(lines(r.err) == 1);
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
    const ran r = sb.argx("reduce " + c.name + ".npy -o o.npy");
    CHECK(r.status == 1);
    CHECK(lines(r.err) == 1);
    CHECK_MESSAGE(r.err.find(c.fragment) != std::string::npos, r.err);
    CHECK_MESSAGE(r.err.find(std::string("[") + argx::to_string(c.code) + "]") != std::string::npos, r.err);
    CHECK(r.err.find(c.name + ".npy") != std::string::npos);
    CHECK(!fs::exists(sb.dir / "o.npy"));
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
