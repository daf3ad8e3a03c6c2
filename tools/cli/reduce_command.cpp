// argx reduce INPUT.npy -o OUT.npy [options]: one reduction, indices (and values) to .npy.
#include <cstddef>
#include <cstdio>
#include <optional>

#include <argx/argx.hpp>

#include "commands.hpp"
#include "distributed.hpp"
#include "npy.hpp"
#include "options.hpp"
#include "outcome.hpp"
#include "reduction_args.hpp"
#include "write_outputs.hpp"

namespace argx::cli {
namespace {

// Outputs that name the input or each other would destroy one of them: refused before any
// work. A path that does not resolve to a writable place is refused here too.
void refuse_clobbering(const std::string& input, const std::string& output, const std::string& values) {
  std::string in;
  try {
    in = npy::destination(input);
  } catch (const error&) {
    // Not a writable place, so no output can land on it; reading it reports what is wrong.
  }
  const std::string out = npy::destination(output);
  if (!out.empty() && out == in) throw usage_error("-o " + output + " would overwrite the input " + input);
  if (values.empty()) return;
  const std::string val = npy::destination(values);
  if (!val.empty() && val == in) throw usage_error("--values " + values + " would overwrite the input " + input);
  if (!val.empty() && val == out)
    throw usage_error("-o " + output + " and --values " + values + " name the same file (one would overwrite the other)");
}

// The reduction validated against the shape in the header: the view options, the dims, the
// index type and the output sizes, so that a request argx refuses costs no read of the data.
// Validation only reads the view's shape and strides, never its elements: any address
// stands in for the data.
void check_request(const npy::header& h, const reduction_args& red, bool values) {
  static const std::max_align_t stand_in{};
  const tensor_view x = apply_view(make_view(&stand_in, h.type, h.extents, npy::strides_of(h.extents, h.fortran_order)),
                                   red.view);
  const argx::detail::plan p = argx::detail::make_plan(x, red.op, red.spec);
  if (values) (void)detail::output_bytes(p.outputs, x.type, "values");
}

}  // namespace

int reduce_command(const args& a) {
  reduction_args red;
  std::string output, values_path, backend_name = "auto";
  int repeat = 0;
  option_set opts;
  opts.value("--output", "OUT.npy", "where the indices go (required)", [&](const std::string& v) { output = v; });
  opts.alias("-o", "--output");
  red.add_options(opts);
  opts.value("--values", "VALUES.npy", "also write the winning elements", [&](const std::string& v) { values_path = v; });
  opts.value("--backend", "NAME", "seq, par, tbb, cuda, thrust or auto (default auto)", [&](const std::string& v) {
    if (!parse_backend(v)) throw usage_error("--backend: unknown backend '" + v + "' (seq, par, tbb, cuda, thrust, auto)");
    backend_name = v;
  });
  opts.value("--repeat", "N", "after a warm-up, time N more runs of the reduction; print time_ms median= min=",
             [&](const std::string& v) { repeat = static_cast<int>(parse_int("--repeat", v, 1, 1000000)); });
  std::optional<int> distributed_dim;
  opts.value("--distributed", "DIM", "under mpirun: each rank reads its slab along DIM; rank 0 writes (argx-mpi)",
             [&](const std::string& v) { distributed_dim = static_cast<int>(parse_int("--distributed", v, -max_rank, max_rank - 1)); });
  const auto positional = opts.parse_or_help(a, "reduce INPUT.npy -o OUT.npy [options]");
  if (!positional) return 0;
  const std::string& input = only_input(*positional);
  if (output.empty()) throw usage_error("missing -o OUT.npy");
  refuse_clobbering(input, output, values_path);
  if (distributed_dim)
    return distributed_reduce({input, output, values_path, red, backend_name, repeat, *distributed_dim});

  // The request is checked against the header's shape before any data is read or mapped.
  const npy::read_options read_opt{.bf16 = red.bf16};
  check_request(npy::read_header(input, read_opt), red, !values_path.empty());
  const npy::array in = npy::read(input, read_opt);
  const job j{red.op, apply_view(in.view(), red.view), red.spec, !values_path.empty()};
  const outcome o = run(*parse_backend(backend_name), j, repeat);
  if (!o.ok) throw error(o.code, o.message);
  if (!o.damage.empty()) throw error(errc::bad_output, "backend " + backend_name + " " + o.damage);
  if (repeat > 0) std::printf("time_ms median=%.6g min=%.6g\n", median(o.times_ms), minimum(o.times_ms));

  // Indices and values replace what was at their paths together, or not at all.
  const dtype index_dtype = j.spec.index == index_type::int64 ? dtype::i64 : dtype::i32;
  write_outputs(output_shape(j.x, j.spec), output, o.indices, index_dtype, values_path, o.values, j.x.type);
  return 0;
}

}  // namespace argx::cli
