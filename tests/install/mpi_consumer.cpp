// A consumer of argx-mpi, run under mpirun: each rank holds some columns of a (2, 7)
// matrix; every rank must get the argmax of each row over all the columns.
#include <argx/mpi.hpp>

#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::vector<float> whole = {1, 7, 3, 7, 2, 0, 7,  //
                                    4, 4, 9, 1, 9, 9, 0};
  const auto [begin, end] = argx::even_split(7, size, rank);
  const auto mine = argx::make_view(whole.data(), {2, 7}).sliced(1, begin, end);
  const argx::result r =
      argx::argmax(argx::mpi(MPI_COMM_WORLD, argx::automatic), argx::make_shard(mine, {2, 7}, 1, begin), {.dims = {1}});
  const bool ok = r.indices == std::vector<std::int64_t>{1, 2};
  std::printf("rank %d of %d: %lld %lld %s\n", rank, size, (long long)r.indices[0], (long long)r.indices[1],
              ok ? "ok" : "WRONG");
  MPI_Finalize();
  return ok ? 0 : 1;
}
