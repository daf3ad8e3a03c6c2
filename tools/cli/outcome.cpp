#include "outcome.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>

#include <argx/testing.hpp>

namespace argx::cli {
namespace {

constexpr std::size_t guard_bytes = 64;
constexpr unsigned char fill = 0xA5;

// An output buffer with guard zones on both sides, all filled with a known byte.
struct guarded {
  std::vector<unsigned char> bytes;
  std::size_t size;
  explicit guarded(std::size_t n) : bytes(n + 2 * guard_bytes, fill), size(n) {}
  unsigned char* data() { return bytes.data() + guard_bytes; }
  bool guards_intact() const {
    for (std::size_t i = 0; i < guard_bytes; ++i)
      if (bytes[i] != fill || bytes[guard_bytes + size + i] != fill) return false;
    return true;
  }
  bool untouched() const { return std::all_of(bytes.begin(), bytes.end(), [](unsigned char b) { return b == fill; }); }
};

}  // namespace

outcome run(argx::backend b, const job& j, int repeat) {
  outcome o;
  o.backend = b;
  const argx::dtype index_dtype = j.spec.index == index_type::int64 ? dtype::i64 : dtype::i32;
  shape out_extents;
  std::int64_t index_bytes = 0, value_bytes = 0;
  try {
    const argx::detail::plan p = argx::detail::make_plan(j.x, j.op, j.spec);
    out_extents = p.out_extents;
    index_bytes = detail::output_bytes(p.outputs, index_dtype, "index");
    value_bytes = j.values ? detail::output_bytes(p.outputs, j.x.type, "values") : 0;
  } catch (const error&) {
    // The reduction itself must raise the same error (before writing anything); let it.
    index_bytes = value_bytes = 0;
  }
  std::optional<guarded> idx_buffer, val_buffer;
  try {
    idx_buffer.emplace(static_cast<std::size_t>(index_bytes));
    val_buffer.emplace(static_cast<std::size_t>(value_bytes));
  } catch (const std::exception&) {
    o.code = errc::out_of_memory;
    o.message = "no host memory for output buffers of " + std::to_string(index_bytes + value_bytes) + " bytes";
    return o;
  }
  guarded &idx = *idx_buffer, &val = *val_buffer;
  const output_view iv = make_output(static_cast<void*>(idx.data()), index_dtype, out_extents);
  const output_view vv = make_output(static_cast<void*>(val.data()), j.x.type, out_extents);
  const policy pol{b};

  using clock = std::chrono::steady_clock;
  auto once = [&] {
    const auto t0 = clock::now();
    reduce(pol, j.op, j.x, iv, j.values ? &vv : nullptr, j.spec);
    return std::chrono::duration<double, std::milli>(clock::now() - t0).count();
  };
  try {
    const double first = once();
    o.ok = true;
    if (repeat == 0) o.times_ms.push_back(first);
  } catch (const error& e) {
    o.code = e.code();
    const std::string what = e.what();
    o.message = what.rfind("argx: ", 0) == 0 ? what.substr(6) : what;
  }
  if (o.ok ? !(idx.guards_intact() && val.guards_intact()) : !(idx.untouched() && val.untouched()))
    o.damage = o.ok ? "wrote outside its output buffers" : "wrote into its output buffers and then failed";
  if (!o.ok) return o;
  o.indices.assign(idx.data(), idx.data() + idx.size);
  o.values.assign(val.data(), val.data() + val.size);
  for (int r = 0; r < repeat; ++r) o.times_ms.push_back(once());
  return o;
}

std::vector<std::int64_t> indices_of(const job& j, const outcome& o) {
  std::vector<std::int64_t> out;
  if (j.spec.index == index_type::int64) {
    out.resize(o.indices.size() / 8);
    if (!out.empty()) std::memcpy(out.data(), o.indices.data(), o.indices.size());
  } else {
    for (std::size_t i = 0; i + 4 <= o.indices.size(); i += 4) {
      std::int32_t v;
      std::memcpy(&v, o.indices.data() + i, 4);
      out.push_back(v);
    }
  }
  return out;
}

std::string summary(const outcome& o) {
  return o.ok ? std::string("ok") : "error " + std::string(to_string(o.code)) + " (" + o.message + ")";
}

std::string first_difference(const job& j, const outcome& ref, const outcome& got) {
  const std::string r(name(ref.backend)), g(name(got.backend));
  if (!got.damage.empty()) return g + " " + got.damage;
  if (!ref.damage.empty()) return r + " " + ref.damage;
  if (ref.ok != got.ok || (!ref.ok && ref.code != got.code))
    return r + " gave " + summary(ref) + ", " + g + " gave " + summary(got);
  if (!ref.ok) return "";
  const testing::answer a{indices_of(j, ref), ref.values}, b{indices_of(j, got), got.values};
  const testing::report rep = testing::compare_answers(j.x, j.op, j.spec, a, b, r, g);
  if (rep) return "";
  std::string s = rep.to_string();
  const std::string prefix = "argx::testing: ";
  return s.rfind(prefix, 0) == 0 ? s.substr(prefix.size()) : s;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double minimum(const std::vector<double>& v) { return v.empty() ? 0 : *std::min_element(v.begin(), v.end()); }

}  // namespace argx::cli
