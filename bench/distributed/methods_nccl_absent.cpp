// The benchmark built without NCCL: its NCCL methods do not exist.
#include <stdexcept>

#include "methods.hpp"

namespace argx_bench {

std::unique_ptr<method> argx_nccl(MPI_Comm) { throw std::runtime_error("this benchmark was built without NCCL"); }
std::unique_ptr<method> allgather_nccl(MPI_Comm) { throw std::runtime_error("this benchmark was built without NCCL"); }
bool nccl_built() { return false; }

}  // namespace argx_bench
