// Reproducers: a failing case written as a .npy file plus the `argx diff` command that
// replays it (in a small shell script next to it).
#pragma once

#include <string>
#include <vector>

#include "fuzz_case.hpp"

namespace argx::cli {

/// Writes DIR/NAME.npy and DIR/NAME.sh (creating DIR) and returns the command line.
/// `backends` are the backends to compare; `note` goes into the script as a comment.
std::string write_repro(const std::string& dir, const std::string& stem, const fuzz_case& c,
                        const std::vector<argx::backend>& backends, const std::string& note);

}  // namespace argx::cli
