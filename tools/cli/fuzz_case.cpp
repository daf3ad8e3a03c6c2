#include "fuzz_case.hpp"

#include <cstring>

#include "npy.hpp"

namespace argx::cli {

std::string shape_text(const shape& s) {
  std::string out = "(";
  for (int i = 0; i < s.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(s[i]);
  }
  return out + (s.size() == 1 ? ",)" : ")");
}

tensor_view fuzz_case::base_view() const {
  // An empty array still gets a real address: view transforms offset it.
  static const std::uint64_t no_elements = 0;
  return make_view(data.empty() ? static_cast<const void*>(&no_elements) : data.data(), type, extents,
                   npy::strides_of(extents, fortran));
}

tensor_view fuzz_case::view() const { return apply_view(base_view(), reduction.view); }

bool fuzz_case::view_fits() const {
  try {
    (void)view();
    return true;
  } catch (const error&) {
    return false;
  }
}

std::int64_t fuzz_case::base_count() const {
  std::int64_t n = 1;
  for (auto e : extents) n *= e;
  return n;
}

std::string fuzz_case::describe() const {
  std::string s = std::string(name(type)) + " " + shape_text(extents) + (fortran ? " F-order" : " C-order");
  if (!reduction.view.empty()) {
    s += ", view";
    for (const auto& op : reduction.view)
      for (const auto& w : to_args(op)) s += " " + w;
    if (view_fits()) s += " -> " + shape_text(view().extents);
  }
  return s + ", " + reduction.describe();
}

std::vector<unsigned char> gather(const tensor_view& v, bool fortran) {
  // The .npy writer already gathers any strides in either order; reuse it and drop the header.
  const auto file = npy::serialize(v, {.fortran_order = fortran});
  const std::size_t bytes = [&] {
    std::size_t n = size_of(v.type);
    for (auto e : v.extents) n *= static_cast<std::size_t>(e);
    return n;
  }();
  return {file.end() - static_cast<std::ptrdiff_t>(bytes), file.end()};
}

std::string check_case(const fuzz_case& c, const std::vector<argx::backend>& backends, bool* all_failed) {
  const job j{c.reduction.op, c.view(), c.reduction.spec, true};
  const std::vector<unsigned char> before = c.data;
  const outcome ref = run(backends.front(), j);
  std::string diff = ref.damage.empty() ? "" : std::string(name(ref.backend)) + " " + ref.damage;
  for (std::size_t i = 1; i < backends.size() && diff.empty(); ++i) diff = first_difference(j, ref, run(backends[i], j));
  if (diff.empty() && c.data != before) diff = "the input was modified";
  if (all_failed) *all_failed = diff.empty() && !ref.ok;
  return diff;
}

}  // namespace argx::cli

namespace argx::cli {

std::string check_case_repeatedly(const fuzz_case& c, const std::vector<argx::backend>& backends, int runs) {
  for (int r = 0; r < runs; ++r) {
    std::string d = check_case(c, backends);
    if (!d.empty()) return d;
  }
  return "";
}

}  // namespace argx::cli
