// The read-bandwidth ceiling the benchmark compares against: a vectorised sum of a
// buffer's bytes (as 64-bit integers), the least work any kernel that reads them can do.
#pragma once

#include <cstddef>
#include <cstdint>

namespace argx_bench {

/// Sum of the n bytes at p read as little-endian 64-bit words (and a byte tail), on the
/// calling thread, with the widest vectors this CPU has.
std::uint64_t read_sum(const void* p, std::size_t n);
/// read_sum over `threads` (1 or more) equal pieces read side by side on oneTBB threads.
std::uint64_t read_sum_threads(const void* p, std::size_t n, int threads);
/// Writes the n 64-bit words at p with plain stores (as a reduction writes its indices),
/// in `threads` equal pieces side by side.
void write_words_threads(std::uint64_t* p, std::size_t n, int threads);
/// Keeps a sum alive, so that the reads that made it cannot be optimised away.
void keep(std::uint64_t sum);
/// Name of the instruction set read_sum uses.
const char* read_target();

}  // namespace argx_bench
