// One differential test case: a base array (C or Fortran order), view transforms on top
// of it and a reduction. It is checked by running every chosen backend and comparing
// with seq, and written out as a .npy file plus the `argx diff` command that replays it.
#pragma once

#include <string>
#include <vector>

#include <argx/argx.hpp>

#include "outcome.hpp"
#include "reduction_args.hpp"
#include "view_ops.hpp"

namespace argx::cli {

struct fuzz_case {
  argx::dtype type = dtype::f32;
  shape extents;                    ///< the base array's shape
  bool fortran = false;             ///< base stored column-major
  std::vector<unsigned char> data;  ///< base elements in storage order
  reduction_args reduction;         ///< op, spec and the view transforms

  /// The base array with C or Fortran strides.
  tensor_view base_view() const;
  /// The base with the view transforms applied (argx::error when they do not fit).
  tensor_view view() const;
  /// Whether view() succeeds.
  bool view_fits() const;
  /// Elements in the base array.
  std::int64_t base_count() const;
  /// "float32 (3, 5) F-order view (5, 2)".
  std::string describe() const;
};

/// Runs `c` on every backend of `backends` (seq first) and returns the first difference
/// from seq ("" when all agree). `all_failed` is set when every backend raised the same error.
std::string check_case(const fuzz_case& c, const std::vector<argx::backend>& backends, bool* all_failed = nullptr);

/// The first difference seen in up to `runs` checks of `c` ("" when every run agrees):
/// a race in a parallel backend may show only in some runs.
std::string check_case_repeatedly(const fuzz_case& c, const std::vector<argx::backend>& backends, int runs);

/// The elements of `v` gathered into a new buffer in C order (or Fortran order).
std::vector<unsigned char> gather(const tensor_view& v, bool fortran);

/// "(3, 5)".
std::string shape_text(const shape& s);

}  // namespace argx::cli
