#include "sharded.hpp"

#include <algorithm>

#include <doctest/doctest.h>

#include "element_bits.hpp"

namespace argx_test {

namespace {
world current;
}

const world& the_world() { return current; }
void set_world(const world& w) { current = w; }

bool untouched(const std::vector<unsigned char>& bytes, std::size_t from) {
  for (std::size_t i = from; i < bytes.size(); ++i)
    if (bytes[i] != output_sentinel) return false;
  return true;
}

argx::shard shard_of(const sharded_call& c, const void* data, argx::memory_space space) {
  argx::shard x = argx::make_shard(c.local.view, c.global, c.dim, c.begin);
  x.end = c.end;
  x.local.data = data;
  x.local.space = space;
  return x;
}

argx::shape outputs_for(const sharded_call& c, const argx::shard& x) {
  if (c.output_extents) return *c.output_extents;
  try {
    return argx::output_shape(x, c.spec);
  } catch (const argx::error&) {
    return {};  // an invalid call: it must raise, whatever the outputs
  }
}

sharded_outcome read_outputs(const sharded_call& c, const argx::shape& extents,
                             const std::vector<unsigned char>& indices, const std::vector<unsigned char>& values) {
  const bool int32 = c.spec.index == argx::index_type::int32;
  const std::size_t iw = int32 ? 4 : 8, vw = argx::size_of(c.local.type());
  const std::size_t count = indices.size() / iw - 1;
  CHECK_MESSAGE(untouched(indices, count * iw), "the index output was written past its end");
  CHECK_MESSAGE(untouched(values, c.values ? count * vw : 0), "the values output was written past its end");
  sharded_outcome out;
  out.extents = extents;
  for (std::size_t o = 0; o < count; ++o) {
    const std::uint64_t bits = load_bits(int32 ? argx::dtype::i32 : argx::dtype::i64, indices.data() + o * iw);
    out.indices.push_back(int32 ? static_cast<std::int32_t>(bits) : static_cast<std::int64_t>(bits));
    if (c.values) out.value_bits.push_back(load_bits(c.local.type(), values.data() + o * vw));
  }
  return out;
}

std::vector<range> ranges_at(std::int64_t n, const std::vector<std::int64_t>& cuts) {
  std::vector<range> out;
  std::int64_t begin = 0;
  for (auto c : cuts) {
    out.push_back({begin, c});
    begin = c;
  }
  out.push_back({begin, n});
  return out;
}

std::vector<range> random_ranges(rng& r, std::int64_t n, int parts, bool shuffle) {
  std::vector<std::int64_t> cuts;
  for (int i = 1; i < parts; ++i) {
    // Cuts anywhere in [0, n], repeated now and then (an empty range in the middle).
    if (!cuts.empty() && r.chance(0.2))
      cuts.push_back(cuts.back());
    else
      cuts.push_back(static_cast<std::int64_t>(r.below(static_cast<std::uint64_t>(n) + 1)));
  }
  std::sort(cuts.begin(), cuts.end());
  std::vector<range> out = ranges_at(n, cuts);
  if (shuffle)
    for (int i = parts - 1; i > 0; --i) std::swap(out[i], out[r.below(static_cast<std::uint64_t>(i) + 1)]);
  return out;
}

sharded_call part_of(argx::op o, const host_tensor& whole, int dim, const std::vector<range>& ranges,
                     const argx::spec& s, bool values) {
  const range mine = ranges.at(static_cast<std::size_t>(the_world().rank));
  sharded_call c;
  c.op = o;
  c.local = whole.sliced(dim, mine.begin, mine.end);
  c.global = whole.view.extents;
  c.dim = dim;
  c.begin = mine.begin;
  c.end = mine.end;
  c.spec = s;
  c.values = values;
  return c;
}

namespace {

// seq's answer on the whole tensor as an outcome.
sharded_outcome outcome_of(const argx::result& r) {
  sharded_outcome out{r.extents, r.indices, {}};
  const std::size_t vw = argx::size_of(r.value_type);
  for (std::size_t o = 0; o < r.size(); ++o)
    out.value_bits.push_back(load_bits(r.value_type, r.values.data() + o * vw));
  return out;
}

// The slab [begin, end) along dim `at` of a row-major output.
sharded_outcome slab_of(const sharded_outcome& whole, int at, std::int64_t begin, std::int64_t end) {
  sharded_outcome out;
  out.extents = whole.extents;
  out.extents[at] = end - begin;
  std::int64_t outer = 1, inner = 1;
  for (int d = 0; d < at; ++d) outer *= whole.extents[d];
  for (int d = at + 1; d < whole.extents.size(); ++d) inner *= whole.extents[d];
  const std::int64_t n = whole.extents[at];
  for (std::int64_t a = 0; a < outer; ++a)
    for (std::int64_t c = begin; c < end; ++c)
      for (std::int64_t i = 0; i < inner; ++i) {
        const std::size_t o = static_cast<std::size_t>((a * n + c) * inner + i);
        out.indices.push_back(whole.indices[o]);
        out.value_bits.push_back(whole.value_bits[o]);
      }
  return out;
}

}  // namespace

void check_sharded(argx::op o, const host_tensor& whole, int dim, const std::vector<range>& ranges, const argx::spec& s,
                   bool values) {
  const sharded_call c = part_of(o, whole, dim, ranges, s, values);
  const int rank = whole.rank();
  const int split = dim < 0 ? dim + rank : dim;
  const sharded_outcome whole_answer = outcome_of(argx::reduce(argx::seq, o, whole.view, s));
  const bool split_reduced = argx::detail::reduced_mask(s, rank) >> split & 1u;
  const sharded_outcome want =
      split_reduced ? whole_answer
                    : slab_of(whole_answer, argx::detail::output_position(split, rank, s), c.begin, c.end);
  INFO(engine_name(), " rank ", the_world().rank, "/", the_world().size, ": ", describe(whole), " split dim ", dim,
       " at [", c.begin, ", ", c.end, "); ", describe(o, s), values ? "" : " (no values)");
  const sharded_outcome got = run_sharded(c);
  REQUIRE(to_string(got.extents) == to_string(want.extents));
  REQUIRE(got.indices.size() == want.indices.size());
  std::string mismatch;  // the first difference only
  for (std::size_t i = 0; i < want.indices.size() && mismatch.empty(); ++i) {
    if (got.indices[i] != want.indices[i])
      mismatch = "output " + std::to_string(i) + ": index " + std::to_string(got.indices[i]) + " but seq says " +
                 std::to_string(want.indices[i]);
    else if (values && got.value_bits[i] != want.value_bits[i])
      mismatch = "output " + std::to_string(i) + ": value " + hex_bits(whole.type(), got.value_bits[i]) +
                 " but seq says " + hex_bits(whole.type(), want.value_bits[i]);
  }
  CHECK_MESSAGE(mismatch.empty(), mismatch);
}

std::vector<std::string> gather_strings(const std::string& text) {
  const world& w = the_world();
  const int length = static_cast<int>(text.size());
  std::vector<int> lengths(static_cast<std::size_t>(w.size)), offsets(static_cast<std::size_t>(w.size));
  MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, w.comm);
  int total = 0;
  for (int r = 0; r < w.size; ++r) offsets[r] = total, total += lengths[r];
  std::string all(static_cast<std::size_t>(total), '\0');
  MPI_Allgatherv(text.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, w.comm);
  std::vector<std::string> out;
  for (int r = 0; r < w.size; ++r) out.push_back(all.substr(offsets[r], lengths[r]));
  return out;
}

std::string same_on_every_rank(const std::string& text) {
  const auto all = gather_strings(text);
  for (std::size_t r = 1; r < all.size(); ++r) CHECK_MESSAGE(all[r] == all[0], "rank ", r, " differs from rank 0");
  return text;
}

}  // namespace argx_test
