// The machinery behind `argx fuzz`: cases are reproducible from the seed and cover the
// ground the issue asks for; the shrinker keeps a failure while making the case small;
// a reproducer's .npy and command give back the very same case.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "../cli/fuzz_gen.hpp"
#include "../cli/repro.hpp"
#include "../cli/shrink.hpp"
#include "npy.hpp"

using namespace argx::cli;

namespace {

bool same_case(const fuzz_case& a, const fuzz_case& b) {
  return a.type == b.type && a.extents == b.extents && a.fortran == b.fortran && a.data == b.data &&
         a.reduction.to_args() == b.reduction.to_args() && a.reduction.op == b.reduction.op;
}

// Parses reduction options back, as `argx diff` would.
reduction_args parse_back(const std::vector<std::string>& words) {
  reduction_args r;
  option_set opts;
  r.add_options(opts);
  bool help = false;
  const auto pos = opts.parse(words, help);
  CHECK(pos.empty());
  return r;
}

}  // namespace

TEST_CASE("a case is a function of (seed, index)") {
  const fuzz_rates rates;
  for (std::uint64_t i = 0; i < 200; ++i) {
    CAPTURE(i);
    CHECK(same_case(generate_case(11, i, rates), generate_case(11, i, rates)));
  }
  int different = 0;
  for (std::uint64_t i = 0; i < 50; ++i) different += !same_case(generate_case(11, i, rates), generate_case(12, i, rates));
  CHECK(different >= 45);
}

TEST_CASE("generated cases cover ranks, extents, layouts, views, dtypes and options") {
  const fuzz_rates rates;
  std::set<int> ranks, dtypes, view_kinds;
  std::set<std::int64_t> extents;
  int fortran = 0, zero_extent = 0, invalid = 0, int32 = 0, keepdim = 0, ignore = 0, last = 0, abs = 0, all_dims = 0;
  int nan_cases = 0, negative_stride = 0, zero_stride = 0, big = 0;
  for (std::uint64_t i = 0; i < 4000; ++i) {
    const fuzz_case c = generate_case(3, i, rates);
    REQUIRE(c.view_fits());
    const argx::tensor_view v = c.view();
    ranks.insert(v.rank());
    dtypes.insert(static_cast<int>(c.type));
    for (auto e : v.extents) extents.insert(e);
    for (auto s : v.strides) {
      negative_stride += s < 0;
      zero_stride += s == 0;
    }
    for (const auto& op : c.reduction.view) view_kinds.insert(static_cast<int>(op.what));
    fortran += c.fortran;
    zero_extent += c.base_count() == 0;
    const auto& s = c.reduction.spec;
    int32 += s.index == argx::index_type::int32;
    keepdim += s.keepdim;
    ignore += s.nan == argx::nan_policy::ignore;
    last += s.ties == argx::tie_break::last;
    abs += s.abs;
    all_dims += s.dims.empty();
    big += c.base_count() > 100000;
    try {
      (void)argx::detail::make_plan(v, c.reduction.op, s);
    } catch (const argx::error& e) {
      invalid += e.code() == argx::errc::bad_dim || e.code() == argx::errc::duplicate_dim;
    }
    if (c.type == argx::dtype::f32)
      for (std::size_t k = 0; k + 4 <= c.data.size(); k += 4) {
        std::uint32_t b;
        std::memcpy(&b, c.data.data() + k, 4);
        if ((b & 0x7fffffffu) > 0x7f800000u) {
          ++nan_cases;
          break;
        }
      }
  }
  CHECK(ranks == std::set<int>{0, 1, 2, 3, 4, 5, 6});
  CHECK(dtypes.size() == argx::dtype_count);
  CHECK(view_kinds.size() == 4);
  for (std::int64_t e : {0, 1, 2, 3, 7, 13, 31, 32, 33, 127, 128, 129, 1023, 1024, 1025, 65537}) {
    CAPTURE(e);
    CHECK(extents.count(e) == 1);
  }
  CHECK(fortran > 100);
  CHECK(zero_extent > 10);
  CHECK(invalid > 20);
  CHECK(int32 > 500);
  CHECK(keepdim > 1000);
  CHECK(ignore > 1000);
  CHECK(last > 1000);
  CHECK(abs > 500);
  CHECK(all_dims > 500);
  CHECK(nan_cases > 50);
  CHECK(negative_stride > 100);
  CHECK(zero_stride > 100);
  CHECK(big > 20);
}

TEST_CASE("the shrinker keeps the failure and drops everything else") {
  // A stand-in bug: "fails" whenever the viewed tensor holds a -0.0 element.
  auto has_negative_zero = [](const fuzz_case& c) {
    const argx::tensor_view v = c.view();
    const auto bytes = gather(v, false);
    for (std::size_t k = 0; k + 4 <= bytes.size(); k += 4) {
      std::uint32_t b;
      std::memcpy(&b, bytes.data() + k, 4);
      if (b == 0x80000000u) return true;
    }
    return false;
  };
  fuzz_case c;
  c.type = argx::dtype::f32;
  c.extents = {6, 40};
  c.fortran = true;
  c.data.assign(6 * 40 * 4, 0x11);
  const std::uint32_t neg_zero = 0x80000000u;
  std::memcpy(c.data.data() + 4 * 7, &neg_zero, 4);  // Fortran order: element (1, 1)
  c.reduction.op = argx::op::argmin;
  c.reduction.spec = {.dims = {1, 0}, .keepdim = true, .nan = argx::nan_policy::ignore, .abs = true};
  c.reduction.view = {parse_view_op(view_op::kind::flip, "--flip", "1"),
                      parse_view_op(view_op::kind::transpose, "--transpose", "0,1")};
  REQUIRE(has_negative_zero(c));
  shrink_stats stats;
  const fuzz_case s = shrink(c, has_negative_zero, stats);
  CHECK(has_negative_zero(s));
  CHECK(stats.accepted > 5);
  CHECK(s.reduction.view.empty());
  CHECK(s.reduction.op == argx::op::argmax);
  CHECK(!s.reduction.spec.keepdim);
  CHECK(!s.reduction.spec.abs);
  CHECK(s.reduction.spec.nan == argx::nan_policy::propagate);
  CHECK(s.reduction.spec.dims.size() == 1);
  CHECK(!s.fortran);
  CHECK(s.extents == argx::shape{2, 2});  // the cut keeps a prefix: element (1, 1) needs 2 x 2
  int nonzero = 0;
  for (std::size_t k = 0; k < s.data.size(); k += 4) nonzero += s.data[k] || s.data[k + 1] || s.data[k + 2] || s.data[k + 3];
  CHECK(nonzero == 1);
}

TEST_CASE("a reproducer gives back the same case") {
  char tmpl[] = "/tmp/argx-repro-test-XXXXXX";
  const std::filesystem::path dir = ::mkdtemp(tmpl);
  for (std::uint64_t i = 0; i < 300; ++i) {
    const fuzz_case c = generate_case(5, i, fuzz_rates{});
    if (c.base_count() > 5000) continue;
    CAPTURE(i);
    const std::string command = write_repro(dir.string(), "r", c, {argx::backend::seq, argx::backend::par}, "note");
    const argx::npy::array a = argx::npy::read((dir / "r.npy").string());
    CHECK(a.type == c.type);
    CHECK(a.extents == c.extents);
    CHECK(a.fortran_order == c.fortran);
    CHECK(std::vector<unsigned char>(a.bytes.begin(), a.bytes.end()) == c.data);
    // The command: argx diff PATH <reduction options> --backends seq,par
    std::istringstream words(command);
    std::vector<std::string> w;
    for (std::string s; words >> s;) w.push_back(s);
    REQUIRE(w.size() >= 5);
    CHECK(w[0] == "argx");
    CHECK(w[1] == "diff");
    CHECK(w[w.size() - 2] == "--backends");
    CHECK(w.back() == "seq,par");
    const reduction_args back = parse_back({w.begin() + 3, w.end() - 2});
    CHECK(back.to_args() == c.reduction.to_args());
    CHECK(back.describe() == c.reduction.describe());
    std::ifstream sh(dir / "r.sh");
    std::stringstream text;
    text << sh.rdbuf();
    CHECK(text.str().find("argx diff \"$(dirname \"$0\")/r.npy\"") != std::string::npos);
  }
  std::filesystem::remove_all(dir);
}
