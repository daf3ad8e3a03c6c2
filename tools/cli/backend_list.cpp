#include "backend_list.hpp"

#include <algorithm>

#include <argx/argx.hpp>

#include "options.hpp"

namespace argx::cli {

std::string unavailable_reason(argx::backend b) {
  if (available(b)) return "";
  // The library's own words: reduce a one-element tensor and keep the message.
  const float x = 0;
  try {
    (void)reduce(policy{b}, op::argmax, make_view(&x, {1}));
  } catch (const error& e) {
    std::string m = e.what();
    const auto colon = m.find(": ", m.find(": ") + 2);
    return colon == std::string::npos ? m : m.substr(colon + 2);
  }
  return "not available";
}

backend_list choose_backends(const std::string& names) {
  std::vector<argx::backend> wanted;
  if (names.empty()) {
    for (argx::backend b : all_backends)
      if (b != backend::automatic) wanted.push_back(b);
  } else {
    for (const auto& n : split("--backends", names, ',')) {
      const auto b = parse_backend(n);
      if (!b) throw usage_error("--backends: unknown backend '" + n + "' (seq, par, tbb, cuda, thrust, auto)");
      if (std::find(wanted.begin(), wanted.end(), *b) == wanted.end()) wanted.push_back(*b);
    }
  }
  backend_list out;
  out.run.push_back(backend::seq);
  for (argx::backend b : wanted) {
    if (b == backend::seq) continue;
    const std::string why = unavailable_reason(b);
    if (why.empty())
      out.run.push_back(b);
    else
      out.skipped.push_back(std::string(name(b)) + " (" + why + ")");
  }
  return out;
}

void require_comparison(const backend_list& b) {
  if (b.run.size() >= 2) return;
  std::string skipped;
  for (const auto& s : b.skipped) skipped += (skipped.empty() ? "" : ", ") + s;
  throw error(errc::backend_unavailable, "nothing to compare: only " + join_names(b.run) + " can run here" +
                                             (skipped.empty() ? std::string(" (name other backends with --backends)")
                                                              : "; skipped: " + skipped));
}

std::string join_names(const std::vector<argx::backend>& bs) {
  std::string s;
  for (argx::backend b : bs) {
    if (!s.empty()) s += ", ";
    s += name(b);
  }
  return s;
}

}  // namespace argx::cli
