// Tile level: how one thread, or a team of threads, walks its share of a slice and keeps
// the best candidate; how a winner is stored; how blocks or warps that split a slice meet.
// Built on the block/warp building blocks (argx/device/block_argmax.cuh) and the element
// level (elements.cuh).
#pragma once

#include <cstdint>
#include <type_traits>

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

/// A lane's running best of one column over ascending rows, from argx's seed for its
/// split (key 0 at `seed_pos`). Plain f32 and f64 reductions keep the element's bits and
/// decide with float compares (a few instructions an element instead of order_key of
/// each); their seed is the lowest value, which every element beats or ties (ties at
/// -inf resolve as the key-0 seed would, as the seed row is real).
template <dtype D, bool Plain, bool TiesLast, bool Values = Plain && (D == dtype::f32 || D == dtype::f64)>
struct column_best {
  ascending_best<dtype_key_t<D>, unsigned> b;
  __device__ __forceinline__ void start(unsigned seed_pos, key_params) { b = {0, seed_pos}; }
  __device__ __forceinline__ void take(dtype_bits_t<D> x, unsigned pos, key_params kp) {
    b.template take<TiesLast>(order_key<D>(x, loop_keys<Plain>(kp)), pos);
  }
  __device__ __forceinline__ ascending_best<dtype_key_t<D>, unsigned> finish(key_params) const { return b; }
};
template <dtype D, bool Plain, bool TiesLast>
struct column_best<D, Plain, TiesLast, true> {
  using B = dtype_bits_t<D>;
  B bits, flip;
  unsigned pos;
  __device__ __forceinline__ void start(unsigned seed_pos, key_params kp) {
    flip = plain<D>::flip(kp.argmin);
    bits = plain<D>::lowest ^ flip;
    pos = seed_pos;
  }
  __device__ __forceinline__ void take(B x, unsigned p, key_params) {
    const bool b = plain<D>::template later_beats<TiesLast>(x, bits, flip);
    bits = b ? x : bits;
    pos = b ? p : pos;
  }
  __device__ __forceinline__ ascending_best<dtype_key_t<D>, unsigned> finish(key_params kp) const {
    return {order_key<D>(bits, loop_keys<true>(kp)), pos};
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

/// A team's share of one short row held in registers: lane `rank` of a team of L lanes
/// loads the row's 16-byte vectors rank, rank + L, ..., at most W of them. The team agrees
/// on the row's largest key (one integer max per shuffle step), then on the first (or
/// last) position holding it (one integer min or max per step). Plain reductions find a
/// lane's best element in the value domain and take one order_key of it; the others take
/// order_key of every element.
template <dtype D, int W, bool Plain, bool TiesLast>
struct register_row {
  using B = dtype_bits_t<D>;
  using K = dtype_key_t<D>;
  static constexpr int V = vec_elems<D>;
  /// A position no lane can claim: it loses every min (ties first) or max (ties last).
  static constexpr int none = TiesLast ? -1 : 0x7fffffff;

  vec<D> x[W];
  B best;  ///< Plain: bits of the lane's best element
  K key;   ///< the lane's largest key (0 without vectors), then the team's
  int pos;

  __device__ __forceinline__ static bool has(int u, int nv, int rank, int team) { return u * team + rank < nv; }

  __device__ __forceinline__ void load(const B* row, bool row_ok, int nv, int rank, int team) {
#pragma unroll
    for (int u = 0; u < W; ++u)
      x[u] = row_ok && has(u, nv, rank, team) ? load_vec<D>(row + (u * team + rank) * V) : vec<D>{{0, 0, 0, 0}};
  }
  /// The lane's largest key over its vectors.
  __device__ __forceinline__ void fold(bool row_ok, int nv, int rank, int team, key_params kp) {
    key = 0;
    if constexpr (Plain) {
      const B f = plain<D>::flip(kp.argmin);
      best = plain<D>::best(x[0], f);
#pragma unroll
      for (int u = 1; u < W; ++u)
        if (has(u, nv, rank, team)) best = plain<D>::better(best, plain<D>::best(x[u], f), f);
      if (row_ok && has(0, nv, rank, team)) key = order_key<D>(best, loop_keys<true>(kp));
    } else {
#pragma unroll
      for (int u = 0; u < W; ++u)
        if (row_ok && has(u, nv, rank, team)) {
          const K k = vec_max_key<D, false>(x[u], kp);
          key = k > key ? k : key;
        }
    }
  }
  /// After the team agreed on its largest key: this lane's first (last) position holding
  /// it, or `none`. First the vector (checked whole, by its best element), then the
  /// element in it: fewer unrolled element tests than searching every element.
  __device__ __forceinline__ void locate(K team_key, bool row_ok, int nv, int rank, int team, key_params kp) {
    const bool mine = row_ok && key == team_key && has(0, nv, rank, team);
    key = team_key;
    pos = none;
    if (!mine) return;
    int hit = -1;
#pragma unroll
    for (int u = 0; u < W; ++u) {
      bool holds;
      if constexpr (Plain)
        holds = plain<D>::same_key(plain<D>::best(x[u], plain<D>::flip(kp.argmin)), best);
      else
        holds = vec_max_key<D, false>(x[u], kp) == team_key;
      if (has(u, nv, rank, team) && holds && (TiesLast || hit < 0)) hit = u;
    }
    vec<D> y = x[0];  // x[hit], chosen word by word: run-time indexing would use local memory
#pragma unroll
    for (int u = 1; u < W; ++u)
#pragma unroll
      for (int i = 0; i < 4; ++i) y.w[i] = hit == u ? x[u].w[i] : y.w[i];
    pos = (hit * team + rank) * V + vec_find_key<D>(y, team_key, loop_keys<Plain>(kp), TiesLast);
  }
};

/// Team-wide maximum (of keys) and min/max (of positions) by xor shuffles within aligned
/// groups of `team` lanes.
template <class K>
__device__ __forceinline__ K team_max_key(K k, int step) {
  using S = std::conditional_t<sizeof(K) == 8, unsigned long long, unsigned>;
  const K o = static_cast<K>(__shfl_xor_sync(device::full_warp, static_cast<S>(k), step));
  return o > k ? o : k;
}
template <bool TiesLast>
__device__ __forceinline__ int team_pick_pos(int pos, int step) {
  const int o = __shfl_xor_sync(device::full_warp, pos, step);
  return TiesLast ? (o > pos ? o : pos) : (o < pos ? o : pos);
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
