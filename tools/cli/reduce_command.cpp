// argx reduce INPUT.npy -o OUT.npy [options]: one reduction, indices (and values) to .npy.
#include <cstdio>
#include <optional>

#include <argx/argx.hpp>

#include "commands.hpp"
#include "distributed.hpp"
#include "npy.hpp"
#include "options.hpp"
#include "outcome.hpp"
#include "reduction_args.hpp"

namespace argx::cli {

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
  bool help = false;
  const auto pos = opts.parse(a, help);
  if (help) {
    std::printf("usage: argx reduce INPUT.npy -o OUT.npy [options]\n\n%s", opts.help().c_str());
    return 0;
  }
  if (pos.size() != 1) throw usage_error(pos.empty() ? "missing INPUT.npy" : "more than one input: '" + pos[1] + "'");
  if (output.empty()) throw usage_error("missing -o OUT.npy");
  if (distributed_dim) return distributed_reduce({pos[0], output, values_path, red, backend_name, repeat, *distributed_dim});

  const npy::array in = npy::read(pos[0], {.bf16 = red.bf16});
  const job j{red.op, apply_view(in.view(), red.view), red.spec, !values_path.empty()};
  const outcome o = run(*parse_backend(backend_name), j, repeat);
  if (!o.ok) throw error(o.code, o.message);
  if (!o.damage.empty()) throw error(errc::bad_output, "backend " + backend_name + " " + o.damage);
  if (repeat > 0) std::printf("time_ms median=%.6g min=%.6g\n", median(o.times_ms), minimum(o.times_ms));

  const shape out_extents = output_shape(j.x, j.spec);
  const dtype index_dtype = j.spec.index == index_type::int64 ? dtype::i64 : dtype::i32;
  npy::write(output, make_view(o.indices.empty() ? nullptr : o.indices.data(), index_dtype, out_extents,
                               contiguous_strides(out_extents)));
  if (!values_path.empty())
    npy::write(values_path, make_view(o.values.empty() ? nullptr : o.values.data(), j.x.type, out_extents,
                                      contiguous_strides(out_extents)));
  return 0;
}

}  // namespace argx::cli
