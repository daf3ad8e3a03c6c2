// Helpers of the GPU tests: run one reduction on seq, cuda and thrust and require the same
// bits from all three; name the kernel path run_cuda takes for a case.
#pragma once

#include <set>
#include <string>

#include <argx/argx.hpp>

#include "harness.hpp"

namespace argx_gpu_test {

/// Runs `o` on seq (the oracle), cuda and thrust with device memory and values (or indices
/// alone), and requires identical indices and value bits. `check_reference` also runs the
/// naive reference oracle (slow for large inputs).
void require_same_as_seq(argx::op o, const argx_test::host_tensor& x, const argx::spec& s,
                         bool check_reference = false, bool values = true);

/// The kernel path run_cuda takes for reducing x with s: "windows lanes=2-16 slots=4",
/// "runs_block short split", "columns shifted packed atomic", ...
std::string path_of(argx::op o, const argx_test::host_tensor& x, const argx::spec& s);

/// require_same_as_seq for two of the 16 option variants of dims (`first` and first + 7,
/// mod 16; the second asks for indices alone), adding the kernel path each takes to
/// `paths`: a case's share of a test that walks every variant across its cases.
void require_two_variants_same_as_seq(const argx_test::host_tensor& x, const argx::dim_list& dims, int first,
                                      bool check_reference, std::set<std::string>& paths);

/// "[path] [path] ...", for a test's message.
std::string listed(const std::set<std::string>& paths);

/// The i-th of the 16 combinations of argmin, nan ignore, ties last and abs, with int32
/// indices on odd i.
argx::spec spec_variant(int i, argx::dim_list dims = {});
inline argx::op op_variant(int i) { return (i & 1) ? argx::op::argmin : argx::op::argmax; }

}  // namespace argx_gpu_test
