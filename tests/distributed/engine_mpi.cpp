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
std::string last_local = "seq";
int calls = 0;

argx::backend pick_local() {
  if (local_cuda) return argx::backend::cuda;
  static rng own(0x5eed0000u + static_cast<std::uint64_t>(the_world().rank));  // this rank's own choices
  std::vector<argx::backend> usable;
  for (argx::backend b : {argx::backend::seq, argx::backend::par, argx::backend::tbb})
    if (argx::available(b)) usable.push_back(b);
  return own.pick(usable);
}

constexpr unsigned char sentinel = 0xA5;

bool untouched(const std::vector<unsigned char>& v, std::size_t from = 0) {
  for (std::size_t i = from; i < v.size(); ++i)
    if (v[i] != sentinel) return false;
  return true;
}

argx::shape outputs_for(const sharded_call& c, const argx::shard& x) {
  if (c.output_extents) return *c.output_extents;
  try {
    return argx::output_shape(x, c.spec);
  } catch (const argx::error&) {
    return {};  // an invalid call: it must raise, whatever the outputs
  }
}

}  // namespace

std::optional<std::string> engine_start(const std::vector<std::string>& args) {
  for (const auto& a : args) {
    if (a == "--local=cuda") local_cuda = true;
    else if (a != "--local=cpu") throw std::invalid_argument("unknown engine option " + a);
  }
  if (local_cuda && !argx::available(argx::backend::cuda))
    return std::string("--local=cuda: ") + (argx::built_with_cuda() ? "no CUDA device is present" : "argx was built without CUDA");
  return std::nullopt;
}

void engine_stop() {}

std::string engine_name() { return "mpi (local: " + std::string(local_cuda ? "cuda" : "seq/par/tbb") + ")"; }

bool engine_on_gpu() { return local_cuda; }

sharded_outcome run_sharded(const sharded_call& c) {
  const argx::backend local = pick_local();
  last_local = argx::name(local);
  INFO("this rank's local backend: ", last_local);
  const std::vector<unsigned char> before = *c.local.storage;
  argx::shard x = argx::make_shard(c.local.view, c.global, c.dim, c.begin);
  x.end = c.end;  // as the test says, even when it disagrees with the view
  device_buffer input;
  if (local_cuda) {
    input = device_buffer(c.local.storage->size());
    input.upload(c.local.storage->data(), c.local.storage->size());
    x.local.data = static_cast<const unsigned char*>(input.data()) + c.local.data_offset();
    x.local.space = argx::memory_space::device;
  }

  const argx::shape extents = outputs_for(c, x);
  std::int64_t count = 1;
  for (auto e : extents) count *= e;
  const bool int32 = c.spec.index == argx::index_type::int32;
  const std::size_t iw = int32 ? 4 : 8, vw = argx::size_of(c.local.type());
  std::vector<unsigned char> indices((count + 1) * iw, sentinel), values((count + 1) * vw, sentinel);
  const auto space = c.misplaced_outputs ? argx::memory_space::device : argx::memory_space::host;
  const auto iv = argx::make_output(indices.data(), int32 ? argx::dtype::i32 : argx::dtype::i64, extents, space);
  const auto vv = argx::make_output(values.data(), c.local.type(), extents, space);
  const auto pol = argx::mpi(the_world().comm, argx::policy{local});
  const bool result_form = c.values && !c.output_extents && !c.misplaced_outputs && !int32 && ++calls % 3 == 0;

  sharded_outcome out;
  try {
    if (result_form) {
      const argx::result r = argx::reduce(pol, c.op, x, c.spec);
      out.extents = r.extents;
      out.indices = r.indices;
      for (std::size_t o = 0; o < r.size(); ++o) out.value_bits.push_back(load_bits(r.value_type, r.values.data() + o * vw));
      return out;
    }
    argx::reduce(pol, c.op, x, iv, c.values ? &vv : nullptr, c.spec);
  } catch (const argx::error&) {
    CHECK_MESSAGE(untouched(indices), "the index output was written by a call that raised");
    CHECK_MESSAGE(untouched(values), "the values output was written by a call that raised");
    throw;
  }
  CHECK_MESSAGE(untouched(indices, count * iw), "the index output was written past its end");
  CHECK_MESSAGE(untouched(values, c.values ? count * vw : 0), "the values output was written past its end");
  CHECK_MESSAGE(*c.local.storage == before, "the input was modified");
  out.extents = extents;
  for (std::int64_t o = 0; o < count; ++o) {
    out.indices.push_back(int32 ? static_cast<std::int64_t>(static_cast<std::int32_t>(load_bits(argx::dtype::i32, indices.data() + o * 4)))
                                : static_cast<std::int64_t>(load_bits(argx::dtype::i64, indices.data() + o * 8)));
    if (c.values) out.value_bits.push_back(load_bits(c.local.type(), values.data() + o * vw));
  }
  return out;
}

}  // namespace argx_test
