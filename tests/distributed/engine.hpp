// What an engine's test executable provides to the shared main (main.cpp) besides the
// harness functions of sharded.hpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace argx_test {

/// Called after MPI_Init with the arguments meant for the engine (those main does not pass
/// to doctest: --local=...). Returns why the executable must be skipped (exit 77), if so.
std::optional<std::string> engine_start(const std::vector<std::string>& args);
/// Called before MPI_Finalize.
void engine_stop();

}  // namespace argx_test
