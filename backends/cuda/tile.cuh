// Tile level: how one thread, or a team of threads, walks its share of a slice and keeps
// the best candidate; how a winner is stored; how blocks that split a slice meet.
// Built on the block/warp building blocks (argx/device/block_argmax.cuh).
#pragma once

#include <cstdint>
#include <cstring>

#include <argx/device/block_argmax.cuh>
#include <argx/plan.hpp>

#include "launch.hpp"

namespace argx::detail::gpu {

template <dtype D>
using bits_t = typename dtype_traits<D>::bits_type;
template <dtype D>
using key_t = typename dtype_traits<D>::key_type;

/// Elements in one 16-byte vector load (4 floats, 8 halves, 16 bytes...).
template <dtype D>
inline constexpr int vec_elems = static_cast<int>(16 / sizeof(bits_t<D>));

/// A partial candidate as stored in the workspace: 16 bytes whatever the key width.
template <class K>
struct partial {
  K key;
  std::int64_t pos;
};

// ---- loads ---------------------------------------------------------------------------------

template <dtype D>
struct vec {
  bits_t<D> e[vec_elems<D>];
};

/// One 16-byte load (p must be 16-byte aligned), through the read-only path.
template <dtype D>
__device__ __forceinline__ vec<D> load_vec(const bits_t<D>* p) {
  const uint4 raw = __ldg(reinterpret_cast<const uint4*>(p));
  vec<D> v;
  std::memcpy(&v, &raw, sizeof(v));
  return v;
}

template <dtype D>
__device__ __forceinline__ key_t<D> key_at(const bits_t<D>* p, key_params kp) {
  return order_key<D>(__ldg(p), kp);
}

// ---- keys ------------------------------------------------------------------------------------

/// The key parameters a loop is compiled for. Plain loops know that abs and nan_ignore
/// are off (the common case), so order_key folds to a few instructions per element;
/// argmin stays a run-time flag (one xor). Either way the key is order_key's.
template <bool Plain>
__device__ __forceinline__ key_params loop_keys(key_params kp) {
  if constexpr (Plain) return key_params{kp.argmin, false, false};
  return kp;
}

// ---- a thread's running best ------------------------------------------------------------

/// True when key k at a higher position than `best`'s beats it: a larger key, or an equal
/// one with ties_last.
template <class K>
__device__ __forceinline__ bool better_later(K k, K best, bool ties_last) {
  bool b = k > best;
  b |= ties_last & (k == best);
  return b;
}

/// The best candidate of one thread over positions it visits in ascending order. Because
/// every new position is higher than the ones before, an equal key replaces the best only
/// with ties_last: the same answer as combine(), one compare cheaper.
template <class K, class P>
struct ascending_best {
  K key;
  P pos;

  /// Starts from argx's seed for a slice of `count` positions.
  __device__ static ascending_best seeded(std::int64_t count, bool ties_last) {
    return {K(0), static_cast<P>(ties_last ? count - 1 : 0)};
  }
  __device__ __forceinline__ void take(K k, P p, bool ties_last) {
    const bool b = better_later(k, key, ties_last);
    key = b ? k : key;
    pos = b ? p : pos;
  }
  /// Folds in a candidate at any position (full combine).
  __device__ __forceinline__ void merge(K k, P p, bool ties_last) {
    if (beats(k, static_cast<std::int64_t>(p), key, static_cast<std::int64_t>(pos), ties_last)) {
      key = k;
      pos = p;
    }
  }
};

/// The largest key of a vector's elements.
template <dtype D, bool Plain>
__device__ __forceinline__ key_t<D> vec_max_key(const vec<D>& x, key_params kp) {
  key_t<D> m = order_key<D>(x.e[0], loop_keys<Plain>(kp));
#pragma unroll
  for (int j = 1; j < vec_elems<D>; ++j) {
    const key_t<D> k = order_key<D>(x.e[j], loop_keys<Plain>(kp));
    m = k > m ? k : m;
  }
  return m;
}

/// The position in x (first, or last with ties_last) whose key is `key` (which must occur).
template <dtype D>
__device__ __forceinline__ int vec_find_key(const vec<D>& x, key_t<D> key, key_params kp, bool ties_last) {
  int found = -1;
#pragma unroll
  for (int j = 0; j < vec_elems<D>; ++j)
    if (order_key<D>(x.e[j], kp) == key && (ties_last || found < 0)) found = j;
  return found;
}

// ---- contiguous runs ---------------------------------------------------------------------

/// Visits positions [begin, end) of a contiguous slice (`slice` points at position 0) as
/// member `rank` of a team of `team` threads: a scalar head up to the first 16-byte
/// boundary, 16-byte vectors dealt round-robin (Unroll loads in flight), a scalar tail.
/// The vectors keep only their best key and where that vector starts; the winning vector
/// is read once more at the end to find the element. The slice must be aligned to its
/// element size.
template <dtype D, int Unroll, bool Plain, class P>
__device__ __forceinline__ void scan_contiguous(const bits_t<D>* slice, P begin, P end, int rank, int team,
                                                key_params kp, bool ties_last, ascending_best<key_t<D>, P>& best) {
  using B = bits_t<D>;
  using K = key_t<D>;
  constexpr int V = vec_elems<D>;
  const unsigned misalign = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(slice + begin) & 15u) / sizeof(B);
  P head = misalign ? static_cast<P>(V - misalign) : P(0);
  if (head > end - begin) head = end - begin;
  for (P i = begin + rank; i < begin + head; i += team) best.take(key_at<D>(slice + i, kp), i, ties_last);

  const P body = begin + head;
  const P nvec = (end - body) / V;
  const B* vbase = slice + body;
  K vkey = 0;
  P vidx = -1;  // the winning vector's index (none yet)
  P v = rank;
  auto fold = [&](const vec<D>& x, P index) {
    const K m = vec_max_key<D, Plain>(x, kp);
    const bool b = better_later(m, vkey, ties_last);
    vkey = b ? m : vkey;
    vidx = b ? index : vidx;
  };
  // Software-pipelined: the next Unroll loads are issued before this batch is folded, so
  // every thread keeps 2 * Unroll 16-byte loads in flight.
  if (v + P(Unroll - 1) * team < nvec) {
    vec<D> x[Unroll];
#pragma unroll
    for (int u = 0; u < Unroll; ++u) x[u] = load_vec<D>(vbase + (v + P(u) * team) * V);
    for (;;) {
      const P next = v + P(Unroll) * team;
      const bool more = next + P(Unroll - 1) * team < nvec;
      vec<D> y[Unroll];
      if (more) {
#pragma unroll
        for (int u = 0; u < Unroll; ++u) y[u] = load_vec<D>(vbase + (next + P(u) * team) * V);
      }
#pragma unroll
      for (int u = 0; u < Unroll; ++u) fold(x[u], v + P(u) * team);
      v = next;
      if (!more) break;
#pragma unroll
      for (int u = 0; u < Unroll; ++u) x[u] = y[u];
    }
  }
  for (; v < nvec; v += team) fold(load_vec<D>(vbase + v * V), v);
  for (P i = body + nvec * V + rank; i < end; i += team) best.take(key_at<D>(slice + i, kp), i, ties_last);
  if (vidx >= 0) {
    const int j = vec_find_key<D>(load_vec<D>(vbase + vidx * V), vkey, kp, ties_last);
    best.merge(vkey, body + vidx * V + j, ties_last);
  }
}

/// Short aligned rows for a team kernel: each of the team's lanes holds vectors `rank` and
/// `rank + team` of two rows at once (all four loads in flight), positions ascending.
template <dtype D, bool Plain>
__device__ __forceinline__ void scan_short_pair(const bits_t<D>* row_a, const bits_t<D>* row_b, bool has_a, bool has_b,
                                                int nvr, int rank, int team, key_params kp, bool ties_last,
                                                ascending_best<key_t<D>, int>& a, ascending_best<key_t<D>, int>& b) {
  constexpr int V = vec_elems<D>;
  const bool lo = rank < nvr, hi = rank + team < nvr;
  vec<D> x[4];
  if (has_a && lo) x[0] = load_vec<D>(row_a + rank * V);
  if (has_a && hi) x[1] = load_vec<D>(row_a + (rank + team) * V);
  if (has_b && lo) x[2] = load_vec<D>(row_b + rank * V);
  if (has_b && hi) x[3] = load_vec<D>(row_b + (rank + team) * V);
#pragma unroll
  for (int u = 0; u < 4; ++u) {
    if (!((u < 2 ? has_a : has_b) && ((u & 1) ? hi : lo))) continue;
    auto& best = u < 2 ? a : b;
    const int first = ((u & 1) ? rank + team : rank) * V;
#pragma unroll
    for (int j = 0; j < V; ++j) best.take(order_key<D>(x[u].e[j], loop_keys<Plain>(kp)), first + j, ties_last);
  }
}

// ---- any strides: an odometer over the reduced dims --------------------------------------

/// The element offset of a position in a slice, kept up to date as the position advances.
struct odometer {
  std::int64_t idx[max_rank];
  std::int64_t off;

  __device__ void start(const plan& p, std::int64_t pos) {
    off = 0;
    for (int d = p.reduced_extents.size() - 1; d >= 0; --d) {
      idx[d] = pos % p.reduced_extents[d];
      pos /= p.reduced_extents[d];
      off += idx[d] * p.reduced_strides[d];
    }
  }
  /// Moves `step` positions on (the result must stay inside the slice).
  __device__ void advance(const plan& p, std::int64_t step) {
    int d = p.reduced_extents.size() - 1;
    idx[d] += step;
    off += step * p.reduced_strides[d];
    while (idx[d] >= p.reduced_extents[d]) {  // carry into the next dim out
      const std::int64_t carry = idx[d] / p.reduced_extents[d];
      idx[d] -= carry * p.reduced_extents[d];
      off -= carry * p.reduced_extents[d] * p.reduced_strides[d];
      --d;
      idx[d] += carry;
      off += carry * p.reduced_strides[d];
    }
  }
};

/// Visits positions begin + rank, begin + rank + team, ... < end of a slice with any
/// strides (`slice` points at position 0).
template <dtype D, class P>
__device__ void scan_general(const plan& p, const bits_t<D>* slice, P begin, P end, int rank, int team,
                             ascending_best<key_t<D>, P>& best) {
  P i = begin + rank;
  if (i >= end) return;
  odometer od;
  od.start(p, i);
  for (;;) {
    best.take(key_at<D>(slice + od.off, p.keys), i, p.ties_last);
    if (end - i <= team) break;
    i += team;
    od.advance(p, team);
  }
}

// ---- slices, winners, outputs --------------------------------------------------------------

/// Element offset of output o's slice (rows of a merged contiguous tensor: o * stride).
__device__ __forceinline__ std::int64_t slice_start(const plan& p, std::int64_t o) {
  return p.kept_extents.size() == 1 ? o * p.kept_strides[0] : kept_offset(p, o);
}

/// Element offset, inside a slice, of position pos.
template <bool General>
__device__ __forceinline__ std::int64_t position_offset(const plan& p, std::int64_t pos) {
  if constexpr (General) return reduced_offset(p, pos);
  return pos;  // contiguous slices: the reduced stride is 1
}

/// Writes output o: the reported index and, when asked, the winning element's bits.
template <dtype D>
__device__ __forceinline__ void store_winner(const plan& p, const device_outputs& out, std::int64_t o,
                                             const bits_t<D>* winner, candidate<key_t<D>> c) {
  const std::int64_t index = reported_index(c, p.keys, dtype_traits<D>::is_float);
  if (p.index == index_type::int64)
    static_cast<std::int64_t*>(out.indices)[o] = index;
  else
    static_cast<std::int32_t*>(out.indices)[o] = static_cast<std::int32_t>(index);
  if (out.values) static_cast<bits_t<D>*>(out.values)[o] = *winner;
}

// ---- blocks that split one slice ------------------------------------------------------------

/// Called by every thread of a block after it wrote its partials: true in every thread of
/// the last block of `expected` to arrive at `counter`. That block sees every partial the
/// others wrote; the counter is back at zero for the next launch.
__device__ inline bool arrive_last(unsigned* counter, unsigned expected, bool& flag) {
  __threadfence();  // this thread's partials are visible device-wide before the count
  __syncthreads();
  if (threadIdx.x == 0) {
    const bool last = atomicAdd(counter, 1u) == expected - 1;
    if (last) *counter = 0;  // every other block has already counted
    flag = last;
  }
  __syncthreads();
  const bool last = flag;
  if (last) __threadfence();
  __syncthreads();  // flag may be rewritten by the next arrival
  return last;
}

/// The same for a warp that finished its item alone: true in every lane of the last warp
/// of `expected` to arrive. Every lane that wrote partials has fenced them first.
__device__ inline bool warp_arrive_last(unsigned* counter, unsigned expected) {
  __threadfence();
  __syncwarp();
  unsigned last = 0;
  if ((threadIdx.x & 31) == 0) {
    last = atomicAdd(counter, 1u) == expected - 1;
    if (last) *counter = 0;
  }
  last = __shfl_sync(device::full_warp, last, 0);
  if (last) __threadfence();
  return last != 0;
}

/// Reads a partial another block wrote (bypassing the non-coherent L1).
template <class K>
__device__ __forceinline__ candidate<K> load_partial(const partial<K>* ps, std::int64_t i) {
  const volatile partial<K>* v = ps + i;
  return candidate<K>{v->key, v->pos};
}

template <class K>
__device__ __forceinline__ void store_partial(partial<K>* ps, std::int64_t i, candidate<K> c) {
  ps[i].key = c.key;
  ps[i].pos = c.pos;
}

}  // namespace argx::detail::gpu
