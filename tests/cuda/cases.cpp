#include "cases.hpp"

#include <cstdlib>

namespace argx_gpu_test {

using namespace argx_test;
using argx::dtype;

host_tensor make_case(rng& r, dtype t, const shape_case& c) {
  host_tensor x = random_tensor(r, t, c.extents);
  const int last = x.rank() - 1;
  switch (c.how) {
    case shape_case::view::plain: return x;
    case shape_case::view::slice_mid: return x.sliced(1, 1, c.extents[1], 2);
    case shape_case::view::skip_first: return x.sliced(last, 1, c.extents[last]);
    case shape_case::view::transpose01: return x.transposed(0, 1);
    case shape_case::view::flip_last: return x.flipped(last);
    case shape_case::view::broadcast0: return x.broadcast(0, 3);
    case shape_case::view::flip_first: return x.flipped(0);
    case shape_case::view::step_last: return x.sliced(last, 0, c.extents[last], 2);
    case shape_case::view::broadcast_kept: return x.broadcast(0, 4);  // dim 0 (extent 1) kept, repeated
    case shape_case::view::flip_all: {
      for (int d = 0; d <= last; ++d) x = x.flipped(d);
      return x;
    }
    case shape_case::view::reverse_dims: {
      for (int d = 0; d < last - d; ++d) x = x.transposed(d, last - d);
      return x;
    }
    case shape_case::view::flip_ends: return x.flipped(0).flipped(last);
    case shape_case::view::transpose_1_last: return x.transposed(1, last);
    case shape_case::view::slice_mid_transposed: return x.sliced(1, 1, c.extents[1], 2).transposed(0, last);
  }
  return x;
}

std::vector<shape_case> cases() {
  using v = shape_case::view;
  std::vector<shape_case> cs;
  // flat: one warp, team/block switch-over, one block, many blocks meeting in one launch
  for (std::int64_t n : {1, 2, 3, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257, 511, 512, 513, 1023, 1024, 1025,
                         2047, 2048, 2049, 4097, 8191, 8192, 8193, 16385, 65537, 262147, (1 << 20) + 3, (3 << 20) + 5})
    cs.push_back({"flat " + std::to_string(n), {n}, {}});
  cs.push_back({"flat, start not 16-byte aligned", {70003}, {}, v::skip_first});
  cs.push_back({"flat, start not 16-byte aligned, split", {(1 << 20) + 9}, {}, v::skip_first});
  cs.push_back({"flat, reversed (walked forwards, ties flipped)", {100000}, {}, v::flip_last});
  cs.push_back({"flat of a reversed 2-d view", {300, 501}, {}, v::flip_all});
  // rows: staged in shared memory (any length and alignment), teams, blocks, split rows
  for (auto [rows, len] : std::vector<std::pair<std::int64_t, std::int64_t>>{
           {1000, 2}, {777, 3}, {4096, 7}, {3000, 31}, {3000, 32}, {2000, 33}, {1500, 64}, {1000, 100}, {300, 255},
           {300, 256}, {100, 1000}, {70, 1024}, {64, 4097}, {10, 50000}, {3, 300001}, {2, (1 << 21) + 1},
           {300000, 5}, {40000, 48}, {50000, 33}, {20000, 129}, {5000, 1021}, {2000, 8}, {3000, 9}, {2000, 12}})
    cs.push_back({"rows " + std::to_string(rows) + "x" + std::to_string(len), {rows, len}, {1}});
  cs.push_back({"rows starting at every alignment", {100, 1001}, {1}, v::skip_first});
  cs.push_back({"short rows starting at every alignment", {3000, 20}, {1}, v::skip_first});
  cs.push_back({"rows of a sliced 3-d view", {6, 9, 70}, {2}, v::slice_mid});
  cs.push_back({"rows of a sliced 3-d view, long", {4, 5, 30000}, {2}, v::slice_mid});
  cs.push_back({"reversed rows (walked forwards)", {2000, 37}, {1}, v::flip_last});
  cs.push_back({"reversed rows of a few elements", {3000, 6}, {1}, v::flip_last});
  cs.push_back({"rows of a few elements starting at every alignment", {5000, 4}, {1}, v::skip_first});
  cs.push_back({"reversed long rows", {3, 70001}, {1}, v::flip_last});
  cs.push_back({"rows of a reversed outer dim", {500, 45}, {1}, v::flip_first});
  cs.push_back({"rows repeated along a broadcast kept dim", {1, 700, 43}, {2}, v::broadcast_kept});
  // rows of a few KiB, over a thousand of them: a team of lanes each (half a warp up to
  // 1024 slots), not a block
  cs.push_back({"rows 1300x3001 (a team of lanes a row)", {1300, 3001}, {1}});
  cs.push_back({"reversed rows 1400x2000 (a team of lanes a row)", {1400, 2000}, {1}, v::flip_last});
  // several reduced dims with a contiguous last one: runs of a slice, short and long
  cs.push_back({"dims 0 and 2, short runs", {30, 500, 7}, {0, 2}});
  cs.push_back({"dims 0 and 2, runs of 33", {40, 300, 33}, {0, 2}});
  cs.push_back({"dims 0 and 2, long runs", {6, 20, 5000}, {0, 2}});
  // runs of a few slots a lane: a piece's slots one range across its runs; longer ones run after run
  cs.push_back({"dims 0 and 2, runs of over 4096 slots (run after run)", {3, 2, 20000}, {0, 2}});
  cs.push_back({"dims 0 and 2, few long slices", {200, 3, 3001}, {0, 2}});
  cs.push_back({"dims 0 and 2, long slices", {300, 40, 70}, {0, 2}});
  cs.push_back({"dims 1 and 3", {5, 40, 6, 35}, {1, 3}});
  cs.push_back({"dims 0 and 2, a warp a slice of 40 runs", {40, 1300, 70}, {0, 2}});
  // a few positions a slice over several runs, or with no unit stride: a thread each,
  // batches of 8 loads (positions 7 and 8 in different batches), the block's offset table
  // full at 64 positions
  cs.push_back({"dims 0 and 2, tiny slices", {3, 36000, 5}, {0, 2}});
  cs.push_back({"dims 0 and 2, tiny slices of 64 positions", {2, 34000, 32}, {0, 2}});
  cs.push_back({"dims 0 and 2, tiny slices of a reversed outer dim", {4, 35000, 3}, {0, 2}, v::flip_first});
  cs.push_back({"every other element of short rows (tiny slices)", {40000, 12}, {1}, v::step_last});
  // rows of 9 to 24 elements, many of them: a thread a row (tiny slices)
  cs.push_back({"rows of 13, many (tiny slices)", {36000, 13}, {1}});
  cs.push_back({"rows of 24, many (tiny slices)", {34000, 24}, {1}});
  cs.push_back({"reversed rows of 11, many (tiny slices)", {35000, 11}, {1}, v::flip_last});
  cs.push_back({"rows of 17 starting at every alignment, many (tiny slices)", {34000, 18}, {1}, v::skip_first});
  // few rows of narrow column groups: a thread an output (tiny slices)
  cs.push_back({"few rows of narrow columns (tiny slices)", {12000, 8, 3}, {1}});
  cs.push_back({"few rows of narrow reversed columns (tiny slices)", {12000, 6, 3}, {1}, v::flip_last});
  cs.push_back({"few rows of narrow columns starting past a boundary (tiny slices)", {12000, 5, 4}, {1}, v::skip_first});
  cs.push_back({"flat with a reversed outer dim (runs forwards)", {70, 999}, {}, v::flip_first});
  cs.push_back({"flat with a reversed last dim (runs backwards)", {50, 999}, {}, v::flip_last});
  cs.push_back({"dims 0 and 1, last reversed", {40, 300}, {0, 1}, v::flip_last});
  // long slices that tile one block of memory in another order: read in memory order as one
  // run, positions computed for the elements that can win (dense)
  cs.push_back({"flat of a 4-d view with its dims reversed (dense)", {3, 17, 11, 401}, {}, v::reverse_dims});
  cs.push_back({"flat with the first and last dims reversed (dense)", {20, 64, 53}, {}, v::flip_ends});
  cs.push_back({"dims 1 to 3 with dim 1 and the last swapped (dense slices)", {4, 9, 17, 450}, {1, 2, 3}, v::transpose_1_last});
  // short ones, few of them: the same walk (a block a slice beats element by element)
  cs.push_back({"flat of a transposed 951x33 (short dense slice)", {951, 33}, {}, v::transpose01});
  cs.push_back({"dims 1 and 2 of a 3-d view, last two swapped (short dense slices)", {3, 40, 50}, {1, 2}, v::transpose_1_last});
  // the same with gaps (not one block): the unit-stride dim walked last, short and long runs
  cs.push_back({"flat of a sliced, transposed view (unit-stride dim walked last)", {64, 5, 700}, {}, v::slice_mid_transposed});
  cs.push_back({"flat of a sliced, transposed view, long runs", {4, 5, 9000}, {}, v::slice_mid_transposed});
  // columns: aligned and shifted inner dims, narrow types packed, split rows meeting
  for (auto e : std::vector<argx::shape>{{1, 1000, 64}, {3, 17, 5}, {2, 5000, 4}, {100, 8, 32}, {1, 100000, 3},
                                         {5, 300, 1000}, {1, 20000, 64}, {7, 33, 129}, {200, 10, 21}, {1, 30000, 37},
                                         {2, 40000, 9}, {1, 70000, 300}})
    cs.push_back({"strided " + to_string(e), e, {1}});
  // small column inputs: up to 32 rows a thread an output (tiny slices), more rows the column kernel
  cs.push_back({"few rows of wide columns, small input (tiny slices)", {2, 13, 659}, {1}});
  cs.push_back({"31 rows of narrow columns, small input (tiny slices)", {3, 31, 7}, {1}});
  cs.push_back({"40 rows of narrow columns, small input (column kernel)", {3, 40, 5}, {1}});
  cs.push_back({"40 rows of aligned columns, small input (column kernel)", {10, 40, 32}, {1}});
  cs.push_back({"dim 0 of 4096x36", {4096, 36}, {0}});
  cs.push_back({"dim 0 of 3x50000", {3, 50000}, {0}});
  cs.push_back({"dim 0 of 5105x350", {5105, 350}, {0}});
  cs.push_back({"strided, outer dim sliced", {9, 100, 64}, {2}, v::slice_mid});  // reduce inner of a slice: rows
  cs.push_back({"strided with a sliced middle", {6, 40, 48}, {0}, v::slice_mid});
  cs.push_back({"columns starting past a boundary", {300, 77}, {0}, v::skip_first});
  cs.push_back({"rows of a transposed matrix (columns)", {300, 200}, {1}, v::transpose01});
  cs.push_back({"columns reversed", {400, 71}, {0}, v::flip_last});
  cs.push_back({"dims 0 and 1 of a sliced 3-d view (columns, two reduced axes)", {20, 30, 40}, {0, 1}, v::slice_mid});
  // wide columns whose rows start anywhere, split rows meeting, two reduced axes, the
  // tensor's ends (every column read runs on them: column_reads_test.cpp)
  cs.push_back({"dim 0 of 500x1001 (wide shifted columns, split)", {500, 1001}, {0}});
  cs.push_back({"wide shifted columns, many outer rows", {800, 3, 201}, {1}});
  cs.push_back({"wide shifted columns starting past a boundary", {90, 2003}, {0}, v::skip_first});
  cs.push_back({"dims 0 and 1 of a sliced 3-d view, wide shifted columns", {12, 9, 1001}, {0, 1}, v::slice_mid});
  cs.push_back({"dim 0 of 2000x1001 (wide shifted columns, long split rows)", {2000, 1001}, {0}});
  // several reduced dims whose short last one (windows) a kept dim steps over: rows of
  // windows read as columns, an element a virtual column, whose partials a second kernel
  // folds (inputs of at least 1 MiB; one split and several; rows starting anywhere;
  // answers repeated along a broadcast kept dim)
  cs.push_back({"dims 0 and 2, windows of 3 as columns", {64, 20000, 3}, {0, 2}});
  cs.push_back({"dims 0 and 2, windows of 7 as columns, many rows (split)", {20000, 16, 7}, {0, 2}});
  cs.push_back({"dims 0 and 2, windows of 5 as columns, outer dim reversed", {200, 2000, 5}, {0, 2}, v::flip_first});
  cs.push_back({"dims 1 and 3, windows of 3 as columns, broadcast kept dim", {1, 6000, 60, 3}, {1, 3}, v::broadcast_kept});
  // columns of at most 4 bytes whose rows follow one another: `fold` rows read as one row
  // of virtual columns, the rows past the last fold by the answers' kernel (inputs of at
  // least 1 MiB: 2-byte elements here; a tail of rows; outer rows; rows reversed)
  cs.push_back({"dim 0 of 600011x2, columns of 4 bytes folded", {600011, 2}, {0}});
  cs.push_back({"dims 0 and 2, windows of 7 as columns, rows not 16-byte aligned (split)", {20000, 15, 7}, {0, 2}});
  cs.push_back({"dim 1 of 3x200003x2, columns of 4 bytes folded, rows not 16-byte aligned", {3, 200003, 2}, {1}});
  cs.push_back({"dim 0 of 600011x2 reversed, columns of 4 bytes folded (ties flipped)", {600011, 2}, {0}, v::flip_first});
  // no unit stride: element by element
  cs.push_back({"all dims of a transposed matrix", {300, 200}, {}, v::transpose01});
  cs.push_back({"all dims of a transposed matrix, large", {2000, 1500}, {}, v::transpose01});
  cs.push_back({"all dims of a transposed matrix of short columns", {20000, 9}, {}, v::transpose01});
  cs.push_back({"every other element of each row", {500, 61}, {1}, v::step_last});
  cs.push_back({"every other element, flat", {300001}, {}, v::step_last});
  cs.push_back({"broadcast dim reduced", {1, 4000}, {0, 1}, v::broadcast0});
  cs.push_back({"dims 1 and 2 of a transposed 3-d view", {20, 30, 40}, {0, 2}, v::transpose01});
  // (appended: a case added before the others would change their dtype and option variants)
  // one split, answers staged through shared memory to outputs in another order than
  // compact: reversed, and repeated along a broadcast kept dim
  cs.push_back({"dim 0 of 20x200000 reversed (staged answers, outputs reversed)", {20, 200000}, {0}, v::flip_last});
  cs.push_back({"dim 1 of 20x100000 repeated along a broadcast kept dim (staged answers)", {1, 20, 100000}, {1},
                v::broadcast_kept});
  // a thread an output, outputs taken in memory order (their compact order reads bytes far
  // apart): columns of 2 of a reversed view, transposed rows of 3, tiny slices over two runs
  cs.push_back({"dim 4 of a reversed 5x1500x7x23x2 (tiny slices in memory order)", {5, 1500, 7, 23, 2}, {4},
                v::reverse_dims});
  cs.push_back({"rows of 3 of a transposed 12000x40x3 (tiny rows in memory order)", {12000, 40, 3}, {2}, v::transpose01});
  cs.push_back({"dims 0 and 2 of a reversed 60000x6x2x2 (tiny slices in memory order)", {60000, 6, 2, 2}, {0, 2},
                v::reverse_dims});
  // slices of more than 1024 slots a team of 32 lanes (shorter ones take half a warp; too
  // few slices for teams of half that to give every multiprocessor a block)
  cs.push_back({"rows 1300x4500 (a warp a row)", {1300, 4500}, {1}});
  cs.push_back({"dims 0 and 2, a warp a slice of 100 short runs", {100, 1300, 70}, {0, 2}});
  // columns of at most 4 bytes whose rows (the last reduced dim) follow one another, for
  // each index of another reduced dim: folded, each block's rows past its last fold by the
  // answers' kernel
  cs.push_back({"dims 0 and 2 of 40x3x4133x2, columns folded for each index of dim 0", {40, 3, 4133, 2}, {0, 2}});
  return cs;
}

bool quick() { return std::getenv("ARGX_GPU_TEST_QUICK") != nullptr; }

bool is_large(const shape_case& c) {
  std::int64_t n = 1;
  for (auto e : c.extents) n *= e;
  return n > (1 << 19);
}

const std::vector<std::string>& kernel_paths() {
  static const std::vector<std::string> all = {
      "tiny_rows", "windows lanes=1 slots=2", "windows lanes=2-16 slots=4", "windows lanes=2-16 slots=8", "windows lanes=32 slots=8",
      "staged_rows",
      "runs_team lanes=2-16 short", "runs_team lanes=32", "runs_team lanes=32 short", "runs_block", "runs_block split", "runs_block split interleaved",
      "runs_block short split", "runs_block across", "runs_block across split", "columns aligned", "columns shifted", "columns shifted packed",
      "columns shifted packed atomic", "columns shifted atomic", "columns aligned partials", "columns shifted partials",
      "columns aligned partials window", "columns shifted packed partials window", "columns aligned packed partials window",
      "columns aligned partials folded", "columns shifted partials folded",
      "runs_unordered split", "runs_unordered short split", "runs_unordered dense", "runs_unordered dense split interleaved", "elements_team", "elements_block split",
      "tiny_slices", "tiny_rows memory", "tiny_slices memory"};
  return all;
}

}  // namespace argx_gpu_test
