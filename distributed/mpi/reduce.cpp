// argx::mpi: each rank reduces its shard locally into host buffers, the ranks exchange
// reports (one MPI_Allgather) and agree or all raise the same error, then, when the split
// dim is reduced, one MPI_Allreduce combines the candidates. The caller's outputs are
// written only after the ranks agreed.
#include <argx/mpi.hpp>

#include <argx/devices.hpp>
#include "../common/agreement.hpp"
#include "combine.hpp"
#include "comm.hpp"
#include "records.hpp"

namespace argx {
namespace {

using distributed::shard_plan;

// MPI exchanges host memory: the outputs must be host memory (the input may be anywhere
// the local policy reads).
void require_host_output(const output_view& out, const char* what) {
  if (out.space != memory_space::host || (out.data && locate(out.data) != memory_space::host))
    throw error(errc::wrong_memory_space,
                std::string("argx::mpi writes host memory, but the ") + what + " output is device memory");
}

// Where this rank's answer goes: the caller's buffers, or a result made here.
struct destination {
  const output_view* indices = nullptr;
  const output_view* values = nullptr;
  result* made = nullptr;
};

// This rank's own part: validate, then reduce the shard with the local policy into host
// buffers. Throws argx::error; the caller turns it into this rank's status.
distributed::mpi::local_answer reduce_locally(const mpi_policy& pol, op o, const shard& x, const spec& s,
                                              const shard_plan& sp, destination& to) {
  if (to.made) {
    result& r = *to.made;
    r.extents = sp.outputs.out_extents;
    r.value_type = x.local.type;
    r.indices.resize(static_cast<std::size_t>(sp.outputs.outputs));
    r.values.resize(static_cast<std::size_t>(sp.outputs.outputs) * size_of(x.local.type));
  } else {
    detail::check_output(sp.outputs, *to.indices, s.index == index_type::int64 ? dtype::i64 : dtype::i32, "index");
    require_host_output(*to.indices, "index");
    if (to.values) {
      detail::check_output(sp.outputs, *to.values, x.local.type, "values");
      require_host_output(*to.values, "values");
    }
  }
  distributed::mpi::local_answer local;
  if (!sp.reduces_locally()) return local;
  local.indices.resize(static_cast<std::size_t>(sp.outputs.outputs));
  local.values.resize(static_cast<std::size_t>(sp.outputs.outputs) * size_of(x.local.type));
  spec ls = s;
  ls.index = index_type::int64;  // positions of the local slices; the caller's type is written at the end
  const output_view iv = make_output(local.indices.data(), sp.outputs.out_extents);
  const output_view vv = make_output(static_cast<void*>(local.values.data()), x.local.type, sp.outputs.out_extents);
  reduce(pol.local, o, x.local, iv, &vv, ls);
  return local;
}

void reduce_sharded(const mpi_policy& pol, op o, const shard& x, const spec& s, destination to) {
  const distributed::mpi::place where = distributed::mpi::place_in(pol.comm);  // nothing to agree with without it
  const bool values = to.made || to.values;
  shard_plan sp;
  distributed::mpi::local_answer local;
  std::exception_ptr failure;
  try {
    sp = distributed::make_shard_plan(o, x, s);
    local = reduce_locally(pol, o, x, s, sp, to);
  } catch (...) {
    failure = std::current_exception();
  }
  const auto mine = distributed::make_report(o, x, s, values, distributed::status_of(failure, "argx::mpi reduce"));
  distributed::agree(distributed::mpi::allgather(pol.comm, where, mine));

  void* index_out = to.made ? to.made->indices.data() : to.indices->data;
  void* value_out = to.made ? to.made->values.data() : (to.values ? to.values->data : nullptr);
  if (to.made) sp.outputs.index = index_type::int64;  // a result holds int64 indices
  if (!sp.split_reduced) {
    distributed::mpi::write_local(sp, local, index_out, value_out);
    return;
  }
  const int words = values ? distributed::mpi::record_words_with_values : distributed::mpi::record_words_without_values;
  auto records = distributed::mpi::make_records(sp, local, words);
  distributed::mpi::allreduce_records(pol.comm, records.data(), sp.outputs.outputs, words);
  distributed::mpi::write_records(sp, records, words, index_out, value_out);
}

}  // namespace

// Like argx's own entry points, these let only argx::error out (std::bad_alloc as
// out_of_memory, anything unexpected as internal).
void reduce(const mpi_policy& pol, op o, const shard& x, const output_view& indices, const output_view* values,
            const spec& s) {
  detail::with_argx_errors("argx::mpi reduce",
                           [&] { reduce_sharded(pol, o, x, s, destination{&indices, values, nullptr}); });
}

result reduce(const mpi_policy& pol, op o, const shard& x, const spec& s) {
  return detail::with_argx_errors("argx::mpi reduce", [&] {
    result r;
    reduce_sharded(pol, o, x, s, destination{nullptr, nullptr, &r});
    return r;
  });
}

void raise_on_every_rank(MPI_Comm comm, const std::exception_ptr& failure) {
  detail::with_argx_errors("raise_on_every_rank", [&] {
    const distributed::mpi::place where = distributed::mpi::place_in(comm);
    distributed::raise_first_failure(
        distributed::mpi::allgather(comm, where, distributed::status_of(failure, "raise_on_every_rank")));
  });
}

}  // namespace argx
