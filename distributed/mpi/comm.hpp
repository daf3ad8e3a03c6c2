// The MPI calls the distributed reductions make, with failures as argx::error.
#pragma once

#include <mpi.h>

#include <type_traits>
#include <vector>

namespace argx::distributed::mpi {

/// Throws comm_failure with MPI's error text when `rc` is not MPI_SUCCESS (a communicator
/// whose error handler returns; the default handler aborts the job instead).
void check(int rc, const char* what);

/// This process's place in `comm`. Throws bad_argument before MPI_Init, after
/// MPI_Finalize and for an intercommunicator; comm_failure for an invalid communicator
/// (such as MPI_COMM_NULL) when errors return.
struct place {
  int size = 1;
  int rank = 0;
};
place place_in(MPI_Comm comm);

/// Every rank's `mine`, in rank order (one MPI_Allgather of its bytes).
template <class T>
std::vector<T> allgather(MPI_Comm comm, const place& where, const T& mine) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::vector<T> all(static_cast<std::size_t>(where.size));
  check(MPI_Allgather(&mine, sizeof(T), MPI_BYTE, all.data(), sizeof(T), MPI_BYTE, comm), "MPI_Allgather");
  return all;
}

}  // namespace argx::distributed::mpi
