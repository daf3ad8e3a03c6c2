// argx fuzz: random differential cases across backends for a time or a number of cases;
// every mismatch is shrunk and written as a reproducer; exit 1 if any.
#include <chrono>
#include <cstdio>
#include <random>

#include <argx/argx.hpp>

#include "backend_list.hpp"
#include "commands.hpp"
#include "fuzz_gen.hpp"
#include "options.hpp"
#include "repro.hpp"
#include "shrink.hpp"

namespace argx::cli {

int fuzz_command(const args& a) {
  double seconds = -1;
  std::int64_t max_cases = -1, only_case = -1;
  std::uint64_t seed = std::random_device{}() % 1000000;
  std::string backends_arg, repro_dir = "argx-fuzz-repro";
  bool quiet = false;
  fuzz_rates rates;
  option_set opts;
  opts.value("--seconds", "N", "run for N seconds (default 10 unless --cases is given)",
             [&](const std::string& v) { seconds = parse_real("--seconds", v, 0, 1e7); });
  opts.value("--cases", "N", "stop after N cases", [&](const std::string& v) { max_cases = parse_int("--cases", v, 0, INT64_MAX); });
  opts.value("--seed", "S", "seed (default: random, printed); the same seed gives the same cases",
             [&](const std::string& v) { seed = static_cast<std::uint64_t>(parse_int("--seed", v, 0, INT64_MAX)); });
  opts.value("--case", "K", "run only case K of the seed and describe it",
             [&](const std::string& v) { only_case = parse_int("--case", v, 0, INT64_MAX); });
  opts.value("--backends", "A,B,...", "backends compared with seq (default: every usable one)",
             [&](const std::string& v) { backends_arg = v; });
  opts.value("--repro", "DIR", "where reproducers go (default argx-fuzz-repro)", [&](const std::string& v) { repro_dir = v; });
  auto rate = [&](const char* opt, double& field, const char* help) {
    opts.value(opt, "P", help, [&field, opt](const std::string& v) { field = parse_real(opt, v, 0, 1); });
  };
  rate("--nan-rate", rates.nan, "share of NaN elements, any sign and payload (default 0.02)");
  rate("--inf-rate", rates.inf, "share of +-inf (default 0.01)");
  rate("--zero-rate", rates.zero, "share of +-0 (default 0.02)");
  rate("--subnormal-rate", rates.subnormal, "share of subnormals (default 0.01)");
  rate("--tie-rate", rates.tie, "share of elements from a small pool: dense ties (default 0.2)");
  rate("--extreme-rate", rates.extreme, "share of the dtype's lowest/highest values (default 0.02)");
  rate("--boundary-rate", rates.boundary, "chance a case gets special elements at split boundaries (default 0.5)");
  rate("--invalid-rate", rates.invalid, "chance a case gets an invalid dim list (default 0.03)");
  opts.value("--max-elements", "N", "largest view of the rare big cases (default 2097152)", [&](const std::string& v) {
    rates.max_elements = parse_int("--max-elements", v, 1, std::int64_t(1) << 34);
  });
  opts.flag("--quiet", "no progress lines", [&] { quiet = true; });
  const auto positional = opts.parse_or_help(a, "fuzz [--seconds N] [--cases N] [--seed S] [--backends A,B] [rates]");
  if (!positional) return 0;
  no_positional(*positional, "fuzz takes no positional arguments");
  if (seconds < 0 && max_cases < 0) seconds = 10;
  const backend_list backends = choose_backends(backends_arg);
  require_comparison(backends);
  for (const auto& s : backends.skipped) std::printf("skipped: %s\n", s.c_str());

  if (only_case >= 0) {
    const fuzz_case c = generate_case(seed, static_cast<std::uint64_t>(only_case), rates);
    std::printf("case %lld of seed %llu: %s\n", static_cast<long long>(only_case), static_cast<unsigned long long>(seed),
                c.describe().c_str());
    bool all_failed = false;
    const std::string diff = check_case(c, backends.run, &all_failed);
    std::printf("%s\n", diff.empty() ? (all_failed ? "agree (the same error on every backend)" : "agree") : diff.c_str());
    return diff.empty() ? 0 : 1;
  }

  std::printf("fuzz: seed %llu, backends %s\n", static_cast<unsigned long long>(seed), join_names(backends.run).c_str());
  std::fflush(stdout);
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(clock::now() - start).count(); };
  std::int64_t cases = 0, errors = 0, mismatches = 0, elements = 0;
  std::int64_t by_class[5] = {};
  double next_progress = 10;
  for (std::uint64_t i = 0;; ++i) {
    if ((max_cases >= 0 && cases >= max_cases) || (seconds >= 0 && elapsed() >= seconds)) break;
    const fuzz_case c = generate_case(seed, i, rates);
    bool all_failed = false;
    const std::string diff = check_case(c, backends.run, &all_failed);
    ++cases;
    if (all_failed) {
      ++errors;
    } else if (diff.empty()) {
      const argx::detail::plan p = argx::detail::make_plan(c.view(), c.reduction.op, c.reduction.spec);
      ++by_class[static_cast<int>(p.kind)];
      elements += p.outputs * p.reduce_size;
    }
    if (!diff.empty()) {
      ++mismatches;
      std::printf("MISMATCH case %llu: %s\n  %s\n", static_cast<unsigned long long>(i), c.describe().c_str(), diff.c_str());
      if (mismatches <= 10) {
        // Reruns tell a deterministic bug from a race; the shrinker then accepts a
        // candidate that fails in any of three runs.
        int reruns_failed = 0;
        for (int r = 0; r < 5; ++r) reruns_failed += !check_case(c, backends.run).empty();
        if (reruns_failed < 5) std::printf("  nondeterministic: failed again in %d of 5 reruns\n", reruns_failed);
        shrink_stats stats;
        const fuzz_case small = shrink(
            c, [&](const fuzz_case& t) { return !check_case_repeatedly(t, backends.run, 3).empty(); }, stats);
        std::string note = check_case_repeatedly(small, backends.run, 5);
        if (note.empty()) note = "did not fail again in 5 runs (nondeterministic); first seen: " + diff;
        const std::string command = write_repro(repro_dir, "fuzz-seed" + std::to_string(seed) + "-case" + std::to_string(i),
                                                small, backends.run, note);
        std::printf("  shrunk (%d steps): %s\n  %s\n  reproduce: %s\n", stats.accepted, small.describe().c_str(),
                    note.c_str(), command.c_str());
      }
      std::fflush(stdout);
    }
    if (!quiet && elapsed() >= next_progress) {
      std::printf("  %lld cases, %lld mismatches, %.0f s\n", static_cast<long long>(cases),
                  static_cast<long long>(mismatches), elapsed());
      std::fflush(stdout);
      next_progress += 10;
    }
  }
  std::printf("fuzz: seed %llu: %lld cases in %.1f s on %s (%lld raised the same error on every backend; "
              "%.3g elements reduced)\n",
              static_cast<unsigned long long>(seed), static_cast<long long>(cases), elapsed(),
              join_names(backends.run).c_str(), static_cast<long long>(errors), static_cast<double>(elements));
  std::printf("fuzz: classes: empty %lld, flat %lld, rows %lld, strided %lld, general %lld\n",
              static_cast<long long>(by_class[0]), static_cast<long long>(by_class[1]),
              static_cast<long long>(by_class[2]), static_cast<long long>(by_class[3]),
              static_cast<long long>(by_class[4]));
  std::printf("fuzz: %lld mismatches\n", static_cast<long long>(mismatches));
  return mismatches == 0 ? 0 : 1;
}

}  // namespace argx::cli
