// The MPI engine of the distributed tests: argx::mpi with host outputs. `--local=cpu`
// (default) gives each rank, call by call, a random usable CPU backend of its own (ranks
// differ); `--local=cuda` reduces every rank's part with argx::cuda on device memory.
#include <argx/mpi.hpp>

#include <stdexcept>

#include <doctest/doctest.h>

#include "device_memory.hpp"
#include "element_bits.hpp"
#include "engine.hpp"
#include "sharded.hpp"

namespace argx_test {
namespace {

bool local_cuda = false;
int calls = 0;

argx::backend pick_local() {
  if (local_cuda) return argx::backend::cuda;
  static rng own(0x5eed0000u + static_cast<std::uint64_t>(the_world().rank));  // this rank's own choices
  std::vector<argx::backend> usable;
  for (argx::backend b : {argx::backend::seq, argx::backend::par, argx::backend::tbb})
    if (argx::available(b)) usable.push_back(b);
  return own.pick(usable);
}

// The result-returning overload: int64 indices and the values, always.
sharded_outcome result_form(const argx::mpi_policy& pol, const sharded_call& c, const argx::shard& x) {
  const argx::result r = argx::reduce(pol, c.op, x, c.spec);
  sharded_outcome out{r.extents, r.indices, {}};
  for (std::size_t o = 0; o < r.size(); ++o)
    out.value_bits.push_back(load_bits(r.value_type, r.values.data() + o * argx::size_of(r.value_type)));
  return out;
}

}  // namespace

std::optional<std::string> engine_start(const std::vector<std::string>& args) {
  for (const auto& a : args) {
    if (a == "--local=cuda")
      local_cuda = true;
    else if (a != "--local=cpu")
      throw std::invalid_argument("unknown engine option " + a);
  }
  if (local_cuda && !argx::available(argx::backend::cuda))
    return std::string("--local=cuda: ") +
           (argx::built_with_cuda() ? "no CUDA device is present" : "argx was built without CUDA");
  return std::nullopt;
}

void engine_stop() {}

std::string engine_name() { return "mpi (local: " + std::string(local_cuda ? "cuda" : "seq/par/tbb") + ")"; }

bool engine_on_gpu() { return local_cuda; }

sharded_outcome run_sharded(const sharded_call& c) {
  const argx::backend local = pick_local();
  INFO("this rank's local backend: ", std::string(argx::name(local)));
  const std::vector<unsigned char> before = *c.local.storage;
  device_buffer input;
  argx::shard x = shard_of(c, c.local.view.data, argx::memory_space::host);
  if (local_cuda) {
    input = device_buffer(before.size());
    input.upload(before.data(), before.size());
    x = shard_of(c, static_cast<const unsigned char*>(input.data()) + c.local.data_offset(),
                 argx::memory_space::device);
  }
  const argx::shape extents = outputs_for(c, x);
  std::int64_t count = 1;
  for (auto e : extents) count *= e;
  const bool int32 = c.spec.index == argx::index_type::int32;
  std::vector<unsigned char> indices((count + 1) * (int32 ? 4 : 8), output_sentinel);
  std::vector<unsigned char> values((count + 1) * argx::size_of(c.local.type()), output_sentinel);
  const auto space = c.misplaced_outputs ? argx::memory_space::device : argx::memory_space::host;
  const auto iv = argx::make_output(indices.data(), int32 ? argx::dtype::i32 : argx::dtype::i64, extents, space);
  const auto vv = argx::make_output(values.data(), c.local.type(), extents, space);
  const auto pol = argx::mpi(the_world().comm, argx::policy{local});
  // Every third call with values takes the argx::result overload (on every rank alike).
  if (c.values && !c.output_extents && !c.misplaced_outputs && !int32 && ++calls % 3 == 0)
    return result_form(pol, c, x);
  try {
    argx::reduce(pol, c.op, x, iv, c.values ? &vv : nullptr, c.spec);
  } catch (const argx::error&) {
    CHECK_MESSAGE(untouched(indices), "the index output was written by a call that raised");
    CHECK_MESSAGE(untouched(values), "the values output was written by a call that raised");
    throw;
  }
  CHECK_MESSAGE(*c.local.storage == before, "the input was modified");
  return read_outputs(c, extents, indices, values);
}

}  // namespace argx_test
