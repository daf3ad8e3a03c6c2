// The README's argx::mpi example, compiled and run in test_mpi (every rank runs it): the
// snippet between the README markers appears verbatim in README.md (readme_sync.py).
#include <argx/mpi.hpp>

#include <doctest/doctest.h>

#include <vector>

#include "element_bits.hpp"
#include "sharded.hpp"

TEST_CASE("README: vocabulary-parallel greedy decoding with argx::mpi") {
  const std::int64_t batch = 3, vocab = 1000;
  std::vector<float> whole(batch * vocab);  // the logits one process would hold
  for (std::size_t i = 0; i < whole.size(); ++i) whole[i] = static_cast<float>((i * 7919) % 1009);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const auto [first, last] = argx::even_split(vocab, size, rank);
  const argx::tensor_view my_logits = argx::make_view(whole.data(), {batch, vocab}).sliced(1, first, last);

  // README begin mpi_vocab
  // This rank holds columns [begin, end) of the (batch, vocab) logits.
  auto [begin, end] = argx::even_split(vocab, size, rank);
  argx::shard x = argx::make_shard(my_logits, {batch, vocab}, 1, begin);
  argx::result next = argx::argmax(argx::mpi(MPI_COMM_WORLD, argx::automatic), x, {.dims = {1}});
  // On every rank: next.indices[b] is the column of row b's largest logit over all
  // ranks, the index argx::argmax gives for the whole (batch, vocab) matrix.
  // README end mpi_vocab

  CHECK(end == last);
  const argx::result one = argx::argmax(argx::seq, argx::make_view(whole.data(), {batch, vocab}), {.dims = {1}});
  CHECK(next.indices == one.indices);
  CHECK(next.values == one.values);
}
