// argx demo: a small built-in tensor full of ties, NaN, +-0 and infinities, reduced along
// each dim and over all dims on every usable backend (results printed, compared bit for
// bit), then a larger built-in tensor timed per backend.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include <argx/argx.hpp>

#include "backend_list.hpp"
#include "commands.hpp"
#include "fuzz_case.hpp"
#include "options.hpp"
#include "outcome.hpp"

namespace argx::cli {
namespace {

constexpr float nan_ = std::numeric_limits<float>::quiet_NaN();
constexpr float inf_ = std::numeric_limits<float>::infinity();
constexpr float tiny = std::numeric_limits<float>::denorm_min();

// x[i][j][k]: each row (dim 2) shows one rule of the order.
const float demo_tensor[3][4][5] = {
    {{1, 5, 5, 2, 5},                      // ties: the first 5 wins (the last with ties=last)
     {3, nan_, 1, 5, 0},                   // NaN wins (propagate) or is skipped (ignore)
     {-0.0f, 0.0f, -1, -0.0f, -2},         // -0 and +0 are equal
     {-inf_, -inf_, -inf_, -inf_, -inf_}}, // all equal
    {{nan_, nan_, nan_, nan_, nan_},       // all NaN: index -1 under ignore
     {2, 2, 2, 2, 2},
     {inf_, 7, nan_, -inf_, 7},
     {0.5f, -0.5f, 0.25f, -0.25f, 0.5f}},
    {{4, 3, 2, 1, 0},
     {-1, -nan_, -3, 9, 9},                // a NaN with its sign bit set is still NaN
     {tiny, -tiny, 0, tiny, 0},            // subnormals are values
     {6, 6, 6, 6, 7}}};

std::string nested(const std::vector<std::int64_t>& v, const shape& extents) {
  if (extents.empty()) return v.empty() ? "[]" : std::to_string(v[0]);
  if (v.empty()) return "[]";
  // Brackets open and close where a row-major counter rolls over, as numpy prints.
  auto rollovers = [&](std::int64_t n) {
    int k = 0;
    std::int64_t block = 1;
    for (int d = extents.size() - 1; d >= 0; --d) {
      block *= extents[d];
      if (n % block == 0) ++k;
    }
    return static_cast<std::size_t>(k);
  };
  std::string out;
  for (std::size_t n = 0; n < v.size(); ++n) {
    if (n) out += ' ';
    out.append(rollovers(static_cast<std::int64_t>(n)), '[');
    out += std::to_string(v[n]);
    out.append(rollovers(static_cast<std::int64_t>(n + 1)), ']');
  }
  return out;
}

// The timing tensor: rows of repeating values (deterministic) and no NaN, so every backend
// reads all of it: a NaN ends a scan under nan=propagate, and the row would time an early exit.
std::vector<float> timing_tensor(std::int64_t rows, std::int64_t cols) {
  std::vector<float> v(static_cast<std::size_t>(rows * cols));
  std::uint32_t h = 12345;
  for (auto& x : v) {
    h = h * 1664525u + 1013904223u;
    x = static_cast<float>((h >> 8) % 1000) / 8.0f;  // values repeat: plenty of ties
  }
  return v;
}

}  // namespace

int demo_command(const args& a) {
  int repeat = 5;
  std::int64_t rows = 1024, cols = 4096;
  std::string backends_arg;
  option_set opts;
  opts.value("--backends", "A,B,...", "backends to run (default: every usable one)",
             [&](const std::string& v) { backends_arg = v; });
  opts.value("--repeat", "N", "timed runs per backend and reduction (default 5)",
             [&](const std::string& v) { repeat = static_cast<int>(parse_int("--repeat", v, 1, 100000)); });
  opts.value("--size", "ROWS,COLS", "shape of the timing tensor (default 1024,4096)", [&](const std::string& v) {
    const auto p = split("--size", v, ',');
    if (p.size() != 2) throw usage_error("--size: expected ROWS,COLS");
    rows = parse_int("--size", p[0], 1, std::int64_t(1) << 20);
    cols = parse_int("--size", p[1], 1, std::int64_t(1) << 30);
  });
  const auto positional = opts.parse_or_help(a, "demo [options]");
  if (!positional) return 0;
  no_positional(*positional, "demo takes no positional arguments");
  const backend_list backends = choose_backends(backends_arg);
  require_comparison(backends);
  std::printf("argx %s demo\nbackends: %s\n", version_string, join_names(backends.run).c_str());
  for (const auto& s : backends.skipped) std::printf("skipped: %s\n", s.c_str());

  const tensor_view x = make_view(&demo_tensor[0][0][0], {3, 4, 5});
  std::printf("\nx: float32 (3, 4, 5); along dim 2 its rows show ties, NaN (both signs), +-0, +-inf, subnormals:\n");
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) {
      std::printf("  x[%d][%d] =", i, j);
      for (int k = 0; k < 5; ++k) std::printf(" %g", static_cast<double>(demo_tensor[i][j][k]));
      std::printf("\n");
    }

  bool all_agree = true;
  const std::vector<std::pair<const char*, dim_list>> dim_sets = {{"dim=0", {0}}, {"dim=1", {1}}, {"dim=2", {2}}, {"all", {}}};
  std::printf("\n");
  for (const auto& [label, dims] : dim_sets)
    for (op o : {op::argmax, op::argmin})
      for (nan_policy nan : {nan_policy::propagate, nan_policy::ignore}) {
        const job j{o, x, {.dims = dims, .nan = nan}, true};
        const outcome ref = run(backend::seq, j);
        int agreeing = 1;
        std::string differences;
        for (std::size_t b = 1; b < backends.run.size(); ++b) {
          const std::string d = first_difference(j, ref, run(backends.run[b], j));
          if (d.empty()) ++agreeing;
          else differences += "\n    " + d;
        }
        all_agree &= differences.empty();
        std::printf("%s %-5s nan=%-9s -> %s  (%d/%zu backends agree)%s\n", o == op::argmax ? "argmax" : "argmin", label,
                    nan == nan_policy::ignore ? "ignore" : "propagate",
                    nested(indices_of(j, ref), output_shape(x, j.spec)).c_str(), agreeing, backends.run.size(),
                    differences.c_str());
      }

  const std::vector<float> big = timing_tensor(rows, cols);
  const tensor_view t = make_view(big.data(), {rows, cols});
  const double gb = static_cast<double>(big.size() * sizeof(float)) / 1e9;
  std::printf("\ntiming: float32 (%lld, %lld) without NaN, argmax, median of %d runs after a warm-up "
              "(ms, GB/s of input read)\n",
              static_cast<long long>(rows), static_cast<long long>(cols), repeat);
  if (std::find(backends.run.begin(), backends.run.end(), backend::cuda) != backends.run.end() ||
      std::find(backends.run.begin(), backends.run.end(), backend::thrust) != backends.run.end())
    std::printf("(host memory: the cuda and thrust times include the copies to and from the GPU)\n");
  std::printf("%-8s %-22s %-22s %-22s\n", "backend", "rows (dim=1)", "columns (dim=0)", "all");
  std::vector<outcome> refs;
  for (backend b : backends.run) {
    std::printf("%-8s", std::string(name(b)).c_str());
    int k = 0;
    for (const dim_list& dims : {dim_list{1}, dim_list{0}, dim_list{}}) {
      const job j{op::argmax, t, {.dims = dims}, true};
      const outcome o = run(b, j, repeat);
      if (b == backend::seq) refs.push_back(o);
      const std::string d = first_difference(j, refs[k++], o);
      all_agree &= d.empty();
      char cell[64];
      const double ms = median(o.times_ms);
      std::snprintf(cell, sizeof cell, "%.3f ms %.1f GB/s%s", ms, gb / (ms / 1e3), d.empty() ? "" : " DIFFERS");
      std::printf(" %-22s", o.ok ? cell : ("error " + std::string(to_string(o.code))).c_str());
    }
    std::printf("\n");
  }
  std::printf("\nall backends agree bit for bit: %s\n", all_agree ? "yes" : "NO");
  return all_agree ? 0 : 1;
}

}  // namespace argx::cli
