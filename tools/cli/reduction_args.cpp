#include "reduction_args.hpp"

namespace argx::cli {

void reduction_args::add_options(option_set& opts) {
  opts.value("--op", "argmax|argmin", "which element wins (default argmax)", [this](const std::string& v) {
    op = parse_choice<argx::op>("--op", v, {{"argmax", argx::op::argmax}, {"argmin", argx::op::argmin}});
  });
  opts.value("--dim", "D", "reduce dim D (repeatable; negative counts from the end; none = all dims, flat index)",
             [this](const std::string& v) {
               if (spec.dims.size() == max_rank) throw usage_error("--dim: more than " + std::to_string(max_rank) + " dims");
               spec.dims.push_back(static_cast<int>(parse_int("--dim", v, -1000000, 1000000)));
             });
  opts.flag("--keepdim", "keep reduced dims with extent 1", [this] { spec.keepdim = true; });
  opts.value("--nan", "propagate|ignore", "NaN wins (default, numpy argmax) or never wins (nanargmax; all-NaN -> -1)",
             [this](const std::string& v) {
               spec.nan = parse_choice<nan_policy>("--nan", v, {{"propagate", nan_policy::propagate}, {"ignore", nan_policy::ignore}});
             });
  opts.value("--ties", "first|last", "which of equal elements wins (default first)", [this](const std::string& v) {
    spec.ties = parse_choice<tie_break>("--ties", v, {{"first", tie_break::first}, {"last", tie_break::last}});
  });
  opts.flag("--abs", "compare |x| (the signed element is returned)", [this] { spec.abs = true; });
  opts.value("--index-type", "int64|int32", "index output type (default int64)", [this](const std::string& v) {
    spec.index = parse_choice<index_type>("--index-type", v, {{"int64", index_type::int64}, {"int32", index_type::int32}});
  });
  opts.flag("--bf16", "read '<V2' / '<u2' .npy data as bfloat16", [this] { bf16 = true; });
  opts.value("--transpose", "A,B", "view: swap dims A and B", [this](const std::string& v) {
    view.push_back(parse_view_op(view_op::kind::transpose, "--transpose", v));
  });
  opts.value("--slice", "D:START:STOP[:STEP]", "view: numpy's x[START:STOP:STEP] along dim D (parts may be omitted or negative)",
             [this](const std::string& v) { view.push_back(parse_view_op(view_op::kind::slice, "--slice", v)); });
  opts.value("--flip", "D", "view: reverse dim D (negative stride)",
             [this](const std::string& v) { view.push_back(parse_view_op(view_op::kind::flip, "--flip", v)); });
  opts.value("--broadcast", "D:N", "view: repeat dim D (extent 1) N times (zero stride)",
             [this](const std::string& v) { view.push_back(parse_view_op(view_op::kind::broadcast, "--broadcast", v)); });
}

std::vector<std::string> reduction_args::to_args() const {
  std::vector<std::string> a;
  if (op == argx::op::argmin) a.insert(a.end(), {"--op", "argmin"});
  for (int d : spec.dims) a.insert(a.end(), {"--dim", std::to_string(d)});
  if (spec.keepdim) a.push_back("--keepdim");
  if (spec.nan == nan_policy::ignore) a.insert(a.end(), {"--nan", "ignore"});
  if (spec.ties == tie_break::last) a.insert(a.end(), {"--ties", "last"});
  if (spec.abs) a.push_back("--abs");
  if (spec.index == index_type::int32) a.insert(a.end(), {"--index-type", "int32"});
  if (bf16) a.push_back("--bf16");
  for (const auto& v : view)
    for (auto& w : cli::to_args(v)) a.push_back(std::move(w));
  return a;
}

std::string reduction_args::describe() const {
  std::string s = op == argx::op::argmax ? "argmax" : "argmin";
  if (spec.dims.empty()) {
    s += " dims=all";
  } else {
    s += " dims=(";
    for (int i = 0; i < spec.dims.size(); ++i) {
      if (i) s += ',';
      s += std::to_string(spec.dims[i]);
    }
    s += ")";
  }
  if (spec.keepdim) s += " keepdim";
  s += spec.nan == nan_policy::ignore ? " nan=ignore" : " nan=propagate";
  s += spec.ties == tie_break::last ? " ties=last" : " ties=first";
  if (spec.abs) s += " abs";
  s += spec.index == index_type::int32 ? " index=int32" : " index=int64";
  return s;
}

std::string shell_join(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) {
    if (!out.empty()) out += ' ';
    const bool plain = !w.empty() && w.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,:/=+@%") == std::string::npos;
    if (plain) {
      out += w;
    } else {
      out += '\'';
      for (char c : w) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
      out += '\'';
    }
  }
  return out;
}

}  // namespace argx::cli
