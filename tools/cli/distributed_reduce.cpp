// argx reduce INPUT.npy ... --distributed DIM, under mpirun: each rank maps the file and
// reads only its slab along DIM (an even split), argx::mpi reduces it with the rank's
// local backend and combines the candidates; rank 0 writes the output (gathering the
// ranks' slabs of it first when DIM is kept). Every failure, the file's included, is
// raised on every rank, so no rank waits for another that gave up.
#include <argx/mpi.hpp>

#include <climits>
#include <cstdio>
#include <vector>

#include "distributed.hpp"
#include "failure.hpp"
#include "npy.hpp"
#include "options.hpp"
#include "outcome.hpp"
#include "slab.hpp"
#include "write_outputs.hpp"

namespace argx::cli {
namespace {

// MPI for the length of the command: initialized here unless it already is, finalized on
// the way out (also when an error is on its way to main).
class mpi_session {
 public:
  mpi_session() {
    int on = 0;
    MPI_Initialized(&on);
    if (!on) {
      MPI_Init(nullptr, nullptr);
      owned_ = true;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
  }
  ~mpi_session() {
    if (owned_) MPI_Finalize();
  }
  mpi_session(const mpi_session&) = delete;
  mpi_session& operator=(const mpi_session&) = delete;
  int rank = 0, size = 1;

 private:
  bool owned_ = false;
};

// Runs a rank's own step; if it failed on any rank, every rank raises that error.
template <class F>
void on_every_rank(F&& step) {
  std::exception_ptr failure;
  try {
    step();
  } catch (...) {
    failure = std::current_exception();
  }
  raise_on_every_rank(MPI_COMM_WORLD, failure);
}

// Rank 0 receives every rank's slab of the output (its range of output dim `at`, in rank
// order) and puts each in place; the other ranks get an empty vector.
std::vector<unsigned char> gather_output(const mpi_session& mpi, const std::vector<unsigned char>& mine,
                                         const shape& whole, int at, std::size_t elem) {
  std::int64_t outer = 1, inner = 1;
  for (int d = 0; d < at; ++d) outer *= whole[d];
  for (int d = at + 1; d < whole.size(); ++d) inner *= whole[d];
  std::vector<int> counts(static_cast<std::size_t>(mpi.size)), offsets(static_cast<std::size_t>(mpi.size));
  std::int64_t total = 0;
  for (int r = 0; r < mpi.size; ++r) {
    const auto [b, e] = even_split(whole[at], mpi.size, r);
    const std::int64_t bytes = outer * (e - b) * inner * static_cast<std::int64_t>(elem);
    if (total + bytes > INT_MAX)
      throw error(errc::bad_argument, "--distributed: an output over 2 GiB cannot be gathered");
    counts[r] = static_cast<int>(bytes);
    offsets[r] = static_cast<int>(total);
    total += bytes;
  }
  std::vector<unsigned char> received(mpi.rank == 0 ? static_cast<std::size_t>(total) : 0);
  MPI_Gatherv(mine.data(), counts[mpi.rank], MPI_BYTE, received.data(), counts.data(), offsets.data(), MPI_BYTE, 0,
              MPI_COMM_WORLD);
  if (mpi.rank != 0) return {};
  std::vector<unsigned char> out(received.size());
  const std::int64_t n = whole[at];
  for (int r = 0; r < mpi.size; ++r) {
    const auto [b, e] = even_split(n, mpi.size, r);
    const std::size_t run = static_cast<std::size_t>((e - b) * inner) * elem;
    for (std::int64_t o = 0; o < outer; ++o)
      std::copy_n(received.data() + offsets[r] + o * run, run,
                  out.data() + static_cast<std::size_t>((o * n + b) * inner) * elem);
  }
  return out;
}

int run(const distributed_job& job, const mpi_session& mpi) {
  const spec& s = job.reduction.spec;
  const op o = job.reduction.op;
  npy::array slab;
  shard x;
  shape extents;
  on_every_rank([&] {
    const npy::read_options opt{.bf16 = job.reduction.bf16};
    const npy::header h = npy::read_header(job.input, opt);
    const int rank = h.extents.size();
    if (job.dim < -rank || job.dim >= rank)
      throw error(errc::bad_dim, "--distributed: dim " + std::to_string(job.dim) + " is out of range for " + job.input +
                                     " of rank " + std::to_string(rank));
    const int split = job.dim < 0 ? job.dim + rank : job.dim;
    const auto [begin, end] = even_split(h.extents[split], mpi.size, mpi.rank);
    slab = npy::read_slab(job.input, split, begin, end, opt);
    x = make_shard(slab.view(), h.extents, split, begin);
    extents = output_shape(x, s);
  });

  std::int64_t count = 1;
  for (auto e : extents) count *= e;
  const dtype index_dtype = s.index == index_type::int64 ? dtype::i64 : dtype::i32;
  std::vector<unsigned char> indices(static_cast<std::size_t>(count) * size_of(index_dtype));
  std::vector<unsigned char> values(job.values_path.empty() ? 0
                                                            : static_cast<std::size_t>(count) * size_of(x.local.type));
  const output_view iv = make_output(indices.empty() ? nullptr : indices.data(), index_dtype, extents);
  const output_view vv = make_output(values.empty() ? nullptr : values.data(), x.local.type, extents);
  const auto pol = argx::mpi(MPI_COMM_WORLD, *policy::from_name(job.backend));
  auto reduce_once = [&] { reduce(pol, o, x, iv, job.values_path.empty() ? nullptr : &vv, s); };

  reduce_once();  // collective: raises on every rank, or none
  if (job.repeat > 0) {
    std::vector<double> times_ms;
    for (int i = 0; i < job.repeat; ++i) {
      MPI_Barrier(MPI_COMM_WORLD);
      const double t0 = MPI_Wtime();
      reduce_once();
      const double mine = (MPI_Wtime() - t0) * 1e3;
      double slowest = 0;
      MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
      times_ms.push_back(slowest);
    }
    if (mpi.rank == 0) std::printf("time_ms median=%.6g min=%.6g\n", median(times_ms), minimum(times_ms));
  }

  shape whole_extents = extents;
  const int rank = x.global_extents.size();
  const bool split_kept = !(detail::reduced_mask(s, rank) >> x.dim & 1u);
  if (split_kept) {  // each rank holds its slab of the output: rank 0 puts them together
    const int at = detail::output_position(x.dim, rank, s);
    whole_extents[at] = x.global_extents[x.dim];
    indices = gather_output(mpi, indices, whole_extents, at, size_of(index_dtype));
    if (!job.values_path.empty()) values = gather_output(mpi, values, whole_extents, at, size_of(x.local.type));
  }
  on_every_rank([&] {
    if (mpi.rank == 0)
      write_outputs(whole_extents, job.output, indices, index_dtype, job.values_path, values, x.local.type);
  });
  return 0;
}

}  // namespace

int distributed_reduce(const distributed_job& job) {
  if (!policy::from_name(job.backend)) throw usage_error("--backend: unknown backend '" + job.backend + "'");
  const mpi_session mpi;
  try {
    if (!job.reduction.view.empty())
      throw usage_error("--distributed: each rank reads its slab of the file; the view options do not apply");
    return run(job, mpi);
  } catch (const std::exception&) {
    // Every rank has the same failure: rank 0 prints it, and no rank leaves before that
    // (mpirun ends the job as soon as one rank exits with an error).
    const int status = report_failure("reduce", mpi.rank == 0);
    MPI_Barrier(MPI_COMM_WORLD);
    return status;
  }
}

}  // namespace argx::cli
