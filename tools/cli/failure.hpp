// What a failed command prints and returns: one line on stderr and the exit status.
#pragma once

#include <string>

namespace argx::cli {

/// Call inside a catch block: prints the exception being handled for `argx <command>` (one
/// line on stderr, when `print`) and returns the exit status: 2 for a usage_error, 1 for
/// anything else, printed as the argx::error it is or stands for ("argx: <message> [<code>]":
/// out_of_memory for std::bad_alloc, internal for an exception argx did not expect).
int report_failure(const std::string& command, bool print = true);

}  // namespace argx::cli
