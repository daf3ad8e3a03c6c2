#include "agreement.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace argx::distributed {
namespace {

// Changes whenever rank_report's fields change.
constexpr std::uint32_t report_layout = 0x41520000u + sizeof(rank_report);

void set_message(rank_status& st, const std::string& m) {
  const std::size_t n = std::min(m.size(), sizeof st.message - 1);
  std::memcpy(st.message, m.data(), n);
  st.message[n] = '\0';
}

std::string without_prefix(const char* what) {
  const std::string w = what;
  return w.rfind("argx: ", 0) == 0 ? w.substr(6) : w;
}

std::string extents_text(const rank_report& r) {
  std::string out = "(";
  for (int i = 0; i < r.rank && i < max_rank; ++i) {
    if (i) out += ',';
    out += std::to_string(r.extents[i]);
  }
  return out + ")";
}

std::string spec_text(const rank_report& r) {
  std::string out = "dims=";
  if (r.reduced_mask == (1u << r.rank) - 1u) {
    out += "all";
  } else {
    out += "(";
    bool first = true;
    for (int d = 0; d < r.rank && d < max_rank; ++d) {
      if (!(r.reduced_mask >> d & 1u)) continue;
      if (!first) out += ',';
      out += std::to_string(d);
      first = false;
    }
    out += ")";
  }
  out += r.keepdim ? " keepdim" : "";
  out += r.nan ? " nan=ignore" : " nan=propagate";
  out += r.ties ? " ties=last" : " ties=first";
  out += r.abs ? " abs" : "";
  out += r.index ? " index=int32" : " index=int64";
  return out;
}

bool same_spec(const rank_report& a, const rank_report& b) {
  return a.reduced_mask == b.reduced_mask && a.keepdim == b.keepdim && a.nan == b.nan && a.ties == b.ties &&
         a.abs == b.abs && a.index == b.index;
}

bool same_extents(const rank_report& a, const rank_report& b) {
  if (a.rank != b.rank) return false;
  for (int i = 0; i < a.rank && i < max_rank; ++i)
    if (a.extents[i] != b.extents[i]) return false;
  return true;
}

[[noreturn]] void disagree(errc code, const std::string& what, int r, const std::string& first,
                           const std::string& other) {
  throw error(code, "ranks disagree on the " + what + ": rank 0 has " + first + ", rank " + std::to_string(r) +
                        " has " + other);
}

std::string range_text(const rank_report& r) {
  return "[" + std::to_string(r.begin) + ", " + std::to_string(r.end) + ")";
}

// Ranges of the split dim must cover [0, extent) with no gap and no overlap (empty ranges
// may sit anywhere).
void check_tiling(std::span<const rank_report> all) {
  std::vector<int> order;
  for (int r = 0; r < static_cast<int>(all.size()); ++r)
    if (all[r].end > all[r].begin) order.push_back(r);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return all[a].begin < all[b].begin; });
  const std::int64_t extent = all[0].extents[all[0].split];
  const std::string dim = "dim " + std::to_string(all[0].split) + " (extent " + std::to_string(extent) + ")";
  std::int64_t next = 0;
  int previous = -1;
  for (int r : order) {
    if (all[r].begin < next)
      throw error(errc::bad_shape, "the ranks' ranges of " + dim + " overlap: rank " + std::to_string(previous) +
                                       " has " + range_text(all[previous]) + " and rank " + std::to_string(r) +
                                       " has " + range_text(all[r]));
    if (all[r].begin > next)
      throw error(errc::bad_shape,
                  "no rank holds [" + std::to_string(next) + ", " + std::to_string(all[r].begin) + ") of " + dim);
    next = all[r].end;
    previous = r;
  }
  if (next < extent)
    throw error(errc::bad_shape,
                "no rank holds [" + std::to_string(next) + ", " + std::to_string(extent) + ") of " + dim);
}

}  // namespace

rank_status status_of(const std::exception_ptr& failure, const char* where) {
  rank_status st;
  if (!failure) return st;
  try {
    try {
      std::rethrow_exception(failure);
    } catch (...) {
      detail::rethrow_as_error(where);  // argx::error as it is; out_of_memory or internal otherwise
    }
  } catch (const error& e) {
    st.code = static_cast<std::int32_t>(e.code());
    set_message(st, without_prefix(e.what()));
  }
  return st;
}

void raise_first_failure(std::span<const rank_status> all) {
  for (std::size_t r = 0; r < all.size(); ++r) {
    if (!all[r].failed()) continue;
    rank_status st = all[r];
    st.message[sizeof st.message - 1] = '\0';  // whatever arrived, read it as a C string
    throw error(static_cast<errc>(st.code), "rank " + std::to_string(r) + ": " + st.message);
  }
}

rank_report make_report(op o, const shard& x, const spec& s, bool values, const rank_status& status) {
  rank_report r;
  r.layout = report_layout;
  r.status = status;
  r.op = static_cast<std::int32_t>(o);
  r.type = static_cast<std::int32_t>(x.local.type);
  r.rank = x.global_extents.size();
  for (int i = 0; i < r.rank; ++i) r.extents[i] = x.global_extents[i];
  r.split = x.dim < 0 && x.dim >= -r.rank ? x.dim + r.rank : x.dim;
  bool dims_valid = true;
  for (int d : s.dims) dims_valid &= d >= -r.rank && d < r.rank;
  r.reduced_mask = dims_valid ? detail::reduced_mask(s, r.rank) : 0;
  r.keepdim = s.keepdim;
  r.nan = s.nan == nan_policy::ignore;
  r.ties = s.ties == tie_break::last;
  r.abs = s.abs;
  r.index = s.index == index_type::int32;
  r.values = values;
  r.begin = x.begin;
  r.end = x.end;
  return r;
}

void agree(std::span<const rank_report> all) {
  for (std::size_t r = 0; r < all.size(); ++r)
    if (all[r].layout != report_layout)
      throw error(errc::bad_argument, "rank " + std::to_string(r) + " runs a different argx build (report layout " +
                                          std::to_string(all[r].layout) + ", expected " +
                                          std::to_string(report_layout) + ")");
  std::vector<rank_status> statuses;
  for (const auto& r : all) statuses.push_back(r.status);
  raise_first_failure(statuses);

  const rank_report& a = all[0];
  for (int r = 1; r < static_cast<int>(all.size()); ++r) {
    const rank_report& b = all[r];
    if (b.op != a.op) disagree(errc::bad_argument, "op", r, a.op ? "argmin" : "argmax", b.op ? "argmin" : "argmax");
    if (b.type != a.type)
      disagree(errc::bad_argument, "dtype", r, std::string(name(static_cast<dtype>(a.type))),
               std::string(name(static_cast<dtype>(b.type))));
    if (!same_extents(a, b)) disagree(errc::bad_shape, "global extents", r, extents_text(a), extents_text(b));
    if (b.split != a.split)
      disagree(errc::bad_argument, "split dim", r, std::to_string(a.split), std::to_string(b.split));
    if (!same_spec(a, b)) disagree(errc::bad_argument, "spec", r, spec_text(a), spec_text(b));
    if (b.values != a.values)
      disagree(errc::bad_output, "values output", r, a.values ? "values" : "no values",
               b.values ? "values" : "no values");
  }
  check_tiling(all);
}

}  // namespace argx::distributed
