// What only argx::mpi has: a local backend chosen per rank (one of them unusable),
// argx::raise_on_every_rank, MPI errors as comm_failure, and sub-communicators.
#include <argx/mpi.hpp>

#include <doctest/doctest.h>

#include <new>
#include <stdexcept>
#include <string>

#include "element_bits.hpp"
#include "sharded.hpp"

using namespace argx_test;
using argx::dtype;

TEST_CASE("mpi: a local backend that is unusable on one rank fails on every rank") {
  const argx::backend missing = !argx::available(argx::backend::cuda) ? argx::backend::cuda : argx::backend::tbb;
  if (argx::available(missing)) return;  // every backend is usable here
  rng r(8);
  const host_tensor whole = random_tensor(r, dtype::f32, {2, 9});
  const auto [b, e] = argx::even_split(9, the_world().size, the_world().rank);
  const argx::shard x = argx::make_shard(whole.sliced(1, b, e).view, {2, 9}, 1, b);
  const bool last = the_world().rank == the_world().size - 1;
  const auto pol = argx::mpi(the_world().comm, last ? argx::policy{missing} : argx::policy{argx::backend::seq});
  const std::string got = collective_error([&] { (void)argx::argmax(pol, x, {.dims = {1}}); });
  CHECK(got.rfind("backend_unavailable: argx: rank " + std::to_string(the_world().size - 1) + ": backend " +
                      std::string(argx::name(missing)),
                  0) == 0);
}

TEST_CASE("mpi: raise_on_every_rank") {
  const world& w = the_world();
  CHECK(collective_error([&] { argx::raise_on_every_rank(w.comm, nullptr); }) == "no error");
  std::exception_ptr failure;
  if (w.rank == w.size - 1)
    failure = std::make_exception_ptr(argx::error(argx::errc::io_failure, "cannot read part.npy"));
  CHECK(collective_error([&] { argx::raise_on_every_rank(w.comm, failure); }) ==
        "io_failure: argx: rank " + std::to_string(w.size - 1) + ": cannot read part.npy");
  // The lowest failing rank wins; an exception that is not argx's is internal (with its text)
  // and std::bad_alloc out_of_memory, as argx's entry points raise them.
  failure = std::make_exception_ptr(std::runtime_error("disk on fire"));
  CHECK(collective_error([&] { argx::raise_on_every_rank(w.comm, failure); }) ==
        "internal: argx: rank 0: raise_on_every_rank: unexpected disk on fire");
  failure = w.rank == w.size - 1 ? std::make_exception_ptr(std::bad_alloc()) : nullptr;
  CHECK(collective_error([&] { argx::raise_on_every_rank(w.comm, failure); }) ==
        "out_of_memory: argx: rank " + std::to_string(w.size - 1) + ": raise_on_every_rank: host memory is exhausted");
}

TEST_CASE("mpi: MPI errors are comm_failure when the communicator returns errors") {
  MPI_Errhandler previous_world, previous_self;
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &previous_world);
  MPI_Comm_get_errhandler(MPI_COMM_SELF, &previous_self);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  const std::vector<float> v = {1, 2, 3};
  const argx::shard x = argx::make_shard(argx::make_view(v), {3}, 0, 0);
  std::string got = "no error";
  try {
    (void)argx::argmax(argx::mpi(MPI_COMM_NULL, argx::seq), x);
  } catch (const argx::error& e) {
    got = std::string(argx::to_string(e.code())) + ": " + e.what();
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, previous_world);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, previous_self);
  MPI_Errhandler_free(&previous_world);
  MPI_Errhandler_free(&previous_self);
  INFO(got);
  CHECK(got.rfind("comm_failure: argx: MPI_Comm_test_inter failed: ", 0) == 0);
}

TEST_CASE("mpi: sub-communicators reduce their own tensors side by side") {
  const world& w = the_world();
  MPI_Comm half;
  MPI_Comm_split(w.comm, w.rank % 2, w.rank, &half);
  int rank = 0, size = 1;
  MPI_Comm_rank(half, &rank);
  MPI_Comm_size(half, &size);
  rng r(100 + static_cast<std::uint64_t>(w.rank % 2));  // each half its own tensor
  const host_tensor whole = random_tensor(r, dtype::bf16, {5, 40});
  const auto [b, e] = argx::even_split(40, size, rank);
  const argx::shard x = argx::make_shard(whole.sliced(1, b, e).view, {5, 40}, 1, b);
  const argx::spec s{.dims = {1}, .ties = argx::tie_break::last};
  const argx::result got = argx::argmax(argx::mpi(half, argx::seq), x, s);
  const argx::result want = argx::argmax(argx::seq, whole.view, s);
  CHECK(got.indices == want.indices);
  CHECK(got.values == want.values);
  MPI_Comm_free(&half);
}
