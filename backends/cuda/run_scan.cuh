// Thread level of the run kernels (vector_axis::run): how a thread, one of a team of T,
// walks its share of a slice made of runs of contiguous elements with 16-byte loads, and
// keeps the best key it saw; then where exactly that best element is.
//
// A run's elements lie in the aligned 16-byte vectors that cover it ("slots"); the first
// and last slot may hold elements of neighbouring runs, which are masked out. Slots are
// numbered in the order of the positions they hold (from the run's highest address down
// when the run goes backwards), so every thread visits positions in ascending order and a
// tie between two slots is settled without knowing where in the slot the element is: the
// earlier slot keeps it (the later takes it with ties = last). Only the best slot is read
// again at the end, to find the element.
#pragma once

#include <cstdint>

#include "elements.cuh"
#include "layout.hpp"
#include "tuning.hpp"

namespace argx::detail::gpu {

/// The runs of a layout: run q of a slice starts (view index 0) at slice + start(q); its
/// elements continue forwards (dir +1) or backwards (dir -1) in memory.
struct run_walk {
  std::int64_t len;   ///< elements per run
  std::int64_t runs;  ///< runs per slice
  int dir;

  __device__ static run_walk of(const layout& l) {
    return run_walk{l.run_length(), l.reduce / l.run_length(), l.run_dir};
  }
  /// Offset of run q's first element from its slice's.
  __device__ __forceinline__ std::int64_t start(const layout& l, std::int64_t q) const {
    return l.red.outer_offset_of(q);
  }
};

/// The slots of one run: the aligned vectors that hold its elements, in position order.
template <dtype D>
struct run_slots {
  using B = dtype_bits_t<D>;
  static constexpr int elem = sizeof(B);
  std::uintptr_t low;   ///< address of the run's lowest element
  std::uintptr_t end;   ///< one past its highest byte
  std::uintptr_t first; ///< slot 0's address
  std::int64_t count;   ///< slots
  int dir;
  std::uintptr_t span_begin, span_end;  ///< the tensor's bytes: edge slots read only these

  __device__ __forceinline__ static run_slots at(const B* slice, const layout& l, const run_walk& w, std::int64_t q) {
    return starting(slice + w.start(l, q), l, w);
  }
  /// The slots of the run whose first element (view index 0) is at `start`.
  __device__ __forceinline__ static run_slots starting(const B* start, const layout& l, const run_walk& w) {
    run_slots s;
    s.low = reinterpret_cast<std::uintptr_t>(w.dir > 0 ? start : start - (w.len - 1));
    s.end = s.low + static_cast<std::uintptr_t>(w.len) * elem;
    const std::uintptr_t lo16 = s.low & ~std::uintptr_t(15), hi16 = (s.end - 1) & ~std::uintptr_t(15);
    s.count = static_cast<std::int64_t>((hi16 - lo16) >> 4) + 1;
    s.first = w.dir > 0 ? lo16 : hi16;
    s.dir = w.dir;
    s.span_begin = l.span_begin;
    s.span_end = l.span_end;
    return s;
  }
  __device__ __forceinline__ const B* slot(std::int64_t v) const {
    return reinterpret_cast<const B*>(dir > 0 ? first + (static_cast<std::uintptr_t>(v) << 4)
                                              : first - (static_cast<std::uintptr_t>(v) << 4));
  }
  /// The slot at `a`, read without touching bytes outside the tensor (edge slots).
  __device__ __forceinline__ vec<D> edge_load(const B* a) const { return load_vec_in<D>(a, span_begin, span_end); }
  /// The bytes [lo, hi) of the slot at `a` that belong to the run.
  __device__ __forceinline__ void bytes_of(const B* a, int& lo, int& hi) const {
    const std::intptr_t off = static_cast<std::intptr_t>(reinterpret_cast<std::uintptr_t>(a)),
                        l0 = static_cast<std::intptr_t>(low) - off, h0 = static_cast<std::intptr_t>(end) - off;
    lo = l0 < 0 ? 0 : static_cast<int>(l0);
    hi = h0 > 16 ? 16 : static_cast<int>(h0);
  }
};

/// A thread's best slot so far, for ordered walks (positions rise with the walk): its
/// largest key, and which slot of which run held it (none: the slice's seed, key 0 at the
/// position that wins ties). Where in the slot the element is waits for locate_best.
template <class K>
struct slot_best {
  K key = 0;
  const void* slot = nullptr;
  std::int64_t run = 0;
  bool ties_last = false;  ///< the layout's tie rule: an equal key at a later slot replaces the best

  template <dtype D>
  __device__ __forceinline__ void offer(K k, const vec<D>&, const dtype_bits_t<D>* a, std::int64_t q,
                                        const run_slots<D>&, int, int) {
    const bool b = later_beats(k, key, ties_last);
    key = b ? k : key;
    slot = b ? a : slot;
    run = b ? q : run;
  }
};

/// A thread's best element so far, for unordered walks (the unit-stride axis was moved
/// last, so runs do not visit positions in order): each slot that can win is searched at
/// once, and candidates carry reported positions, compared with the caller's tie rule.
/// Dense walks (one forward run over several axes: positions need not rise along a slot)
/// weigh every element of the slot that holds the key.
template <dtype D, bool Plain, bool Dense>
struct exact_best {
  using K = dtype_key_t<D>;
  candidate<K> c;
  const layout& l;
  run_walk w;
  key_params kp;

  __device__ exact_best(const layout& lay, const run_walk& walk, key_params keys)
      : c(seed<K>(lay.view_reduce, lay.view_ties_last)), l(lay), w(walk), kp(keys) {}

  __device__ __forceinline__ void offer(K k, const vec<D>& x, const dtype_bits_t<D>* a, std::int64_t q,
                                        const run_slots<D>& s, int lo, int hi) {
    if (k < c.key) return;
    constexpr int elem = sizeof(dtype_bits_t<D>);
    const unsigned holders = vec_key_mask<D>(x, k, loop_keys<Plain>(kp), lo / elem, hi / elem);
    const std::int64_t e0 = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(a) - s.low) / elem;
    if constexpr (Dense) {
      for (unsigned m = holders; m != 0; m &= m - 1) {
        const candidate<K> mine{k, l.position_of(e0 + __ffs(m) - 1)};
        if (beats(mine.key, mine.pos, c.key, c.pos, l.view_ties_last)) c = mine;
      }
    } else {
      // Reported positions rise with j when memory order and the run axis' weight agree.
      const bool rising = (w.dir > 0) == (l.run_axis().weight > 0);
      const std::int64_t e = e0 + (l.view_ties_last == rising ? 31 - __clz(holders) : __ffs(holders) - 1);
      const candidate<K> mine{k, l.position_of(q * w.len + (w.dir > 0 ? e : w.len - 1 - e))};
      if (beats(mine.key, mine.pos, c.key, c.pos, l.view_ties_last)) c = mine;
    }
  }
};

/// The traversal index of the element that holds the thread's best key (the first in
/// position order, or the last with ties = last), as a candidate; the seed if no slot won.
template <dtype D, bool Plain>
__device__ __forceinline__ candidate<dtype_key_t<D>> locate_best(const layout& l, const run_walk& w,
                                                                 const dtype_bits_t<D>* slice,
                                                                 const slot_best<dtype_key_t<D>>& b, key_params kp) {
  using K = dtype_key_t<D>;
  constexpr int elem = sizeof(dtype_bits_t<D>);
  if (b.slot == nullptr) return seed<K>(l.reduce, l.ties_last);
  const auto s = run_slots<D>::at(slice, l, w, b.run);
  const auto* a = static_cast<const dtype_bits_t<D>*>(b.slot);
  int lo, hi;
  s.bytes_of(a, lo, hi);
  // Element j of the slot is element e0 + j of the run in memory order.
  const std::int64_t e0 = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(a) - s.low) / elem;
  const int j = vec_find_key_in<D>(s.edge_load(a), b.key, loop_keys<Plain>(kp), lo / elem, hi / elem,
                                   l.ties_last != (w.dir < 0));
  const std::int64_t e = e0 + j;
  return candidate<K>{b.key, b.run * w.len + (w.dir > 0 ? e : w.len - 1 - e)};
}

/// Folds slots [v0, v1) of run q into `best`, as lane `team_lane` of a team of `team`
/// threads (slots team_lane, team_lane + team, ... of the range). The first and last slot
/// of the run are masked, and read first (their loads in flight early; the last is offered
/// last, as the order of positions wants); the ones between are whole and go through a
/// loop that keeps Unroll loads in flight while it folds the previous Unroll.
template <dtype D, int Unroll, bool Plain, class Best>
__device__ __forceinline__ void scan_run(const run_slots<D>& s, std::int64_t q, std::int64_t v0, std::int64_t v1,
                                         int team_lane, int team, key_params kp, Best& best) {
  using B = dtype_bits_t<D>;
  if (v1 > s.count) v1 = s.count;
  if (v0 >= v1) return;
  const std::int64_t last = s.count - 1;
  // Slots relative to v0 (a range holds fewer than 2^31: choose_launch sizes the pieces).
  const int n = static_cast<int>(v1 - v0), step = s.dir > 0 ? 16 : -16;
  const char* base = reinterpret_cast<const char*>(s.slot(v0));
  auto at = [&](int i) { return reinterpret_cast<const B*>(base + static_cast<std::int64_t>(i) * step); };
  int i = team_lane;
  // The edges this thread owns: slot 0 first, the last slot last (positions in order).
  // Slot 0 is read at once but folded only once the first batch of the body is in flight,
  // so its latency does not hold that batch back.
  bool head = v0 == 0 && i == 0;
  vec<D> hx{{0, 0, 0, 0}};
  int hlo = 0, hhi = 0;
  const B* ha = s.slot(0);
  if (head) {
    s.bytes_of(ha, hlo, hhi);
    hx = s.edge_load(ha);
    i += team;
  }
  auto fold_head = [&] {
    if (head) best.offer(masked_max_key<D, Plain>(hx, hlo, hhi, kp), hx, ha, q, s, hlo, hhi);
    head = false;
  };
  const int tail = last > 0 && last < v1 ? static_cast<int>(last - v0) : n;  // the tail slot, if in range
  const int body_end = tail;
  // The tail slot is read now too (its latency hidden behind the body), folded last.
  const bool owns_tail = tail < n && tail >= team_lane && (tail - team_lane) % team == 0 && !(v0 == 0 && tail == 0);
  const vec<D> tx = owns_tail ? s.edge_load(at(tail)) : vec<D>{{0, 0, 0, 0}};
  auto fold = [&](const vec<D>& x, int k) { best.offer(vec_max_key<D, Plain>(x, kp), x, at(k), q, s, 0, 16); };
  if (i + (Unroll - 1) * team < body_end) {
    vec<D> x[Unroll], y[Unroll];
#pragma unroll
    for (int u = 0; u < Unroll; ++u) x[u] = load_vec<D>(at(i + u * team));
    fold_head();
    // x and y take turns: the next batch is loaded into one while the other is folded.
    // False once no whole batch is left to load.
    auto turn = [&](vec<D>(&next)[Unroll], const vec<D>(&now)[Unroll]) {
      const int i1 = i + Unroll * team;
      const bool more = i1 + (Unroll - 1) * team < body_end;
      if (more)
#pragma unroll
        for (int u = 0; u < Unroll; ++u) next[u] = load_vec<D>(at(i1 + u * team));
#pragma unroll
      for (int u = 0; u < Unroll; ++u) fold(now[u], i + u * team);
      i = i1;
      return more;
    };
    while (turn(y, x) && turn(x, y)) {
    }
  }
  {  // fewer than Unroll whole slots left: all loaded before any is folded
    vec<D> x[Unroll];
#pragma unroll
    for (int u = 0; u < Unroll; ++u)
      if (i + u * team < body_end) x[u] = load_vec<D>(at(i + u * team));
    fold_head();
#pragma unroll
    for (int u = 0; u < Unroll; ++u)
      if (i + u * team < body_end) fold(x[u], i + u * team);
  }
  if (owns_tail) {
    const B* a = at(tail);
    int lo, hi;
    s.bytes_of(a, lo, hi);
    best.offer(masked_max_key<D, Plain>(tx, lo, hi, kp), tx, a, q, s, lo, hi);
  }
}

/// Folds runs [q0, q1) of a slice whose runs are short (at most `per_run` slots each, a
/// few per lane of the team at most) as one stream: the runs' slots laid end to end, per_run a
/// run, lane `team_lane` takes stream slots team_lane, team_lane + team, ... So every lane
/// loads whatever the run length (a group of lanes a run left the lanes past a run's last
/// slot idle: runs of 17 slots kept 15 of 32 lanes waiting), and each lane still visits
/// positions in order. Unroll slots of a lane are loaded before any is folded; a slot past
/// its run's last (a run touches per_run slots at most) is skipped.
template <dtype D, int Unroll, bool Plain, class Best>
__device__ __forceinline__ void scan_short_runs(const layout& l, const run_walk& w, const dtype_bits_t<D>* slice,
                                                std::int64_t q0, std::int64_t q1, int team_lane, int team,
                                                std::int64_t per_run, key_params kp, Best& best) {
  // The lane's place in the stream, run q and slot v of it; a step of `team` slots moves
  // it dq runs and dv slots on (a carry when v passes the run's end).
  const int per = static_cast<int>(per_run), dv = team % per;
  const std::int64_t dq = team / per;
  std::int64_t q = q0 + team_lane / per;
  int v = team_lane % per;
  while (q < q1) {
    vec<D> x[Unroll];
    run_slots<D> rs[Unroll];
    const dtype_bits_t<D>* a[Unroll];
    std::int64_t qu[Unroll];
    int lo[Unroll], hi[Unroll];
    unsigned outside = 0;  // slots that reach past the tensor's ends: read again below
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
      qu[u] = q;
      lo[u] = hi[u] = 0;
      a[u] = nullptr;
      bool ok = false;
      if (q < q1) {
        rs[u] = run_slots<D>::at(slice, l, w, q);
        ok = v < rs[u].count;
        a[u] = rs[u].slot(ok ? v : 0);
        rs[u].bytes_of(a[u], lo[u], hi[u]);
      }
      const bool in = vec_inside(a[u], l.span_begin, l.span_end);
      x[u] = load_vec_if<D>(a[u], ok && in);
      outside |= static_cast<unsigned>(ok && !in) << u;
      if (!ok) a[u] = nullptr;
      v += dv;
      q += dq;
      if (v >= per) {
        v -= per;
        ++q;
      }
    }
    if (outside != 0)
#pragma unroll
      for (int u = 0; u < Unroll; ++u)
        if (outside >> u & 1u) x[u] = rs[u].edge_load(a[u]);
#pragma unroll
    for (int u = 0; u < Unroll; ++u)
      if (a[u] != nullptr)
        best.offer(masked_max_key<D, Plain>(x[u], lo[u], hi[u], kp), x[u], a[u], qu[u], rs[u], lo[u], hi[u]);
  }
}

/// Folds slots [k0, k1) of a slice's runs laid end to end (slot v of run q is slot
/// q * per_run + v; a run touches at most per_run slots, a shorter one's last are skipped)
/// as lane `team_lane` of a team of `team` <= per_run: slots team_lane, team_lane + team,
/// ... of the range; ordered walks (slot_best). For runs of a few slots a lane: walked run
/// after run, each run's setup (its address, its edges, a batch its few slots a lane
/// cannot fill) costs more than its loads. Here a lane steps to the next run (at most one
/// a step, as team <= per_run) by the stride of the innermost axis outside the run,
/// locating the run again only past that axis' end; Unroll slots of a lane are loaded
/// before any is folded, and a batch holding no run's edge slot folds without masks.
template <dtype D, int Unroll, bool Plain>
__device__ __forceinline__ void scan_slot_range(const layout& l, const run_walk& w, const dtype_bits_t<D>* slice,
                                                std::int64_t k0, std::int64_t k1, int team_lane, int team,
                                                std::int64_t per_run, key_params kp, slot_best<dtype_key_t<D>>& best) {
  using B = dtype_bits_t<D>;
  std::int64_t k = k0 + team_lane;
  if (k >= k1) return;
  std::int64_t q = k / per_run, v = k - q * per_run;
  const axis& outer = l.red.at[l.red.n - 2];  // the innermost axis outside the run (runs > 1)
  std::int64_t start = w.start(l, q), along = q % outer.extent;
  run_slots<D> rs = run_slots<D>::starting(slice + start, l, w);
  while (k < k1) {
    vec<D> x[Unroll];
    const B* a[Unroll];
    const std::int64_t q0 = q;
    int dq[Unroll], bytes[Unroll];  // each slot's run (q0 + dq), and its bytes in the run (lo | hi << 8)
    unsigned edge = 0, outside = 0;  // slots a run's first or last (masked); reaching past the tensor
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
      const bool ok = k < k1 && v < rs.count;
      dq[u] = static_cast<int>(q - q0);
      a[u] = rs.slot(ok ? v : 0);
      const bool e = ok && (v == 0 || v == rs.count - 1);
      int lo = 0, hi = 16;
      if (e) rs.bytes_of(a[u], lo, hi);
      bytes[u] = lo | hi << 8;
      // Only a run's edge slots can reach past the tensor's bytes.
      const bool in = !e || vec_inside(a[u], l.span_begin, l.span_end);
      x[u] = load_vec_if<D>(a[u], ok && in);
      edge |= static_cast<unsigned>(e) << u;
      outside |= static_cast<unsigned>(ok && !in) << u;
      if (!ok) a[u] = nullptr;
      k += team;
      v += team;
      if (v >= per_run && k < k1) {  // the next run
        v -= per_run;
        ++q;
        if (++along < outer.extent) {
          start += outer.stride;
        } else {
          along = 0;
          start = w.start(l, q);
        }
        rs = run_slots<D>::starting(slice + start, l, w);
      }
    }
    if (outside != 0)
#pragma unroll
      for (int u = 0; u < Unroll; ++u)
        if (outside >> u & 1u) x[u] = load_vec_in<D>(a[u], l.span_begin, l.span_end);
    if (edge == 0) {
#pragma unroll
      for (int u = 0; u < Unroll; ++u)
        if (a[u] != nullptr) best.offer(vec_max_key<D, Plain>(x[u], kp), x[u], a[u], q0 + dq[u], rs, 0, 16);
    } else {
#pragma unroll
      for (int u = 0; u < Unroll; ++u)
        if (a[u] != nullptr) {
          const int lo = bytes[u] & 0xff, hi = bytes[u] >> 8;
          best.offer(masked_max_key<D, Plain>(x[u], lo, hi, kp), x[u], a[u], q0 + dq[u], rs, lo, hi);
        }
    }
  }
}

/// Folds the whole slice (or runs [q0, q1) of it) as lane `team_lane` of a team: short runs
/// as one stream of slots (`stream`), long ones the whole team each.
template <dtype D, bool Plain, class Best>
__device__ __forceinline__ void scan_runs(const layout& l, const run_walk& w, const dtype_bits_t<D>* slice,
                                          std::int64_t q0, std::int64_t q1, int team_lane, int team, bool stream,
                                          std::int64_t per_run, key_params kp, Best& best) {
  using arch = tune::compiled_arch;
  if (stream) {
    scan_short_runs<D, arch::short_run_unroll, Plain>(l, w, slice, q0, q1, team_lane, team, per_run, kp, best);
  } else {
    for (std::int64_t q = q0; q < q1; ++q)
      scan_run<D, arch::run_unroll, Plain>(run_slots<D>::at(slice, l, w, q), q, 0, std::int64_t(1) << 62, team_lane, team,
                                           kp, best);
  }
}

/// One short run (a whole slice, going forwards) held in registers by a team of `team`
/// lanes: lane `team_lane` loads the run's slots team_lane, team_lane + team, ..., at most
/// W of them. The team agrees on the largest key (an integer max per shuffle step), then on
/// the first (or last) position holding it (an integer min or max per step).
///
/// Plain reductions fold a lane's slots in the value domain and take one key at the end:
/// a key and an edge test per slot cost more instructions than the loads leave room for
/// (rows of 1 KiB read 25 points under the ceiling that way). The row's two edge slots
/// are masked in place by the lanes that hold them, with the lowest value, which can tie
/// a real element but never beat one; positions are searched within the row's bytes only.
template <dtype D, int W, bool Plain>
struct window_row {
  using B = dtype_bits_t<D>;
  using K = dtype_key_t<D>;
  static constexpr int V = vec_elems<D>, elem = sizeof(B);
  vec<D> x[W];
  K slot_key[Plain ? 1 : W];  ///< keyed folds: each slot's largest key, to locate the winner
  B best;                     ///< plain folds: the lane's best element
  std::uintptr_t low;         ///< address of the row's first element
  int slots, tail;            ///< slots in the row; bytes of the last slot in the row
  K key;                      ///< the lane's largest key (0 without slots), then the team's
  int pos;

  __device__ __forceinline__ int bytes_lo(int slot) const { return slot == 0 ? static_cast<int>(low & 15u) : 0; }
  __device__ __forceinline__ int bytes_hi(int slot) const { return slot == slots - 1 ? tail : 16; }

  __device__ __forceinline__ void load(const B* row, std::int64_t len, bool ok, int team_lane, int team,
                                       const layout& l) {
    low = reinterpret_cast<std::uintptr_t>(row);
    const std::uintptr_t end = low + static_cast<std::uintptr_t>(len) * elem, first = low & ~std::uintptr_t(15);
    slots = ok ? static_cast<int>((((end - 1) & ~std::uintptr_t(15)) - first) >> 4) + 1 : 0;
    tail = static_cast<int>((end - 1) & 15u) + 1;
    const auto* lane_first = reinterpret_cast<const B*>(first + (static_cast<std::uintptr_t>(team_lane) << 4));
    if (first >= l.span_begin && first + (static_cast<std::uintptr_t>(slots) << 4) <= l.span_end) {
      // Every slot of the row lies in the tensor (all rows but, at most, the first and last).
#pragma unroll
      for (int u = 0; u < W; ++u) x[u] = load_vec_if<D>(lane_first + u * team * V, u * team + team_lane < slots);
      return;
    }
    unsigned outside = 0;  // slots that reach past the tensor's ends: read again below
#pragma unroll
    for (int u = 0; u < W; ++u) {
      const B* a = lane_first + u * team * V;
      const bool in = vec_inside(a, l.span_begin, l.span_end), mine = u * team + team_lane < slots;
      x[u] = load_vec_if<D>(a, mine && in);
      outside |= static_cast<unsigned>(mine && !in) << u;
    }
    if (outside != 0)
#pragma unroll
      for (int u = 0; u < W; ++u)
        if (outside >> u & 1u) x[u] = load_vec_in<D>(lane_first + u * team * V, l.span_begin, l.span_end);
  }

  /// The lane's largest key over its slots.
  __device__ __forceinline__ void fold(int team_lane, int team, key_params kp) {
    if constexpr (Plain) {
      using P = value_ops<D>;
      const B f = P::flip(kp.argmin);
      mask_edges(team_lane, team, static_cast<B>(lowest_bits<D>() ^ f));
      best = P::best(x[0], f);
#pragma unroll
      for (int u = 1; u < W; ++u)
        if (u * team + team_lane < slots) best = P::better(best, P::best(x[u], f), f);
      key = team_lane < slots ? order_key<D>(best, loop_keys<true>(kp)) : K(0);
    } else {
      key = 0;
#pragma unroll
      for (int u = 0; u < W; ++u) {
        const int s = u * team + team_lane;
        slot_key[u] = s < slots ? masked_max_key<D, false>(x[u], bytes_lo(s), bytes_hi(s), kp) : K(0);
        key = slot_key[u] > key ? slot_key[u] : key;
      }
    }
  }

  /// After the team agreed on its largest key: this lane's first (last) position holding
  /// it, or a position no lane can claim (it loses every min with ties = first, every max
  /// with ties = last).
  __device__ __forceinline__ void locate(K team_key, int team_lane, int team, key_params kp, bool ties_last) {
    const bool mine = key == team_key && team_lane < slots;
    key = team_key;
    pos = ties_last ? -1 : 0x7fffffff;
    if (!mine) return;
    int hit = -1, j = -1;  // the slot (of this lane's) and the element in it
    if constexpr (packed_find<D>) {  // each slot searched by packed compares: no slot's best recomputed
#pragma unroll
      for (int u = 0; u < W; ++u) {
        const int s = u * team + team_lane;
        const int ju = s < slots ? vec_find_key_in<D>(x[u], team_key, loop_keys<Plain>(kp), bytes_lo(s) / elem,
                                                     bytes_hi(s) / elem, ties_last)
                                 : -1;
        if (ju >= 0 && (ties_last || hit < 0)) hit = u, j = ju;
      }
    } else {
#pragma unroll
      for (int u = 0; u < W; ++u) {
        bool holds;
        if constexpr (Plain)
          holds = value_ops<D>::same_key(value_ops<D>::best(x[u], value_ops<D>::flip(kp.argmin)), best);
        else
          holds = slot_key[u] == team_key;
        if (u * team + team_lane < slots && holds && (ties_last || hit < 0)) hit = u;
      }
      vec<D> y = x[0];  // x[hit], chosen word by word: run-time indexing would use local memory
#pragma unroll
      for (int u = 1; u < W; ++u)
#pragma unroll
        for (int i = 0; i < 4; ++i) y.w[i] = hit == u ? x[u].w[i] : y.w[i];
      const int s = hit * team + team_lane;
      j = vec_find_key_in<D>(y, team_key, loop_keys<Plain>(kp), bytes_lo(s) / elem, bytes_hi(s) / elem, ties_last);
    }
    pos = (hit * team + team_lane) * V + j - static_cast<int>(low & 15u) / elem;
  }

 private:
  /// Replaces the bytes of the row's first and last slots that lie outside the row by
  /// `fill` (in the lanes holding those slots; rows that start and end on 16 bytes skip it).
  __device__ __forceinline__ void mask_edges(int team_lane, int team, B fill) {
    const int lo = static_cast<int>(low & 15u);
    if (slots == 0 || (lo == 0 && tail == 16)) return;
    const vec<D> filler = splat<D>(fill);
    if (team_lane == 0 && lo != 0) keep_bytes(x[0].w, lo, slots == 1 ? tail : 16, filler.w);
    const int last = slots - 1;
    if (tail != 16 && (last & (team - 1)) == team_lane) {
      const int at = last >> (__ffs(team) - 1);
#pragma unroll
      for (int u = 0; u < W; ++u)
        if (u == at) keep_bytes(x[u].w, u == 0 ? bytes_lo(last) : 0, tail, filler.w);
    }
  }
};

}  // namespace argx::detail::gpu
