// Tile level: how one thread, or a team of threads, walks its share of a slice and keeps
// the best candidate; how a winner is stored; how blocks or warps that split a slice meet.
// Built on the block/warp building blocks (argx/device/block_argmax.cuh) and the element
// level (elements.cuh).
#pragma once

#include <cstdint>

#include <argx/device/block_argmax.cuh>
#include <argx/plan.hpp>

#include "elements.cuh"
#include "launch.hpp"

namespace argx::detail::gpu {

/// A partial candidate as stored in the workspace: 16 bytes whatever the key width.
template <class K>
struct partial {
  K key;
  std::int64_t pos;
};

// ---- a thread's running best ------------------------------------------------------------

/// True when key k at a higher position than `best`'s beats it: a larger key, or an equal
/// one with ties_last.
template <class K>
__device__ __forceinline__ bool better_later(K k, K best, bool ties_last) {
  bool b = k > best;
  b |= ties_last & (k == best);
  return b;
}
/// The same with the tie rule known at compile time: one compare.
template <bool TiesLast, class K>
__device__ __forceinline__ bool better_later(K k, K best) {
  if constexpr (TiesLast) return k >= best;
  return k > best;
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
  template <bool TiesLast>
  __device__ __forceinline__ void take(K k, P p) {
    const bool b = better_later<TiesLast>(k, key);
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

// ---- contiguous runs ---------------------------------------------------------------------

/// Visits positions [begin, end) of a contiguous slice (`slice` points at position 0) as
/// member `rank` of a team of `team` threads: a scalar head up to the first 16-byte
/// boundary, 16-byte vectors dealt round-robin, a scalar tail. The vectors keep only their
/// best key and which vector that was; the winning vector is read once more at the end to
/// find the element. Loads are software-pipelined through two register buffers: the next
/// Unroll vectors are in flight while this batch is folded. The slice must be aligned to
/// its element size, and end - begin < 2^31.
template <dtype D, int Unroll, bool Plain, bool TiesLast, class P>
__device__ __forceinline__ void scan_contiguous(const dtype_bits_t<D>* slice, P begin, P end, int rank, int team,
                                                key_params kp, ascending_best<dtype_key_t<D>, P>& best) {
  using B = dtype_bits_t<D>;
  using K = dtype_key_t<D>;
  constexpr int V = vec_elems<D>;
  const unsigned misalign = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(slice + begin) & 15u) / sizeof(B);
  P head = misalign ? static_cast<P>(V - misalign) : P(0);
  if (head > end - begin) head = end - begin;
  for (P i = begin + rank; i < begin + head; i += team) best.template take<TiesLast>(key_at<D>(slice + i, kp), i);

  const P body = begin + head;
  const int nvec = static_cast<int>((end - body) / V);
  const B* vbase = slice + body;
  K vkey = 0;
  int vidx = -1;  // the winning vector (none yet)
  auto fold = [&](const vec<D>& x, int index) {
    const K m = vec_max_key<D, Plain>(x, kp);
    const bool b = better_later<TiesLast>(m, vkey);
    vkey = b ? m : vkey;
    vidx = b ? index : vidx;
  };
  auto load = [&](vec<D>(&x)[Unroll], int at) {
#pragma unroll
    for (int u = 0; u < Unroll; ++u) x[u] = load_vec<D>(vbase + static_cast<P>(at + u * team) * V);
  };
  auto fold_all = [&](const vec<D>(&x)[Unroll], int at) {
#pragma unroll
    for (int u = 0; u < Unroll; ++u) fold(x[u], at + u * team);
  };
  int v = rank;
  const int step = Unroll * team;
  if (v + (Unroll - 1) * team < nvec) {
    vec<D> x[Unroll], y[Unroll];
    load(x, v);
    for (;;) {  // x and y take turns: one batch in flight while the other is folded
      const int n1 = v + step;
      const bool more1 = n1 + (Unroll - 1) * team < nvec;
      if (more1) load(y, n1);
      fold_all(x, v);
      v = n1;
      if (!more1) break;
      const int n2 = v + step;
      const bool more2 = n2 + (Unroll - 1) * team < nvec;
      if (more2) load(x, n2);
      fold_all(y, v);
      v = n2;
      if (!more2) break;
    }
  }
  {  // the last vectors, fewer than Unroll: all loaded before any is folded
    vec<D> x[Unroll];
#pragma unroll
    for (int u = 0; u < Unroll - 1; ++u)
      if (v + u * team < nvec) x[u] = load_vec<D>(vbase + static_cast<P>(v + u * team) * V);
#pragma unroll
    for (int u = 0; u < Unroll - 1; ++u)
      if (v + u * team < nvec) fold(x[u], v + u * team);
  }
  for (P i = body + static_cast<P>(nvec) * V + rank; i < end; i += team)
    best.template take<TiesLast>(key_at<D>(slice + i, kp), i);
  if (vidx >= 0) {
    const int j = vec_find_key<D>(load_vec<D>(vbase + static_cast<P>(vidx) * V), vkey, kp, TiesLast);
    best.merge(vkey, body + static_cast<P>(vidx) * V + j, TiesLast);
  }
}

/// One row of a team kernel's short-row path (rows of whole, aligned 16-byte vectors, at
/// most two per lane): the lane's vectors `rank` and `rank + team` stay in registers, the
/// lane's best vector is chosen by key, the team agrees on the best (key, vector index),
/// and the lane holding that vector finds the element in it.
template <dtype D, bool Plain, bool TiesLast>
struct short_row {
  dtype_key_t<D> key;
  int vidx;  // the lane's best vector; for a lane without one, a position that loses ties
  vec<D> x[2];

  __device__ __forceinline__ void load(const dtype_bits_t<D>* row, bool has, int nvr, int rank, int team) {
    constexpr int V = vec_elems<D>;
    if (has && rank < nvr) x[0] = load_vec<D>(row + rank * V);
    if (has && rank + team < nvr) x[1] = load_vec<D>(row + (rank + team) * V);
  }
  __device__ __forceinline__ void fold(bool has, int nvr, int rank, int team, key_params kp) {
    key = 0;
    vidx = TiesLast ? -1 : 0x7fffffff;
    if (has && rank < nvr) {
      key = vec_max_key<D, Plain>(x[0], kp);
      vidx = rank;
    }
    if (has && rank + team < nvr) {
      const dtype_key_t<D> k = vec_max_key<D, Plain>(x[1], kp);
      if (better_later<TiesLast>(k, key)) {
        key = k;
        vidx = rank + team;
      }
    }
  }
  /// After the team agreed on (k, v): the winning element's position in the row, in the
  /// lane holding vector v; -1 in the others.
  __device__ __forceinline__ int resolve(dtype_key_t<D> k, int v, int rank, int team, key_params kp) const {
    if (v != rank && v != rank + team) return -1;
    const bool first = v == rank;
    vec<D> y;  // chosen word by word: an array indexed at run time would live in local memory
#pragma unroll
    for (int i = 0; i < 4; ++i) y.w[i] = first ? x[0].w[i] : x[1].w[i];
    return v * vec_elems<D> + vec_find_key<D>(y, k, kp, TiesLast);
  }
};

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
__device__ void scan_general(const plan& p, const dtype_bits_t<D>* slice, P begin, P end, int rank, int team,
                             ascending_best<dtype_key_t<D>, P>& best) {
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
                                             const dtype_bits_t<D>* winner, candidate<dtype_key_t<D>> c) {
  const std::int64_t index = reported_index(c, p.keys, dtype_traits<D>::is_float);
  if (p.index == index_type::int64)
    static_cast<std::int64_t*>(out.indices)[o] = index;
  else
    static_cast<std::int32_t*>(out.indices)[o] = static_cast<std::int32_t>(index);
  if (out.values) static_cast<dtype_bits_t<D>*>(out.values)[o] = *winner;
}

// ---- blocks that split one slice ------------------------------------------------------------

/// Called by every thread of a block after thread 0 wrote the block's partial: true in
/// every thread of the last block of `expected` to arrive at `counter`. That block sees
/// every partial the others wrote; the counter is back at zero for the next launch.
__device__ inline bool arrive_last(unsigned* counter, unsigned expected, bool& flag) {
  if (threadIdx.x == 0) __threadfence();  // the partial is visible device-wide before the count
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
/// of `expected` to arrive. Lanes that wrote partials (`wrote`) fence them first.
__device__ inline bool warp_arrive_last(unsigned* counter, unsigned expected, bool wrote) {
  if (wrote) __threadfence();
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
