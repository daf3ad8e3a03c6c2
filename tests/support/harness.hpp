// The backend harness: test bodies are written once against `run` (and friends) and
// every test executable instantiates them for one backend, the backend under test.
//
// `run` hides where the memory lives: for cuda and thrust the input allocation is copied
// to the GPU and the outputs are GPU buffers (or, on request, host pointers that the
// backend stages itself); for CPU backends everything stays on the host. Every run also
//  - writes into guarded buffers (argx/detail/guarded_run.hpp, as the CLI does) and checks
//    nothing is written outside the outputs, nor into them when the call fails,
//  - checks the input bytes are unchanged afterwards,
//  - checks the answer against the naive reference oracle (indices and value bits).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <argx/argx.hpp>

#include "error_of.hpp"
#include "host_tensor.hpp"

namespace argx_test {

/// The backend this test executable tests. Defined by the executable's main
/// (backend_main.cpp, compiled once per backend), so it is usable during static
/// initialisation, e.g. in doctest decorators.
argx::backend backend_under_test() noexcept;
/// True for cuda and thrust.
bool is_gpu(argx::backend b) noexcept;
/// The policy object for a backend (default stream for the GPU backends).
argx::policy policy_for(argx::backend b) noexcept;

/// Where a GPU backend's input and outputs live in a run.
enum class placement : std::uint8_t {
  device,  ///< copied to GPU memory (the normal case)
  host,    ///< plain host pointers: the backend must stage them itself
};

struct run_options {
  bool values = true;                    ///< also ask for the winning elements
  placement memory = placement::device;  ///< GPU backends only
  bool result_form = false;              ///< use the argx::result-returning overload
};

/// A reduction's answer as the tests read it.
struct outcome {
  argx::shape extents;
  std::vector<std::int64_t> indices;      ///< widened from int32 when int32 was asked for
  std::vector<std::uint64_t> value_bits;  ///< empty when values were not asked for
};

/// Runs one reduction on backend `b` and returns its answer, after the guard and
/// input-unchanged checks. argx::error propagates unchanged.
outcome reduce_on(argx::backend b, argx::op o, const host_tensor& x, const argx::spec& s = {}, run_options opt = {});

/// doctest checks that `got` is the reference oracle's answer, bit for bit. `who` names
/// the backend in failure messages.
void check_against_reference(argx::op o, const host_tensor& x, const argx::spec& s, const outcome& got,
                             const std::string& who);

/// reduce_on(backend_under_test(), ...) followed by a check against the reference oracle.
inline outcome run(argx::op o, const host_tensor& x, const argx::spec& s = {}, run_options opt = {}) {
  outcome r = reduce_on(backend_under_test(), o, x, s, opt);
  check_against_reference(o, x, s, r, std::string(argx::name(backend_under_test())));
  return r;
}
inline outcome argmax(const host_tensor& x, const argx::spec& s = {}, run_options opt = {}) {
  return run(argx::op::argmax, x, s, opt);
}
inline outcome argmin(const host_tensor& x, const argx::spec& s = {}, run_options opt = {}) {
  return run(argx::op::argmin, x, s, opt);
}

}  // namespace argx_test
