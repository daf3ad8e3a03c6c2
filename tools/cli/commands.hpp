// The argx subcommands. Each takes the arguments after its name and returns the exit
// status: 0 success, 1 input/compute error or a disagreement, 2 usage error (usage
// mistakes are thrown as usage_error and turned into status 2 by main).
#pragma once

#include <string>
#include <vector>

namespace argx::cli {

using args = std::vector<std::string>;

int info_command(const args& a);
int reduce_command(const args& a);
int demo_command(const args& a);
int diff_command(const args& a);
int fuzz_command(const args& a);

}  // namespace argx::cli
