// The header is read as read() reads it; the slab is then either mapped in place or gathered
// run by run from the mapping (or with pread where the file cannot be mapped).
#include "slab.hpp"

#include <cstring>

#include "detail.hpp"
#include "input_file.hpp"

namespace argx::npy {

array read_slab(const std::string& path, int dim, std::int64_t begin, std::int64_t end, const read_options& opt) {
  const detail::input_file file(path);
  const header h = file.read_header(opt);
  const int rank = h.extents.size();
  if (dim < -rank || dim >= rank)
    throw error(errc::bad_dim,
                "dim " + std::to_string(dim) + " is out of range for " + path + " of rank " + std::to_string(rank));
  const int d = dim < 0 ? dim + rank : dim;
  const std::int64_t n = h.extents[d];
  if (begin < 0 || end < begin || end > n)
    throw error(errc::bad_argument, "slab [" + std::to_string(begin) + ", " + std::to_string(end) + ") of dim " +
                                        std::to_string(d) + " lies outside its extent " + std::to_string(n));
  array a = detail::array_of(h);
  a.extents[d] = end - begin;
  // In storage order the dims run slowest to fastest: row-major as written, or reversed
  // for a Fortran-order file. The slab is then `outer` runs of (end - begin) * inner elements,
  // one every n * inner elements. The header has checked that all of these sizes fit.
  std::int64_t outer = 1, inner = 1;
  for (int i = 0; i < rank; ++i) {
    const bool slower = h.fortran_order ? i > d : i < d;
    if (i != d) (slower ? outer : inner) *= h.extents[i];
  }
  const std::uint64_t elem = size_of(h.type);
  const std::uint64_t run = static_cast<std::uint64_t>((end - begin) * inner) * elem;
  const std::uint64_t total = run * static_cast<std::uint64_t>(outer);
  if (total == 0) return a;
  const std::uint64_t first = h.data_offset + static_cast<std::uint64_t>(begin * inner) * elem;
  const std::uint64_t step = static_cast<std::uint64_t>(n * inner) * elem;

  auto mapping = detail::map_file(file);
  const auto* mapped = static_cast<const unsigned char*>(mapping.get());
  const bool one_run = outer == 1 || end - begin == n;
  if (one_run && !h.big_endian && h.data_offset % elem == 0 && mapped) {
    a.bytes = element_bytes(std::move(mapping), mapped + first, static_cast<std::size_t>(total), true);
    return a;
  }
  std::vector<unsigned char> bytes = detail::heap_buffer(total);
  for (std::int64_t o = 0; o < outer; ++o) {
    unsigned char* dst = bytes.data() + static_cast<std::uint64_t>(o) * run;
    const std::uint64_t at = first + static_cast<std::uint64_t>(o) * step;
    if (mapped) std::memcpy(dst, mapped + at, static_cast<std::size_t>(run));
    else file.read_at(dst, static_cast<std::size_t>(run), at);
  }
  detail::to_host_order(bytes, h);
  a.bytes = element_bytes(std::move(bytes));
  return a;
}

}  // namespace argx::npy
