// The distributed test harness. Test bodies (sharded_test.cpp, sharded_errors_test.cpp)
// are written once against run_sharded() and linked into one executable per engine:
// test_mpi (engine_mpi.cpp: argx::mpi with a CPU or the cuda local backend) and test_nccl
// (engine_nccl.cpp: argx::nccl). Every rank builds the whole tensor from the same seed,
// takes its part as a view of it, and checks its answer against argx::seq on the whole.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <argx/argx.hpp>
#include <argx/shard.hpp>

#include "host_tensor.hpp"
#include "random_tensor.hpp"

namespace argx_test {

/// The communicator the tests run on (MPI_COMM_WORLD) and this process's place in it.
struct world {
  MPI_Comm comm = MPI_COMM_WORLD;
  int rank = 0;
  int size = 1;
};
const world& the_world();
void set_world(const world& w);

/// One rank's distributed call, as a test describes it.
struct sharded_call {
  argx::op op = argx::op::argmax;
  host_tensor local;   ///< this rank's part (host bytes; device engines copy them)
  argx::shape global;  ///< the whole tensor's extents
  int dim = 0;         ///< the split dim
  std::int64_t begin = 0, end = 0;
  argx::spec spec{};
  bool values = true;  ///< also ask for the winning elements
  /// Deliberate mistakes, for the error tests:
  std::optional<argx::shape> output_extents;  ///< outputs of this shape instead of the right one
  bool misplaced_outputs = false;             ///< outputs in the memory the engine cannot write
};

/// This rank's answer (indices widened to int64; value bits empty without values).
struct sharded_outcome {
  argx::shape extents;
  std::vector<std::int64_t> indices;
  std::vector<std::uint64_t> value_bits;
};

// ---- provided by the engine (engine_mpi.cpp, engine_nccl.cpp) ---------------------------

/// "mpi (local: tbb)", "nccl", ...: names the engine under test in failure messages.
std::string engine_name();
/// Runs the call with guarded outputs (nothing written past their end, nor anything at all
/// when it raises) and an input that must stay unchanged. argx::error propagates. The
/// engine may pick this rank's local backend itself (from a generator of its own: the
/// bodies' generator must stay in step on every rank).
sharded_outcome run_sharded(const sharded_call& c);
/// True when every rank's part is reduced on a GPU (argx::nccl, argx::mpi with cuda).
bool engine_on_gpu();

// ---- shared by the engines (sharded.cpp) ------------------------------------------------

/// Every output byte starts as this, so a stray or missing write is visible.
inline constexpr unsigned char output_sentinel = 0xA5;
/// True when bytes [from, end) all still hold the sentinel.
bool untouched(const std::vector<unsigned char>& bytes, std::size_t from = 0);
/// The shard a call describes, its elements at `data` in `space` (the test's `end` kept,
/// even when it disagrees with the view).
argx::shard shard_of(const sharded_call& c, const void* data, argx::memory_space space);
/// The outputs' shape: the call's deliberate one, the right one, or {} for a call that
/// must raise anyway.
argx::shape outputs_for(const sharded_call& c, const argx::shard& x);
/// The answer in guarded output bytes ((count + 1) elements each): checks that nothing was
/// written past the end (nor into the values when none were asked for) and decodes it.
sharded_outcome read_outputs(const sharded_call& c, const argx::shape& extents,
                             const std::vector<unsigned char>& indices, const std::vector<unsigned char>& values);

// ---- shared by the bodies (sharded.cpp) -------------------------------------------------

struct range {
  std::int64_t begin = 0, end = 0;
};
/// `parts` contiguous ranges tiling [0, n): random cuts (some ranges empty), handed to the
/// ranks in a random order when `shuffle`.
std::vector<range> random_ranges(rng& r, std::int64_t n, int parts, bool shuffle = true);
/// The range of each rank when [0, n) is cut at `cuts` (sorted; repeated cuts give empty ranges).
std::vector<range> ranges_at(std::int64_t n, const std::vector<std::int64_t>& cuts);

/// This rank's call for `whole` split along `dim` into `ranges` (one per rank).
sharded_call part_of(argx::op o, const host_tensor& whole, int dim, const std::vector<range>& ranges,
                     const argx::spec& s, bool values = true);

/// Runs this rank's part and checks its answer against argx::seq on the whole tensor (the
/// whole output when the split dim is reduced, this rank's slab of it when it is kept).
void check_sharded(argx::op o, const host_tensor& whole, int dim, const std::vector<range>& ranges, const argx::spec& s,
                   bool values = true);

/// Runs `f` (a distributed call) expecting it to raise; returns "code: message" and checks
/// that every rank raised exactly the same.
template <class F>
std::string collective_error(F&& f);
/// Every rank's `text`, in rank order.
std::vector<std::string> gather_strings(const std::string& text);
/// doctest checks that `text` is the same on every rank; returns it.
std::string same_on_every_rank(const std::string& text);

template <class F>
std::string collective_error(F&& f) {
  std::string got = "no error";
  try {
    f();
  } catch (const argx::error& e) {
    got = std::string(argx::to_string(e.code())) + ": " + e.what();
  }
  return same_on_every_rank(got);
}

}  // namespace argx_test
