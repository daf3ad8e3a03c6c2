// reduce: import (zero-copy), validate, allocate like the input, reduce without the GIL.
#include "reduce_binding.hpp"

#include <string>

#include <nanobind/stl/string.h>

#include <argx/argx.hpp>

#include "array_import.hpp"
#include "framework.hpp"
#include "reduce_args.hpp"

namespace argx::python {
namespace {

// An output buffer and the Python array that owns it.
struct output {
  nb::object array;
  imported_array imported;
  argx::output_view view;
};

output adopt(nb::handle array, const imported_array& in, std::optional<std::uintptr_t> explicit_stream,
             const char* what) {
  const framework& fw = framework_of(array);
  stream_choice streams = streams_for(fw, array, explicit_stream);
  if (!explicit_stream && in.view.space == memory_space::device)
    streams.current = [&in](int) { return in.stream; };  // outputs go with the input, on its stream
  output o{nb::borrow(array), import_array(array, streams), {}};
  o.view = as_output(o.imported, what);
  return o;
}

// `out`: the indices array; with values=True also a pair (indices or None, values or None).
void split_out(nb::handle out, bool values, nb::handle& indices, nb::handle& vals) {
  indices = vals = nb::none();
  if (out.is_none()) return;
  if (PyTuple_Check(out.ptr()) || PyList_Check(out.ptr())) {
    if (!values) throw error(errc::bad_argument, "out is a sequence, but values=False: pass the indices array alone");
    if (PySequence_Fast_GET_SIZE(out.ptr()) != 2)
      throw error(errc::bad_argument, "out must be the indices array or a pair (indices, values)");
    indices = PySequence_Fast_GET_ITEM(out.ptr(), 0);
    vals = PySequence_Fast_GET_ITEM(out.ptr(), 1);
    return;
  }
  indices = out;
}

}  // namespace

nb::object reduce(nb::handle x, argx::op o, nb::handle dim, bool keepdim, nb::handle nan, nb::handle ties, bool abs,
                  nb::handle out, bool values, nb::handle backend, nb::handle stream) {
  argx::spec s = make_spec(dim, keepdim, nan, ties, abs);
  const std::optional<std::uintptr_t> explicit_stream = caller_stream(stream);
  const imported_array in = import_input(x, explicit_stream);

  nb::handle out_indices, out_values;
  split_out(out, values, out_indices, out_values);
  output indices, vals;
  if (!out_indices.is_none()) {
    indices = adopt(out_indices, in, explicit_stream, "out (indices)");
    if (indices.view.type == dtype::i32) s.index = index_type::int32;
    else if (indices.view.type != dtype::i64)
      throw error(errc::bad_output, "out (indices) has dtype " + std::string(name(indices.view.type)) +
                                        "; indices are int64 or int32");
  }
  if (!out_values.is_none()) vals = adopt(out_values, in, explicit_stream, "out (values)");

  // The input and spec are validated before any output is allocated; argx::reduce checks the
  // outputs, the backend and the memory spaces before it writes anything.
  const argx::shape shape = argx::output_shape(in.view, s);
  const argx::policy pol =
      make_policy(backend, in.view.space == memory_space::device ? in.stream : explicit_stream.value_or(0));
  const framework& fw = framework_of(x);
  const nb::tuple out_shape = shape_tuple(shape);
  if (!indices.array.is_valid()) indices = adopt(new_output(fw, x, out_shape, false), in, explicit_stream, "indices");
  if (values && !vals.array.is_valid()) vals = adopt(new_output(fw, x, out_shape, true), in, explicit_stream, "values");
  {
    nb::gil_scoped_release released;
    argx::reduce(pol, o, in.view, indices.view, values ? &vals.view : nullptr, s);
  }
  if (values) return nb::make_tuple(indices.array, vals.array);
  return indices.array;
}

nb::dict describe(nb::handle x) {
  const imported_array a = import_input(x, std::nullopt);
  nb::dict d;
  d["data"] = reinterpret_cast<std::uintptr_t>(a.view.data);
  d["dtype"] = std::string(name(a.view.type));
  d["shape"] = shape_tuple(a.view.extents);
  d["strides"] = shape_tuple(a.view.strides);
  d["device"] = a.view.space == memory_space::host ? std::string("cpu")
                : a.device >= 0                     ? "cuda:" + std::to_string(a.device)
                                                    : std::string("cuda");
  d["writable"] = a.writable;
  d["protocol"] = a.protocol;
  return d;
}

}  // namespace argx::python
