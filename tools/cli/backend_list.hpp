// Which backends `argx diff`, `argx fuzz` and `argx demo` run: every usable one, or those
// named with --backends; seq (the reference) always comes first; unusable ones are
// skipped with the reason.
#pragma once

#include <string>
#include <vector>

#include <argx/policy.hpp>

namespace argx::cli {

struct backend_list {
  std::vector<argx::backend> run;     ///< seq first
  std::vector<std::string> skipped;   ///< "cuda (argx was built without CUDA)"
};

/// From a comma-separated list ("" = every usable backend except auto).
backend_list choose_backends(const std::string& names);

/// Refuses (backend_unavailable) a comparison in which fewer than two backends can run:
/// it would compare nothing and could not fail.
void require_comparison(const backend_list& b);

/// Why a backend cannot run here (its backend_unavailable message), or "" when it can.
std::string unavailable_reason(argx::backend b);

/// "seq, par, tbb".
std::string join_names(const std::vector<argx::backend>& bs);

}  // namespace argx::cli
