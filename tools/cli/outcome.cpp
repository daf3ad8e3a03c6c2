#include "outcome.hpp"

#include <algorithm>
#include <chrono>

#include <argx/testing.hpp>

namespace argx::cli {

outcome run(argx::backend b, const job& j, int repeat) {
  outcome o;
  o.backend = b;
  const policy pol{b};
  detail::host_placement host;
  using clock = std::chrono::steady_clock;
  int runs = 0;
  auto timed = [&](const output_view& iv, const output_view* vv) {
    const auto t0 = clock::now();
    reduce(pol, j.op, j.x, iv, vv, j.spec);
    const double ms = std::chrono::duration<double, std::milli>(clock::now() - t0).count();
    if (runs++ > 0 || repeat == 0) o.times_ms.push_back(ms);  // the checked run is the warm-up of timed ones
  };
  static_cast<detail::guarded_outcome&>(o) = detail::run_guarded(j.x, j.op, j.spec, j.values, host, timed, repeat);
  return o;
}

std::vector<std::int64_t> indices_of(const job& j, const outcome& o) { return o.indices_int64(j.spec.index); }

std::string summary(const outcome& o) {
  return o.ok ? std::string("ok") : "error " + std::string(to_string(o.code)) + " (" + o.message + ")";
}

std::string first_difference(const job& j, const outcome& ref, const outcome& got) {
  const std::string r(name(ref.backend)), g(name(got.backend));
  if (!got.damage.empty()) return g + " " + got.damage;
  if (!ref.damage.empty()) return r + " " + ref.damage;
  if (ref.ok != got.ok || (!ref.ok && ref.code != got.code))
    return r + " gave " + summary(ref) + ", " + g + " gave " + summary(got);
  if (!ref.ok) return "";
  const testing::answer a{indices_of(j, ref), ref.values}, b{indices_of(j, got), got.values};
  const testing::report rep = testing::compare_answers(j.x, j.op, j.spec, a, b, r, g);
  if (rep) return "";
  std::string s = rep.to_string();
  const std::string prefix = "argx::testing: ";
  return s.rfind(prefix, 0) == 0 ? s.substr(prefix.size()) : s;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double minimum(const std::vector<double>& v) { return v.empty() ? 0 : *std::min_element(v.begin(), v.end()); }

}  // namespace argx::cli
