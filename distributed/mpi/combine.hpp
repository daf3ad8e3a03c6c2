// The cross-rank combine of argx::mpi: one MPI_Allreduce of candidate records through a
// commutative user-defined MPI_Op.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace argx::distributed::mpi {

/// A candidate record is `words` (2 or 3) uint64: the order key, the position word of its
/// global position (position.hpp: larger wins, 0 = no candidate) and, with 3 words, the
/// element's bits. The record with the greater (key, position word) wins, which is the argx
/// order; an all-zero record loses to every real one.
inline constexpr int record_words_without_values = 2;
inline constexpr int record_words_with_values = 3;

/// Replaces each of `outputs` records with the winner over all ranks of `comm`, on every
/// rank (MPI_Allreduce in place, in chunks of at most 2^30 records).
void allreduce_records(MPI_Comm comm, std::uint64_t* records, std::int64_t outputs, int words);

}  // namespace argx::distributed::mpi
