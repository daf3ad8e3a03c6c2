// The GPU's view of a plan: the axes a kernel walks, in the order it walks them, each with
// what one step adds to the input offset (stride) and to the reported position or output
// index (weight). Plain C++ (the remap helpers also compile for the device), so it can be
// built and tested without a GPU.
//
// make_layout rewrites a plan so that more of them reach a vector kernel, without changing
// a single answer bit:
//  - a broadcast reduced dim (stride 0) repeats every element: the first copy wins a tie
//    (the last with ties = last), so the dim is dropped and its choice is a constant added
//    to every position;
//  - a broadcast kept dim repeats every output: it is dropped and each answer is stored to
//    all its replicas;
//  - when every reduced dim runs backwards in memory, walking them forwards visits the
//    positions in reverse: the kernels walk forwards with the tie rule flipped, and
//    positions are mapped back;
//  - the axis with unit stride decides the kernel family: the last reduced axis (runs of
//    contiguous elements), else a kept axis (columns of neighbouring outputs, moved last
//    and turned forwards; outputs are mapped back), else none (element by element);
//  - a long slice whose reduced axes tile one block of memory in another order than the
//    view's (a transposed or reversed view reduced whole) is walked in memory order, as
//    one run: positions are computed for the elements that can win (dense).
//
// Two more walks read a block of neighbouring elements that belong to several outputs as
// columns, each element its own (virtual) column, and leave one partial a virtual column
// for a second kernel to fold into the answers: windowed_layouts for slices made of short
// runs (windows) that a kept axis steps over (every row of the other reduced axes is one
// block of neighbouring windows), folded_layouts for columns too narrow for a vector whose
// rows follow one another (a block of rows: `fold` rows make one row of the walk).
#pragma once

#include <cstdint>

#include <argx/detail/plan.hpp>

// Loops over axes (a handful, known only at run time) stay loops on the device: unrolled
// sixteen times over, their 64-bit divisions would make every kernel huge.
#if defined(__CUDA_ARCH__)
#define ARGX_AXIS_LOOP _Pragma("unroll 1")
#else
#define ARGX_AXIS_LOOP
#endif

namespace argx::detail::gpu {

/// Division by a fixed divisor below 2^31 of dividends below 2^31, as a multiply-high, an
/// add and a shift (Granlund and Montgomery's method): a 64-bit division is a call of
/// some 70 instructions on the GPU, and the walks divide by axis extents for every slice,
/// row or run whose offset they compute.
struct divisor32 {
  std::uint32_t magic = 0, shift = 0;

  /// d in [1, 2^31): shift = ceil(log2 d), magic = floor(2^32 (2^shift - d) / d) + 1.
  static divisor32 of(std::int64_t d) {
    divisor32 v;
    while ((std::int64_t(1) << v.shift) < d) ++v.shift;
    v.magic = static_cast<std::uint32_t>(((std::uint64_t(1) << 32) * ((std::uint64_t(1) << v.shift) - d)) / d + 1);
    return v;
  }
  /// n / d for n in [0, 2^31) (t <= n, so t + n does not wrap).
  ARGX_HOST_DEVICE std::uint32_t div(std::uint32_t n) const {
#if defined(__CUDA_ARCH__)
    const std::uint32_t t = __umulhi(n, magic);
#else
    const std::uint32_t t = static_cast<std::uint32_t>((std::uint64_t(n) * magic) >> 32);
#endif
    return (t + n) >> shift;
  }
};

/// One axis of a walk: `extent` steps of `stride` elements in the input; one step adds
/// `weight` to the reported position (reduced axes) or to the output index (kept axes).
struct axis {
  std::int64_t extent = 1, stride = 0, weight = 0;
  divisor32 by_extent{};  ///< division by extent (axis_list::prepare_division; used when the list is small)

  /// One step of taking a 31-bit row-major index apart from the innermost axis out: this
  /// axis' index in j, which becomes the index over the axes outside it.
  ARGX_HOST_DEVICE std::uint32_t take_index(std::uint32_t& j) const {
    const std::uint32_t q = by_extent.div(j), k = j - q * static_cast<std::uint32_t>(extent);
    j = q;
    return k;
  }
};

/// Axes, outermost first: index i of a walk is row-major over the extents.
struct axis_list {
  int n = 0;
  /// Fewer than 2^31 indices (prepare_division): every index, and so every quotient of
  /// the walks below, fits 31 bits and divides by the axes' divisor32.
  bool small = false;
  axis at[max_rank];

  /// Sets `small` and each axis' divisor; call once the axes are final (make_layout does).
  /// A list that was not prepared divides in 64 bits.
  void prepare_division() {
    small = count() < (std::int64_t(1) << 31);
    for (int d = 0; d < n; ++d) at[d].by_extent = small ? divisor32::of(at[d].extent) : divisor32{};
  }

  ARGX_HOST_DEVICE std::int64_t count() const {
    std::int64_t c = 1;
    ARGX_AXIS_LOOP
    for (int d = 0; d < n; ++d) c *= at[d].extent;
    return c;
  }
  /// Input offset and weighted sum of the row-major index i.
  ARGX_HOST_DEVICE void locate(std::int64_t i, std::int64_t& offset, std::int64_t& weighted) const {
    offset = weighted = 0;
    if (small) {
      std::uint32_t j = static_cast<std::uint32_t>(i);
      ARGX_AXIS_LOOP
      for (int d = n - 1; d >= 0; --d) {
        const std::int64_t k = at[d].take_index(j);
        offset += k * at[d].stride;
        weighted += k * at[d].weight;
      }
      return;
    }
    ARGX_AXIS_LOOP
    for (int d = n - 1; d >= 0; --d) {
      const std::int64_t e = at[d].extent, q = i / e, k = i - q * e;
      offset += k * at[d].stride;
      weighted += k * at[d].weight;
      i = q;
    }
  }
  ARGX_HOST_DEVICE std::int64_t offset_of(std::int64_t i) const {
    std::int64_t o, w;
    locate(i, o, w);
    return o;
  }
  /// offset_of with no division when there is one axis (the common case).
  ARGX_HOST_DEVICE std::int64_t offset_of_fast(std::int64_t i) const {
    return n == 1 ? i * at[0].stride : offset_of(i);
  }
  /// Input offset of row-major index i over every axis but the last: where run or column i
  /// of a walk starts, the last axis being the one walked with vectors. One outer axis
  /// needs no division.
  ARGX_HOST_DEVICE std::int64_t outer_offset_of(std::int64_t i) const {
    if (n <= 1) return 0;
    if (n == 2) return i * at[0].stride;
    std::int64_t off = 0;
    if (small) {
      std::uint32_t j = static_cast<std::uint32_t>(i);
      ARGX_AXIS_LOOP
      for (int d = n - 2; d >= 0; --d) off += static_cast<std::int64_t>(at[d].take_index(j)) * at[d].stride;
      return off;
    }
    ARGX_AXIS_LOOP
    for (int d = n - 2; d >= 0; --d) {
      const std::int64_t e = at[d].extent, k = i % e;
      off += k * at[d].stride;
      i /= e;
    }
    return off;
  }
};

/// How the virtual columns of a walk (windowed_layouts, folded_layouts) map to the
/// outputs and traversal indices of its full layout; none when window = fold = 1.
struct virtual_columns {
  std::int64_t window = 1;  ///< windowed: a window's elements, neighbouring virtual columns of one output
  std::int64_t fold = 1;    ///< folded: the full layout's rows in a row of the walk
  std::int64_t width = 1;   ///< folded: the full layout's columns (a walk row is fold rows of width columns)
  std::int64_t rows = 1;    ///< folded: the full layout's last reduced axis' extent (the rows a fold takes from)

  ARGX_HOST_DEVICE bool any() const { return window > 1 || fold > 1; }
  /// Virtual columns an output has.
  ARGX_HOST_DEVICE std::int64_t per_output() const { return window > 1 ? window : fold; }
  /// The full layout's traversal index of virtual column v (the walk's compact output
  /// index) in row `row` of the walk. Folded: each index u of the other reduced axes has
  /// rows / fold walk rows; the full layout's rows u * rows + q * fold + (v's row in its fold).
  ARGX_HOST_DEVICE std::int64_t position(std::int64_t row, std::int64_t v) const {
    if (window > 1) return row * window + v % window;
    const std::int64_t per = rows / fold, u = row / per;
    return u * rows + (row - u * per) * fold + v % (fold * width) / width;
  }
  /// Folded: the rows past the last whole fold of each index of the other reduced axes
  /// (read by the answers' kernel), and the full layout's traversal index of the m-th of
  /// them (over every such index u, of `reduce / rows`).
  ARGX_HOST_DEVICE std::int64_t tail_rows() const { return fold > 1 ? rows % fold : 0; }
  ARGX_HOST_DEVICE std::int64_t tail_position(std::int64_t m) const {
    const std::int64_t tail = rows % fold, u = m / tail;
    return u * rows + (rows - tail) + (m - u * tail);
  }
  /// The walk's compact index of output o's k-th virtual column (o compact in the full
  /// layout, whose column axis is last).
  ARGX_HOST_DEVICE std::int64_t column(std::int64_t o, std::int64_t k) const {
    return window > 1 ? o * window + k : o / width * (fold * width) + k * width + o % width;
  }
};

/// Which axis has unit stride (and so is read with 16-byte vectors).
enum class vector_axis : std::uint8_t {
  run,     ///< the last reduced axis: each slice is runs of contiguous elements
  column,  ///< the last kept axis (stride +1): a vector holds neighbouring outputs
  none,    ///< no unit stride: elements one by one
};

constexpr const char* to_string(vector_axis v) noexcept {
  return v == vector_axis::run ? "run" : v == vector_axis::column ? "column" : "none";
}

/// A plan as the kernels walk it. Traversal index t of a slice is row-major over `red`;
/// compact output index o is row-major over `kept`. Trivially copyable: kernels take it
/// by value.
struct layout {
  const void* data = nullptr;  ///< input element at t = 0 of output o = 0
  argx::dtype type = argx::dtype::f32;
  key_params keys{};
  bool ties_last = false;  ///< the tie rule in traversal order (flipped when positions run backwards)
  index_type index = index_type::int64;
  vector_axis vec = vector_axis::none;
  int run_dir = 1;  ///< run: +1, or -1 when the run axis has stride -1 (element i at -i)

  axis_list red;   ///< reduced axes, broadcast ones dropped; for run, the last has stride +-1
  axis_list kept;  ///< kept axes, broadcast ones dropped; for column, the last has stride +1
  axis_list reps;  ///< broadcast kept axes: every answer is stored to each of their indices
  std::int64_t pos_bias = 0;  ///< reported position = pos_bias + sum of idx * weight over red
  std::int64_t pos_base = 0;  ///< the part of pos_bias from dropped broadcast dims (before any axis was turned)
  std::int64_t out_bias = 0;  ///< output index = out_bias + sum of idx * weight over kept (+ reps)
  std::int64_t reduce = 1;    ///< traversal positions per slice
  std::int64_t outputs = 0;   ///< compact outputs (answers to compute)
  virtual_columns virt{};     ///< a walk of virtual columns (windowed_layouts, folded_layouts), and its full layout
  std::int64_t view_reduce = 1;  ///< positions per slice of the view (the plan's reduce_size)
  bool ordered = true;           ///< positions rise (or, with ties flipped, fall) with t; false when the
                                 ///< unit-stride reduced axis was moved last to be walked in runs
  bool view_ties_last = false;   ///< the caller's tie rule (unordered walks compare reported positions)
  bool dense = false;  ///< red is one block of memory, walked as one run in memory order (not ordered)
  bool identity_positions = true;  ///< reported position == t
  bool identity_outputs = true;    ///< output index == o, no replicas
  /// The bytes the view spans, [span_begin, span_end): 16-byte loads that would reach
  /// outside them (the first and last vector of the tensor) read element by element.
  std::uintptr_t span_begin = 0, span_end = 0;

  /// The last reduced axis (run) or the last kept axis (column).
  ARGX_HOST_DEVICE const axis& run_axis() const { return red.at[red.n - 1]; }
  /// Elements a run walks: the run axis', or a dense slice's all.
  ARGX_HOST_DEVICE std::int64_t run_length() const { return dense ? reduce : run_axis().extent; }
  ARGX_HOST_DEVICE const axis& column_axis() const { return kept.at[kept.n - 1]; }

  /// A plain reduction: abs and nan_ignore off, so keys order elements as their values do
  /// (NaN above every number) and loops may compare values instead of keys.
  ARGX_HOST_DEVICE bool plain() const { return !keys.abs && !keys.nan_ignore; }

  /// Input offset of compact output o's slice (its element at traversal index 0).
  ARGX_HOST_DEVICE std::int64_t slice_offset(std::int64_t o) const { return kept.offset_of_fast(o); }
  /// Input offset, from its slice's start, of the element at traversal index t.
  ARGX_HOST_DEVICE std::int64_t element_offset(std::int64_t t) const { return red.offset_of_fast(t); }

  /// The position reported for traversal index t.
  ARGX_HOST_DEVICE std::int64_t position_of(std::int64_t t) const {
    if (identity_positions) return t;
    std::int64_t o, w;
    red.locate(t, o, w);
    return pos_bias + w;
  }
  /// The input offset (from data, in the slice) of reported position pos: the inverse of
  /// position_of. pos - pos_base is the view's row-major position over the axes, whose
  /// weights are the view's (negated where an axis was turned to run forwards): its
  /// indices are taken from the heaviest weight down, and a turned axis' index counted
  /// from its other end.
  ARGX_HOST_DEVICE std::int64_t offset_of_position(std::int64_t pos) const {
    std::int64_t rest = pos - pos_base, off = 0;
    unsigned used = 0;  // a bit an axis
    ARGX_AXIS_LOOP
    for (int k = 0; k < red.n; ++k) {
      int d = -1;
      ARGX_AXIS_LOOP
      for (int i = 0; i < red.n; ++i) {
        const std::int64_t wi = red.at[i].weight < 0 ? -red.at[i].weight : red.at[i].weight;
        const std::int64_t wd = d < 0 ? -1 : (red.at[d].weight < 0 ? -red.at[d].weight : red.at[d].weight);
        if (!(used >> i & 1u) && wi > wd) d = i;
      }
      used |= 1u << d;
      const std::int64_t w = red.at[d].weight < 0 ? -red.at[d].weight : red.at[d].weight;
      const std::int64_t idx = w == 0 ? 0 : rest / w;
      rest -= idx * w;
      off += (red.at[d].weight < 0 ? red.at[d].extent - 1 - idx : idx) * red.at[d].stride;
    }
    return off;
  }
  /// The first output index of compact output o (add reps' weighted indices for the others).
  ARGX_HOST_DEVICE std::int64_t output_of(std::int64_t o) const {
    if (identity_outputs) return o;
    std::int64_t off, w;
    kept.locate(o, off, w);
    return out_bias + w;
  }
};

/// Lowers a plan of class flat, rows, strided or general (data aligned to its element size).
layout make_layout(const plan& p);

/// Slices of windows as columns: `l` runs (ordered, forwards) whose run axis (the window,
/// stride 1) a kept axis steps over (stride = the window's extent). Then every row of the
/// other reduced axes is one block of windows, neighbour after neighbour: `walk` reads it
/// as column_axis = that kept axis times the window (stride 1), a virtual column an
/// element, and reduces the rows (red = l's but the window), each virtual column's best
/// row left as a partial; virtual column v is window element v % window of output v /
/// window of `full` (l with that kept axis moved last, the answers' layout), whose
/// traversal index is row * window + v % window. False (and both untouched) where l is
/// not such a walk.
bool windowed_layouts(const layout& l, layout& full, layout& walk);

/// How many of l's last kept axes tile one block of memory in row-major order (each
/// stride the product of the extents after it, the last 1), and their product (`width`).
int contiguous_kept_tail(const layout& l, std::int64_t& width);

/// Narrow columns as wide ones: `l` column layouts whose rows (the last reduced axis) follow
/// one another (stride = C, the columns: the column axis and the kept axes that tile one
/// block of memory with it), so that each outer row of outputs is one block of rows for
/// each index of the other reduced axes. `walk` reads `fold` rows at a time as one row of
/// fold x C virtual columns (the rows past the last whole fold of each block, fewer than
/// fold, are left to the answers' kernel); virtual column v is column v % C of the block's
/// row q * fold + v / C % fold, q the walk's row in the block. `full` is l, the answers'
/// layout. False (and both untouched) where l is not such a walk or its last reduced axis
/// has fewer than `fold` rows.
bool folded_layouts(const layout& l, std::int64_t fold, layout& full, layout& walk);

/// Whether l's kept axes are in memory order: falling |stride|, the smallest innermost.
bool kept_in_memory_order(const layout& l);

/// l with its kept axes in memory order (stable where strides are equal), each still
/// weighted with its output index: compact output o then walks the slices in the order
/// their bytes lie, and output_of maps it back. For the walks of a thread an output
/// (launch_config::memory_order), whose neighbouring threads then read neighbouring bytes.
layout with_kept_in_memory_order(const layout& l);

/// The walk a launch's virtual columns `v` name (windowed or folded, with its fold), as
/// windowed_layouts or folded_layouts makes it.
bool virtual_layouts(const layout& l, const virtual_columns& v, layout& full, layout& walk);

/// "run dir=-1 red=[3x-1400 w=1400, 1400x1] kept=[...]": for tools and tests.
std::string describe(const layout& l);

}  // namespace argx::detail::gpu
