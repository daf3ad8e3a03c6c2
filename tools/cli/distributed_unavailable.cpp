// distributed_reduce when argx was built without MPI.
#include <argx/error.hpp>

#include "distributed.hpp"

namespace argx::cli {

int distributed_reduce(const distributed_job&) {
  throw error(errc::backend_unavailable, "--distributed: argx was built without MPI (argx-mpi)");
}

}  // namespace argx::cli
