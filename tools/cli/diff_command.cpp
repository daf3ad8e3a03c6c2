// argx diff INPUT.npy [options]: one reduction on every backend, compared bit for bit
// with seq; a table of times and agreement; a shrunk reproducer on request.
#include <cstdio>

#include <argx/argx.hpp>

#include "backend_list.hpp"
#include "commands.hpp"
#include "fuzz_case.hpp"
#include "npy.hpp"
#include "options.hpp"
#include "outcome.hpp"
#include "repro.hpp"
#include "shrink.hpp"

namespace argx::cli {

int diff_command(const args& a) {
  reduction_args red;
  std::string backends_arg, repro_dir;
  int repeat = 0;
  bool values = true;
  option_set opts;
  red.add_options(opts);
  opts.value("--backends", "A,B,...", "backends to compare with seq (default: every usable one)",
             [&](const std::string& v) { backends_arg = v; });
  opts.value("--repro", "DIR", "on a difference, write a shrunk reproducer (.npy + command) into DIR",
             [&](const std::string& v) { repro_dir = v; });
  opts.value("--repeat", "N", "time N runs after a warm-up (default: time the one checked run)",
             [&](const std::string& v) { repeat = static_cast<int>(parse_int("--repeat", v, 1, 1000000)); });
  opts.flag("--no-values", "compare indices only", [&] { values = false; });
  const auto positional = opts.parse_or_help(a, "diff INPUT.npy [options]");
  if (!positional) return 0;
  const std::string& input = only_input(*positional);
  const backend_list backends = choose_backends(backends_arg);
  require_comparison(backends);

  const npy::array in = npy::read(input, {.bf16 = red.bf16});
  const job j{red.op, apply_view(in.view(), red.view), red.spec, values};
  std::printf("input: %s: %s %s%s\n", input.c_str(), std::string(name(in.type)).c_str(),
              shape_text(in.extents).c_str(), in.fortran_order ? " Fortran order" : "");
  if (!red.view.empty()) std::printf("view: %s\n", shape_text(j.x.extents).c_str());
  std::printf("reduction: %s\n", red.describe().c_str());

  std::vector<outcome> results;
  for (backend b : backends.run) results.push_back(run(b, j, repeat));
  const outcome& ref = results.front();
  std::printf("%-8s %-22s %-6s %s\n", "backend", "time_ms", "agrees", "first difference from seq");
  int differing = 0;
  backend first_bad = backend::seq;
  for (const auto& o : results) {
    const std::string diff = &o == &ref ? "" : first_difference(j, ref, o);
    if (!diff.empty() && differing++ == 0) first_bad = o.backend;
    char time[32];
    std::snprintf(time, sizeof time, "%.4g", median(o.times_ms));
    std::printf("%-8s %-22s %-6s %s\n", std::string(name(o.backend)).c_str(),
                o.ok ? time : ("error " + std::string(to_string(o.code))).c_str(),
                &o == &ref ? "ref" : diff.empty() ? "yes" : "NO", diff.c_str());
  }
  for (const auto& s : backends.skipped) std::printf("skipped: %s\n", s.c_str());

  if (differing == 0) {
    if (!ref.ok) {
      std::printf("result: every backend raises %s\n", to_string(ref.code));
      throw error(ref.code, ref.message + " (on every backend)");
    }
    std::printf("result: all %zu backends agree bit for bit (%s)\n", results.size(), values ? "indices and values" : "indices");
    return 0;
  }
  std::printf("result: %d of %zu backends differ from seq\n", differing, results.size() - 1);
  if (!repro_dir.empty()) {
    fuzz_case c;
    c.type = in.type;
    c.extents = in.extents;
    c.fortran = in.fortran_order;
    c.data.assign(in.bytes.begin(), in.bytes.end());
    c.reduction = red;
    c.reduction.bf16 = false;  // the reproducer is written with a 'bfloat16' descr
    const std::vector<backend> pair = {backend::seq, first_bad};
    shrink_stats stats;
    const fuzz_case small = shrink(c, [&](const fuzz_case& t) { return !check_case_repeatedly(t, pair, 3).empty(); }, stats);
    std::string note = check_case_repeatedly(small, pair, 5);
    if (note.empty()) note = "did not fail again in 5 runs (nondeterministic)";
    const std::string command = write_repro(repro_dir, "diff-repro", small, pair, note);
    std::printf("reproducer (shrunk in %d steps): %s\n  %s\n", stats.accepted, small.describe().c_str(), command.c_str());
  }
  return 1;
}

}  // namespace argx::cli
