// The options that describe one reduction, shared by `argx reduce` and `argx diff`:
// --op --dim --keepdim --nan --ties --abs --index-type, the view transforms and --bf16.
#pragma once

#include <string>
#include <vector>

#include <argx/spec.hpp>
#include <argx/tensor_view.hpp>

#include "options.hpp"
#include "view_ops.hpp"

namespace argx::cli {

struct reduction_args {
  argx::op op = argx::op::argmax;
  argx::spec spec{};
  std::vector<view_op> view;  ///< applied to the input, in order
  bool bf16 = false;          ///< read 2-byte raw/uint16 .npy data as bfloat16

  /// Registers the options on `opts`; they write into *this.
  void add_options(option_set& opts);
  /// The command-line words that reproduce these settings (defaults omitted).
  std::vector<std::string> to_args() const;
  /// One line for people: "argmax dims=(1) keepdim nan=ignore ...".
  std::string describe() const;
};

/// Words joined by spaces, each quoted for a POSIX shell when it needs it.
std::string shell_join(const std::vector<std::string>& words);

}  // namespace argx::cli
