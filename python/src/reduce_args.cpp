// make_spec, make_policy, stream_handle: Python options to argx's spec and policy.
#include "reduce_args.hpp"

#include <limits>
#include <string>
#include <string_view>

namespace argx::python {
namespace {

std::string repr_text(nb::handle o) { return nb::repr(o).c_str(); }

std::string_view text(nb::handle o, const char* what) {
  Py_ssize_t n = 0;
  const char* s = PyUnicode_Check(o.ptr()) ? PyUnicode_AsUTF8AndSize(o.ptr(), &n) : nullptr;
  if (s == nullptr) {
    PyErr_Clear();
    throw error(errc::bad_argument, std::string(what) + " must be a string, not " + repr_text(o));
  }
  return {s, static_cast<std::size_t>(n)};
}

// One dim: any integer (operator.index), not a bool.
int one_dim(nb::handle d) {
  if (PyBool_Check(d.ptr()) || !PyIndex_Check(d.ptr()))
    throw error(errc::bad_argument, "dim must be None, an int or a tuple of ints, not " + repr_text(d));
  nb::object i = nb::steal(PyNumber_Index(d.ptr()));
  if (!i.is_valid()) throw nb::python_error();
  int overflow = 0;
  const long v = PyLong_AsLongAndOverflow(i.ptr(), &overflow);
  if (overflow != 0 || v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
    throw error(errc::bad_dim, "dim " + repr_text(i) + " is out of range");
  return static_cast<int>(v);
}

}  // namespace

argx::spec make_spec(nb::handle dim, bool keepdim, nb::handle nan, nb::handle ties, bool abs) {
  argx::spec s;
  if (PyTuple_Check(dim.ptr()) || PyList_Check(dim.ptr())) {
    nb::object seq = nb::borrow(dim);
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq.ptr());
    if (n == 0) throw error(errc::bad_argument, "dim=() names no dims; use dim=None to reduce every dim");
    PyObject** items = PySequence_Fast_ITEMS(seq.ptr());
    for (Py_ssize_t i = 0; i < n; ++i) s.dims.push_back(one_dim(items[i]));
  } else if (!dim.is_none()) {
    s.dims.push_back(one_dim(dim));
  }
  s.keepdim = keepdim;
  const std::string_view n = text(nan, "nan");
  if (n == "propagate") s.nan = nan_policy::propagate;
  else if (n == "ignore") s.nan = nan_policy::ignore;
  else throw error(errc::bad_argument, "nan must be \"propagate\" or \"ignore\", not " + repr_text(nan));
  const std::string_view t = text(ties, "ties");
  if (t == "first") s.ties = tie_break::first;
  else if (t == "last") s.ties = tie_break::last;
  else throw error(errc::bad_argument, "ties must be \"first\" or \"last\", not " + repr_text(ties));
  s.abs = abs;
  return s;
}

argx::policy make_policy(nb::handle backend, std::uintptr_t stream) {
  auto p = argx::policy::from_name(text(backend, "backend"));
  if (!p)
    throw error(errc::bad_argument,
                "backend must be one of auto, seq, par, tbb, cuda, thrust, not " + repr_text(backend));
  p->stream = reinterpret_cast<argx::stream_handle>(stream);
  return *p;
}

std::optional<std::uintptr_t> caller_stream(nb::handle stream) {
  if (stream.is_none()) return std::nullopt;
  nb::object h;
  if (PyLong_Check(stream.ptr())) h = nb::borrow(stream);
  else if (nb::hasattr(stream, "cuda_stream")) h = stream.attr("cuda_stream");  // torch.cuda.Stream
  else if (nb::hasattr(stream, "ptr")) h = stream.attr("ptr");                  // cupy.cuda.Stream
  if (!h.is_valid() || !PyLong_Check(h.ptr()))
    throw error(errc::bad_argument, "stream must be None, an int (cudaStream_t), a torch.cuda.Stream or a "
                                    "cupy.cuda.Stream, not " + repr_text(stream));
  const unsigned long long v = PyLong_AsUnsignedLongLong(h.ptr());
  if (PyErr_Occurred()) {
    PyErr_Clear();
    throw error(errc::bad_argument, "stream handle " + repr_text(h) + " is not a pointer value");
  }
  return static_cast<std::uintptr_t>(v);
}

bool truth(nb::handle flag) {
  const int t = PyObject_IsTrue(flag.ptr());
  if (t < 0) throw nb::python_error();
  return t != 0;
}

argx::op make_op(nb::handle name) {
  const std::string_view o = text(name, "op");
  if (o == "argmax") return op::argmax;
  if (o == "argmin") return op::argmin;
  throw error(errc::bad_argument, "op must be \"argmax\" or \"argmin\", not " + repr_text(name));
}

}  // namespace argx::python
