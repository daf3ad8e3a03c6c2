// make_layout: a plan rewritten for the GPU's walks (see layout.hpp).
#include "layout.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "tuning.hpp"

namespace argx::detail::gpu {
namespace {

// Merges neighbours whose strides and weights both continue row-major: the walk and every
// position and output index stay the same.
void merge_axes(axis_list& l) {
  axis_list m;
  for (int d = 0; d < l.n; ++d) {
    const axis a = l.at[d];
    if (m.n > 0) {
      axis& prev = m.at[m.n - 1];
      if (prev.stride == a.stride * a.extent && prev.weight == a.weight * a.extent) {
        prev.extent *= a.extent;
        prev.stride = a.stride;
        prev.weight = a.weight;
        continue;
      }
    }
    m.at[m.n++] = a;
  }
  l = m;
}

// Whether every weight is the row-major weight of the list's own extents (and so the
// weighted sum of index i is i itself).
bool row_major_weights(const axis_list& l) {
  std::int64_t w = 1;
  for (int d = l.n - 1; d >= 0; --d) {
    if (l.at[d].weight != w) return false;
    w *= l.at[d].extent;
  }
  return true;
}

// Whether the axes tile one block of memory (each |stride| the product of the extents of
// the axes with smaller strides, the smallest 1) that their order walks other than as
// runs of at least tune::dense_min_run_bytes: the unit-stride axis is not last, or it is
// short. Such a slice is better read in memory order, as one run.
bool dense_in_other_order(const axis_list& a, std::int64_t elem_bytes) {
  if (a.n < 2) return false;
  axis_list sorted = a;
  std::sort(sorted.at, sorted.at + sorted.n,
            [](const axis& x, const axis& y) { return std::abs(x.stride) > std::abs(y.stride); });
  std::int64_t block = 1;
  for (int d = sorted.n - 1; d >= 0; --d) {
    if (std::abs(sorted.at[d].stride) != block) return false;
    block *= sorted.at[d].extent;
  }
  const axis& last = a.at[a.n - 1];
  return std::abs(last.stride) != 1 || last.extent * elem_bytes < tune::dense_min_run_bytes;
}

// Rewrites a dense list (above) into memory order: axes by falling stride, each turned to
// run forwards (its positions counted from the other end: pos_bias and a negated weight),
// so that traversal index t is the element's offset from the block's lowest address.
void to_memory_order(axis_list& a, std::int64_t& shift, std::int64_t& pos_bias) {
  for (int d = 0; d < a.n; ++d) {
    axis& x = a.at[d];
    if (x.stride > 0) continue;
    shift += (x.extent - 1) * x.stride;
    pos_bias += (x.extent - 1) * x.weight;
    x.stride = -x.stride;
    x.weight = -x.weight;
  }
  std::sort(a.at, a.at + a.n, [](const axis& x, const axis& y) { return x.stride > y.stride; });
}

std::string list_text(const axis_list& l) {
  std::string s = "[";
  for (int d = 0; d < l.n; ++d)
    s += (d ? ", " : "") + std::to_string(l.at[d].extent) + "x" + std::to_string(l.at[d].stride) + " w" +
         std::to_string(l.at[d].weight);
  return s + "]";
}

// Whether output index == compact output o, with no replicas (layout::identity_outputs).
bool identity_outputs_of(const layout& l) {
  return l.reps.n == 0 && l.out_bias == 0 && row_major_weights(l.kept);
}

// The walk of virtual columns whose reduced axes (rows) are set: its column axis becomes
// `columns` virtual columns of unit stride, the outputs virtual columns in row-major order.
void virtual_walk(layout& walk, std::int64_t columns) {
  walk.reduce = walk.red.count();
  walk.identity_positions = false;  // its rows are not positions: the answers go through the full layout
  axis_list& k = walk.kept;
  k.at[k.n - 1] = axis{columns, 1, 0};
  std::int64_t w = 1;
  for (int d = k.n - 1; d >= 0; --d) {
    k.at[d].weight = w;
    w *= k.at[d].extent;
  }
  merge_axes(k);
  walk.outputs = k.count();
  walk.identity_outputs = false;
  walk.red.prepare_division();
  k.prepare_division();
}

}  // namespace

layout make_layout(const plan& p) {
  layout l;
  l.type = p.type;
  l.keys = p.keys;
  l.ties_last = p.ties_last;
  l.index = p.index;
  l.view_reduce = p.reduce_size;
  std::int64_t shift = 0;  // elements from p.data to l.data

  // Reduced axes with their position weights (row-major over the plan's reduced dims, which
  // is the view's order); a broadcast axis becomes a constant: its first index wins a tie,
  // its last with ties = last.
  std::int64_t w = 1;
  axis_list red;
  for (int d = p.reduced_extents.size() - 1; d >= 0; --d) {
    const std::int64_t n = p.reduced_extents[d], s = p.reduced_strides[d];
    if (s == 0) {
      if (p.ties_last) l.pos_bias += (n - 1) * w;
    } else {
      for (int k = red.n; k > 0; --k) red.at[k] = red.at[k - 1];
      red.at[0] = axis{n, s, w};
      ++red.n;
    }
    w *= n;
  }
  l.pos_base = l.pos_bias;
  bool backwards = red.n > 0;
  for (int d = 0; d < red.n; ++d) backwards = backwards && red.at[d].stride < 0;
  if (backwards) {  // walk every reduced axis forwards: positions then fall as t rises
    for (int d = 0; d < red.n; ++d) {
      axis& a = red.at[d];
      shift += (a.extent - 1) * a.stride;
      l.pos_bias += (a.extent - 1) * a.weight;
      a.stride = -a.stride;
      a.weight = -a.weight;
    }
    l.ties_last = !l.ties_last;
  }
  merge_axes(red);
  if (red.n == 0) red.at[red.n++] = axis{1, 0, 0};  // every reduced dim was a broadcast
  // A unit-stride reduced axis that is not the last one: walk it last, in runs; positions
  // then follow t run by run only, and the kernels compare reported positions.
  l.view_ties_last = p.ties_last;
  // Only slices long enough for a block each (the unordered walk's only kernel) are walked
  // that way, or few shorter ones that would otherwise go element by element (no unit
  // stride last); the others go in order.
  const std::int64_t elem_bytes = static_cast<std::int64_t>(size_of(p.type));
  const std::int64_t slice_bytes = red.count() * elem_bytes;
  const std::int64_t last_stride = red.at[red.n - 1].stride;
  const bool long_slice = slice_bytes >= tune::unordered_min_bytes ||
                          (slice_bytes >= tune::unordered_few_min_bytes && p.outputs <= tune::unordered_few_slices &&
                           last_stride != 1 && last_stride != -1);
  if (long_slice && dense_in_other_order(red, elem_bytes)) {
    to_memory_order(red, shift, l.pos_bias);
    l.dense = true;
    l.ordered = false;
  } else if (last_stride != 1 && last_stride != -1 && long_slice) {
    for (int d = red.n - 2; d >= 0; --d)
      if ((red.at[d].stride == 1 || red.at[d].stride == -1) && red.at[d].extent > 1) {
        const axis u = red.at[d];
        for (int k = d; k + 1 < red.n; ++k) red.at[k] = red.at[k + 1];
        red.at[red.n - 1] = u;
        l.ordered = false;
        break;
      }
  }
  l.red = red;
  l.reduce = red.count();
  l.identity_positions = l.ordered && l.pos_bias == 0 && !backwards && row_major_weights(red);

  // Kept axes with their output weights (row-major over the plan's kept dims: the output's
  // order); broadcast axes become replicas.
  w = 1;
  axis_list kept, reps;
  for (int d = p.kept_extents.size() - 1; d >= 0; --d) {
    const std::int64_t n = p.kept_extents[d], s = p.kept_strides[d];
    axis_list& to = s == 0 ? reps : kept;
    for (int k = to.n; k > 0; --k) to.at[k] = to.at[k - 1];
    to.at[0] = axis{n, s, w};
    ++to.n;
    w *= n;
  }

  const axis& last_red = red.at[red.n - 1];
  if (l.reduce > 1 && (last_red.stride == 1 || last_red.stride == -1)) {
    l.vec = vector_axis::run;
    l.run_dir = last_red.stride > 0 ? 1 : -1;
  } else {
    int col = -1;  // the kept axis with unit stride (the longest, should two have it)
    for (int d = 0; d < kept.n; ++d)
      if ((kept.at[d].stride == 1 || kept.at[d].stride == -1) && (col < 0 || kept.at[d].extent > kept.at[col].extent))
        col = d;
    if (col >= 0) {
      l.vec = vector_axis::column;
      axis c = kept.at[col];
      if (c.stride < 0) {  // outputs are independent: walk the column forwards, map them back
        shift += (c.extent - 1) * c.stride;
        l.out_bias += (c.extent - 1) * c.weight;
        c.stride = 1;
        c.weight = -c.weight;
      }
      for (int d = col; d + 1 < kept.n; ++d) kept.at[d] = kept.at[d + 1];
      kept.at[kept.n - 1] = c;
    }
  }
  merge_axes(kept);
  l.kept = kept;
  l.reps = reps;
  l.outputs = kept.count();
  l.identity_outputs = identity_outputs_of(l);
  const std::int64_t elem = static_cast<std::int64_t>(size_of(p.type));
  l.data = static_cast<const char*>(p.data) + shift * elem;
  std::int64_t lo = 0, hi = 0;
  for (const axis_list* list : {&l.red, &l.kept})
    for (int d = 0; d < list->n; ++d) {
      const std::int64_t reach = (list->at[d].extent - 1) * list->at[d].stride;
      (reach < 0 ? lo : hi) += reach;
    }
  for (axis_list* list : {&l.red, &l.kept, &l.reps}) list->prepare_division();
  l.span_begin = reinterpret_cast<std::uintptr_t>(l.data) + static_cast<std::uintptr_t>(lo * elem);
  l.span_end = reinterpret_cast<std::uintptr_t>(l.data) + static_cast<std::uintptr_t>((hi + 1) * elem);
  return l;
}

bool windowed_layouts(const layout& l, layout& full, layout& walk) {
  if (l.vec != vector_axis::run || !l.ordered || l.dense || l.run_dir != 1 || l.red.n < 2) return false;
  const axis& win = l.red.at[l.red.n - 1];
  if (win.stride != 1 || win.extent < 2) return false;
  int col = -1;  // the kept axis that steps over windows (the last one, should several)
  for (int d = 0; d < l.kept.n; ++d)
    if (l.kept.at[d].stride == win.extent && l.kept.at[d].extent > 1) col = d;
  if (col < 0) return false;
  full = l;
  const axis c = full.kept.at[col];
  for (int d = col; d + 1 < full.kept.n; ++d) full.kept.at[d] = full.kept.at[d + 1];
  full.kept.at[full.kept.n - 1] = c;
  full.identity_outputs = identity_outputs_of(full);
  full.kept.prepare_division();

  full.virt.window = win.extent;
  walk = full;
  walk.vec = vector_axis::column;
  walk.red.n -= 1;
  virtual_walk(walk, c.extent * win.extent);
  return true;
}

int contiguous_kept_tail(const layout& l, std::int64_t& width) {
  width = 1;
  int d = l.kept.n - 1;
  while (d >= 0 && l.kept.at[d].stride == width) width *= l.kept.at[d--].extent;
  return l.kept.n - 1 - d;
}

bool folded_layouts(const layout& l, std::int64_t fold, layout& full, layout& walk) {
  if (l.vec != vector_axis::column || fold < 2) return false;
  // The columns: the kept axes that tile one block of memory with the column axis, in
  // row-major order (the last ones; their output weights may be any).
  std::int64_t width = 1;
  const int block_axes = contiguous_kept_tail(l, width);
  const axis& in = l.red.at[l.red.n - 1];
  if (in.stride != width || in.extent < fold) return false;
  full = l;
  full.virt.fold = fold;
  full.virt.width = width;
  full.virt.rows = in.extent;
  walk = full;
  // (The other reduced axes stay: the walk's rows are row-major over them, then the folds.)
  walk.red.at[l.red.n - 1] = axis{in.extent / fold, fold * width, 0};
  walk.kept.n -= block_axes - 1;  // virtual_walk makes the last one the virtual columns
  virtual_walk(walk, fold * width);
  return true;
}

bool kept_in_memory_order(const layout& l) {
  for (int d = 0; d + 1 < l.kept.n; ++d)
    if (std::abs(l.kept.at[d].stride) < std::abs(l.kept.at[d + 1].stride)) return false;
  return true;
}

layout with_kept_in_memory_order(const layout& l) {
  layout m = l;
  std::stable_sort(m.kept.at, m.kept.at + m.kept.n,
                   [](const axis& x, const axis& y) { return std::abs(x.stride) > std::abs(y.stride); });
  merge_axes(m.kept);
  m.kept.prepare_division();
  m.identity_outputs = identity_outputs_of(m);
  return m;
}

bool virtual_layouts(const layout& l, const virtual_columns& v, layout& full, layout& walk) {
  return v.window > 1 ? windowed_layouts(l, full, walk) : folded_layouts(l, v.fold, full, walk);
}

std::string describe(const layout& l) {
  std::string s = to_string(l.vec);
  if (l.vec == vector_axis::run && l.run_dir < 0) s += " backwards";
  s += " red=" + list_text(l.red) + " kept=" + list_text(l.kept);
  if (l.reps.n) s += " reps=" + list_text(l.reps);
  if (!l.identity_positions) s += " pos_bias=" + std::to_string(l.pos_bias);
  if (!l.identity_outputs) s += " out_bias=" + std::to_string(l.out_bias);
  if (l.dense) s += " dense";
  if (!l.ordered) s += " unordered";
  if (l.ties_last) s += " ties_last";
  if (l.virt.window > 1) s += " window=" + std::to_string(l.virt.window);
  if (l.virt.fold > 1) s += " fold=" + std::to_string(l.virt.fold) + "x" + std::to_string(l.virt.width);
  return s;
}

}  // namespace argx::detail::gpu
