// framework_of: a per-type cache in front of argx._frameworks.framework_for.
#include "framework.hpp"

#include <unordered_map>

#include <argx/error.hpp>

namespace argx::python {
namespace {

struct registry {
  nb::object lookup;
  std::unordered_map<PyTypeObject*, std::pair<nb::object, framework>> by_type;  // holds the type alive
};
registry& the_registry() {
  static registry* r = new registry();  // never destroyed: Python may be gone at exit
  return *r;
}

}  // namespace

void set_framework_lookup(nb::object lookup) {
  the_registry().lookup = std::move(lookup);
  the_registry().by_type.clear();
}

const framework& framework_of(nb::handle x) {
  registry& r = the_registry();
  PyTypeObject* t = Py_TYPE(x.ptr());
  if (auto it = r.by_type.find(t); it != r.by_type.end()) return it->second.second;
  if (!r.lookup.is_valid()) throw error(errc::bad_argument, "argx._core used before argx was imported");
  nb::object a = r.lookup(nb::handle(reinterpret_cast<PyObject*>(t)));
  framework f{a.attr("prepare"), a.attr("current_stream"), a.attr("export_current"), a.attr("empty"),
              nb::getattr(a, "empty_direct", nb::none()), nb::getattr(a, "index_dtype", nb::none())};
  auto [it, _] = r.by_type.emplace(t, std::make_pair(nb::borrow(reinterpret_cast<PyObject*>(t)), std::move(f)));
  return it->second.second;
}

nb::object new_output(const framework& fw, nb::handle x, nb::handle shape, bool like_x) {
  if (fw.empty_direct.is_none()) return fw.empty(x, shape, like_x);
  return fw.empty_direct(shape, like_x ? x.attr("dtype") : fw.index_dtype);
}


stream_choice streams_for(const framework& fw, nb::handle x, std::optional<std::uintptr_t> explicit_stream) {
  stream_choice s{explicit_stream, {}, nb::handle()};
  if (!explicit_stream) {
    s.current = [&fw, x](int device) { return nb::cast<std::uintptr_t>(fw.current_stream(x, device)); };
    s.export_current = fw.export_current;
  }
  return s;
}

imported_array import_input(nb::handle x, std::optional<std::uintptr_t> explicit_stream) {
  const framework& fw = framework_of(x);
  const nb::object arr = fw.prepare.is_none() ? nb::borrow(x) : fw.prepare(x);
  return import_array(arr, streams_for(fw, arr, explicit_stream));  // the owner keeps arr's memory alive
}

}  // namespace argx::python
