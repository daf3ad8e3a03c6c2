// `argx reduce ... --distributed DIM` under mpirun: every rank reads its slab of the file
// along DIM, argx::mpi combines, rank 0 writes. Built from distributed_reduce.cpp with MPI,
// from distributed_unavailable.cpp without.
#pragma once

#include <string>

#include "reduction_args.hpp"

namespace argx::cli {

struct distributed_job {
  std::string input, output, values_path;  ///< values_path empty: no values
  reduction_args reduction;
  std::string backend = "auto";  ///< each rank's local backend
  int repeat = 0;                ///< > 0: time that many runs after a warm-up
  int dim = 0;                   ///< the split dim
};

/// Runs the job on the ranks of MPI_COMM_WORLD (initializing MPI when needed) and returns
/// the exit status. Failures happen on every rank alike; rank 0 prints them (once), and
/// every rank returns the status (1, or 2 for a usage error).
int distributed_reduce(const distributed_job& job);

}  // namespace argx::cli
