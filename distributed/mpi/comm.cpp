#include "comm.hpp"

#include <string>

#include <argx/error.hpp>

namespace argx::distributed::mpi {

void check(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  if (MPI_Error_string(rc, text, &length) != MPI_SUCCESS) length = 0;
  throw error(errc::comm_failure, std::string(what) + " failed: " +
                                      (length > 0 ? std::string(text, length) : "MPI error " + std::to_string(rc)));
}

place place_in(MPI_Comm comm) {
  int initialized = 0, finalized = 0;
  check(MPI_Initialized(&initialized), "MPI_Initialized");
  check(MPI_Finalized(&finalized), "MPI_Finalized");
  if (!initialized || finalized)
    throw error(errc::bad_argument,
                initialized ? "argx::mpi called after MPI_Finalize" : "argx::mpi called before MPI_Init");
  int inter = 0;  // MPI_COMM_NULL and other invalid handles fail here (comm_failure)
  check(MPI_Comm_test_inter(comm, &inter), "MPI_Comm_test_inter");
  if (inter) throw error(errc::bad_argument, "argx::mpi needs an intracommunicator, not an intercommunicator");
  place p;
  check(MPI_Comm_size(comm, &p.size), "MPI_Comm_size");
  check(MPI_Comm_rank(comm, &p.rank), "MPI_Comm_rank");
  return p;
}

}  // namespace argx::distributed::mpi
