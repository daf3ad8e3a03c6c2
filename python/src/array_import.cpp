// import_array: DLPack, then the array interface. Nothing is copied: the view points at
// the producer's memory, with its strides (in elements; zero and negative kept).
#include "array_import.hpp"

#include <bit>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>

#include <nanobind/stl/string.h>

#include "dlpack.hpp"

namespace argx::python {
namespace {

static_assert(std::endian::native == std::endian::little, "argx's Python package reads little-endian arrays");

constexpr const char* supported_dtypes =
    ": argx reduces bool, integers of 8 to 64 bits, float16, bfloat16, float32 and float64";

std::string type_text(nb::handle obj) { return nb::type_name(obj.type()).c_str(); }

std::string str_text(nb::handle obj) {
  nb::object s = nb::steal(PyObject_Str(obj.ptr()));
  if (!s.is_valid()) throw nb::python_error();
  return PyUnicode_AsUTF8(s.ptr());
}

// Interned attribute names and the keyword tuple of `__dlpack__(stream=...)`.
struct names {
  nb::object dlpack = nb::steal(PyUnicode_InternFromString("__dlpack__"));
  nb::object dlpack_device = nb::steal(PyUnicode_InternFromString("__dlpack_device__"));
  nb::object array_interface = nb::steal(PyUnicode_InternFromString("__array_interface__"));
  nb::object cuda_array_interface = nb::steal(PyUnicode_InternFromString("__cuda_array_interface__"));
  nb::object stream_kw = nb::make_tuple("stream");
};
const names& name() {
  static const names* n = new names();  // never destroyed: Python may be gone at exit
  return *n;
}

// The dtype of a numpy-style kind ('b' bool, 'i' signed, 'u' unsigned, 'f' floating) and size.
std::optional<argx::dtype> dtype_of_kind(char kind, long bytes) {
  static constexpr struct {
    char kind;
    long bytes;
    argx::dtype type;
  } table[] = {{'b', 1, dtype::boolean}, {'i', 1, dtype::i8},  {'i', 2, dtype::i16}, {'i', 4, dtype::i32},
               {'i', 8, dtype::i64},     {'u', 1, dtype::u8},  {'u', 2, dtype::u16}, {'u', 4, dtype::u32},
               {'u', 8, dtype::u64},     {'f', 2, dtype::f16}, {'f', 4, dtype::f32}, {'f', 8, dtype::f64}};
  for (const auto& e : table)
    if (e.kind == kind && e.bytes == bytes) return e.type;
  return std::nullopt;
}

std::optional<argx::dtype> dtype_from_dlpack(const dlpack::data_type& t) {
  if (t.lanes != 1 || t.bits % 8 != 0) return std::nullopt;
  const long bytes = t.bits / 8;
  switch (t.code) {
    case dlpack::int_code: return dtype_of_kind('i', bytes);
    case dlpack::uint_code: return dtype_of_kind('u', bytes);
    case dlpack::float_code: return dtype_of_kind('f', bytes);
    case dlpack::bool_code: return dtype_of_kind('b', bytes);
    case dlpack::bfloat_code: return bytes == 2 ? std::optional<dtype>(dtype::bf16) : std::nullopt;
    default: return std::nullopt;
  }
}

// bfloat16 has no array-interface type code: ml_dtypes exports it as raw 2-byte data ("V2")
// and names it in the array's dtype.
bool dtype_named_bfloat16(nb::handle obj) {
  if (!nb::hasattr(obj, "dtype")) return false;
  nb::object dt = obj.attr("dtype");
  return nb::hasattr(dt, "name") && nb::str(dt.attr("name")).equal(nb::str("bfloat16"));
}

// A typestr: byte order ('<', '>', '|', '='), kind, size in bytes ("<f4", "|b1", "<V2").
std::optional<argx::dtype> dtype_from_typestr(std::string_view t, nb::handle obj) {
  if (t.size() < 3) return std::nullopt;
  if (t[0] == '>')
    throw error(errc::unsupported_dtype, "array of non-native byte order ('" + std::string(t) +
                                             "'); argx reads native (little-endian) elements");
  const long bytes = std::strtol(std::string(t.substr(2)).c_str(), nullptr, 10);
  if (t[1] == 'V' && bytes == 2 && dtype_named_bfloat16(obj)) return dtype::bf16;
  return dtype_of_kind(t[1], bytes);
}

void check_rank(std::int64_t ndim) {
  if (ndim > argx::max_rank)
    throw error(errc::bad_shape, "array of rank " + std::to_string(ndim) + ": argx takes ranks up to " +
                                     std::to_string(argx::max_rank));
  if (ndim < 0) throw error(errc::bad_shape, "array of negative rank " + std::to_string(ndim));
}

std::int64_t as_int64(nb::handle v, const char* what) {
  const long long x = PyLong_AsLongLong(v.ptr());
  if (x == -1 && PyErr_Occurred()) {
    PyErr_Clear();
    throw error(errc::bad_argument, std::string(what) + " is not a 64-bit integer");
  }
  return x;
}

// ---- DLPack ------------------------------------------------------------------------------

// Calls obj.__dlpack__() (or __dlpack__(stream=s)); a refusal raises nb::python_error.
nb::object export_capsule(nb::handle obj, std::optional<std::uintptr_t> stream) {
  PyObject* r;
  if (stream) {
    // DLPack reserves 0; 1 names the legacy default stream (what handle 0 means to CUDA).
    nb::object s = nb::steal(PyLong_FromUnsignedLongLong(*stream == 0 ? 1 : *stream));
    PyObject* args[2] = {obj.ptr(), s.ptr()};
    r = PyObject_VectorcallMethod(name().dlpack.ptr(), args, 1, name().stream_kw.ptr());
  } else {
    PyObject* args[1] = {obj.ptr()};
    r = PyObject_VectorcallMethod(name().dlpack.ptr(), args, 1, nullptr);
  }
  if (r == nullptr) throw nb::python_error();
  return nb::steal(r);
}

imported_array from_dlpack(nb::handle obj, bool has_device, const stream_choice& streams) {
  nb::object capsule;
  std::optional<std::uintptr_t> stream;
  if (!streams.explicit_stream && streams.export_current.is_valid() && !streams.export_current.is_none()) {
    // The framework's own export, with no stream handshake: host memory, or CUDA memory read
    // on the framework's current stream, where its work is already ordered.
    capsule = nb::borrow(streams.export_current)(obj);
  } else {
    dlpack::device dev{dlpack::cpu, 0};
    if (has_device) {
      nb::object t = nb::steal(PyObject_CallMethodNoArgs(obj.ptr(), name().dlpack_device.ptr()));
      if (!t.is_valid()) throw nb::python_error();
      dev.type = static_cast<std::int32_t>(as_int64(t[0], "__dlpack_device__()[0]"));
      dev.id = static_cast<std::int32_t>(as_int64(t[1], "__dlpack_device__()[1]"));
    }
    if (dev.type == dlpack::cuda || dev.type == dlpack::cuda_managed)
      stream = streams.explicit_stream ? *streams.explicit_stream : streams.current ? streams.current(dev.id) : 0;
    capsule = export_capsule(obj, stream);
  }
  if (!PyCapsule_IsValid(capsule.ptr(), dlpack::capsule_name))
    throw error(errc::bad_argument, type_text(obj) + ".__dlpack__() did not return an unconsumed DLPack capsule");
  auto* managed = static_cast<dlpack::managed_tensor*>(PyCapsule_GetPointer(capsule.ptr(), dlpack::capsule_name));
  const dlpack::tensor& t = managed->dl_tensor;

  imported_array a;
  switch (t.dev.type) {
    case dlpack::cpu: case dlpack::cuda_host: a.view.space = memory_space::host; break;
    case dlpack::cuda: case dlpack::cuda_managed:
      a.view.space = memory_space::device;
      a.device = t.dev.id;
      if (!stream)  // exported without asking for a stream
        stream = streams.explicit_stream ? *streams.explicit_stream : streams.current ? streams.current(t.dev.id) : 0;
      a.stream = *stream;
      break;
    default:
      throw error(errc::wrong_memory_space, type_text(obj) + " is on DLPack device type " + std::to_string(t.dev.type) +
                                                ": argx reads CPU and CUDA memory");
  }
  const auto type = dtype_from_dlpack(t.dtype);
  if (!type) {
    const std::string dt = nb::hasattr(obj, "dtype") ? str_text(obj.attr("dtype"))
                                                     : "DLPack code " + std::to_string(t.dtype.code) + ", " +
                                                           std::to_string(t.dtype.bits) + " bits";
    throw error(errc::unsupported_dtype, type_text(obj) + " of dtype " + dt + supported_dtypes);
  }
  a.view.type = *type;
  check_rank(t.ndim);
  for (int d = 0; d < t.ndim; ++d) a.view.extents.push_back(t.shape[d]);
  a.view.strides = t.strides ? argx::shape(std::span<const std::int64_t>(t.strides, t.ndim))
                             : argx::contiguous_strides(a.view.extents);
  a.view.data = static_cast<const char*>(t.data) + t.byte_offset;
  a.owner = std::move(capsule);
  a.protocol = "dlpack";
  return a;
}

// ---- the array interface -------------------------------------------------------------

imported_array from_interface(nb::handle obj, bool cuda, const stream_choice& streams) {
  nb::object d = nb::getattr(obj, cuda ? name().cuda_array_interface : name().array_interface);
  const char* what = cuda ? "__cuda_array_interface__" : "__array_interface__";
  if (!PyDict_Check(d.ptr())) throw error(errc::bad_argument, type_text(obj) + "." + what + " is not a dict");
  nb::dict iface = nb::borrow<nb::dict>(d);
  auto item = [&](const char* key) -> nb::handle { return PyDict_GetItemString(iface.ptr(), key); };
  nb::handle mask = item("mask");
  if (mask.is_valid() && !mask.is_none())
    throw error(errc::bad_argument, type_text(obj) + " is masked: argx would ignore the mask");
  nb::handle shape = item("shape"), typestr = item("typestr"), data = item("data"), strides = item("strides");
  if (!shape.is_valid() || !PyTuple_Check(shape.ptr()) || !typestr.is_valid() || !PyUnicode_Check(typestr.ptr()))
    throw error(errc::bad_argument, type_text(obj) + "." + what + " lacks a shape tuple or a typestr");
  if (!data.is_valid() || !PyTuple_Check(data.ptr()) || PyTuple_GET_SIZE(data.ptr()) != 2)
    throw error(errc::bad_argument, type_text(obj) + "." + what + " has no (pointer, read-only) data tuple");

  imported_array a;
  const std::string ts = nb::cast<std::string>(typestr);
  const auto type = dtype_from_typestr(ts, obj);
  if (!type)
    throw error(errc::unsupported_dtype, type_text(obj) + " of dtype '" + ts + "'" + supported_dtypes);
  a.view.type = *type;
  a.view.space = cuda ? memory_space::device : memory_space::host;
  const auto ndim = static_cast<std::int64_t>(PyTuple_GET_SIZE(shape.ptr()));
  check_rank(ndim);
  for (int i = 0; i < ndim; ++i) a.view.extents.push_back(as_int64(PyTuple_GET_ITEM(shape.ptr(), i), "an extent"));
  if (strides.is_valid() && !strides.is_none()) {
    if (!PyTuple_Check(strides.ptr()) || PyTuple_GET_SIZE(strides.ptr()) != ndim)
      throw error(errc::bad_argument, type_text(obj) + "." + what + " has strides that do not match its shape");
    const auto elem = static_cast<std::int64_t>(size_of(*type));
    for (int i = 0; i < ndim; ++i) {
      const std::int64_t bytes = as_int64(PyTuple_GET_ITEM(strides.ptr(), i), "a stride");
      if (bytes % elem != 0)
        throw error(errc::bad_argument, type_text(obj) + " has a stride of " + std::to_string(bytes) +
                                            " bytes, not a multiple of its element size (" + std::to_string(elem) +
                                            "); argx takes strides in elements");
      a.view.strides.push_back(bytes / elem);
    }
  } else {
    a.view.strides = argx::contiguous_strides(a.view.extents);
  }
  a.view.data = reinterpret_cast<const void*>(
      static_cast<std::uintptr_t>(PyLong_AsUnsignedLongLongMask(PyTuple_GET_ITEM(data.ptr(), 0))));
  a.writable = !PyObject_IsTrue(PyTuple_GET_ITEM(data.ptr(), 1));
  if (cuda) {
    // CUDA array interface v3: the producer names the stream its work is on; argx reads the
    // array on that stream (or on the caller's, who then answers for the ordering).
    nb::handle s = item("stream");
    a.stream = streams.explicit_stream ? *streams.explicit_stream
               : (s.is_valid() && !s.is_none()) ? static_cast<std::uintptr_t>(as_int64(s, "stream"))
                                                : 0;
  }
  a.owner = nb::borrow(obj);
  a.protocol = cuda ? "cuda_array_interface" : "array_interface";
  return a;
}

// Which protocols an object offers. Asked of its type once (no bound method is made per
// call); objects whose type has none may carry them as instance attributes.
struct protocols {
  bool dlpack = false, dlpack_device = false, array_interface = false, cuda_array_interface = false;
  bool any() const { return dlpack || array_interface || cuda_array_interface; }
};

bool strides_overflow(const tensor_view& v) {
  const auto limit = std::numeric_limits<std::int64_t>::max() / static_cast<std::int64_t>(size_of(v.type));
  for (int d = 0; d < v.rank(); ++d)
    if (v.extents[d] > 1 && (v.strides[d] > limit || v.strides[d] < -limit)) return true;
  return false;
}

protocols probe(nb::handle o) {
  return {nb::hasattr(o, name().dlpack), nb::hasattr(o, name().dlpack_device), nb::hasattr(o, name().array_interface),
          nb::hasattr(o, name().cuda_array_interface)};
}

protocols protocols_of(nb::handle obj) {
  static auto* by_type = new std::unordered_map<PyTypeObject*, std::pair<nb::object, protocols>>();  // never freed
  PyTypeObject* t = Py_TYPE(obj.ptr());
  auto it = by_type->find(t);
  if (it == by_type->end()) {
    nb::handle type(reinterpret_cast<PyObject*>(t));
    it = by_type->emplace(t, std::make_pair(nb::borrow(type), probe(type))).first;
  }
  return it->second.second.any() ? it->second.second : probe(obj);
}

}  // namespace

imported_array import_array(nb::handle obj, const stream_choice& streams) {
  const protocols p = protocols_of(obj);
  if (p.dlpack) {
    try {
      imported_array a = from_dlpack(obj, p.dlpack_device, streams);
      // CuPy 14 exports a negative stride divided by the element size as an unsigned number
      // (-112 bytes of int16 arrive as 2^63 - 56 elements). No real array has a stride whose
      // byte count overflows 64 bits, so such an export is read again through the CUDA array
      // interface, which carries signed byte strides.
      if (strides_overflow(a.view) && p.cuda_array_interface) return from_interface(obj, true, streams);
      return a;
    } catch (nb::python_error& e) {
      // A producer that refuses DLPack for this array (BufferError; TypeError from older
      // signatures) may still describe it through the array interface.
      if (!e.matches(PyExc_BufferError) && !e.matches(PyExc_TypeError)) throw;
      if (p.array_interface) return from_interface(obj, false, streams);
      if (p.cuda_array_interface) return from_interface(obj, true, streams);
      throw;
    }
  }
  if (p.cuda_array_interface) return from_interface(obj, true, streams);
  if (p.array_interface) return from_interface(obj, false, streams);
  throw error(errc::bad_argument, "the input must be an array with DLPack (__dlpack__) or the array interface; " +
                                      type_text(obj) + " has neither (numpy.asarray makes one)");
}

nb::tuple shape_tuple(const argx::shape& s) {
  nb::object t = nb::steal(PyTuple_New(s.size()));
  for (int i = 0; i < s.size(); ++i) PyTuple_SET_ITEM(t.ptr(), i, PyLong_FromLongLong(s[i]));
  return nb::borrow<nb::tuple>(t);
}

argx::output_view as_output(const imported_array& a, const char* what) {
  if (!a.writable) throw error(errc::bad_output, std::string(what) + " is read-only");
  std::int64_t expected = 1, count = 1;
  bool contiguous = true;
  for (int d = a.view.rank() - 1; d >= 0; --d) {
    count *= a.view.extents[d];
    if (a.view.extents[d] != 1 && a.view.strides[d] != expected) contiguous = false;
    expected *= a.view.extents[d];
  }
  if (!contiguous && count > 0) throw error(errc::bad_output, std::string(what) + " is not C-contiguous");
  return argx::output_view{const_cast<void*>(a.view.data), a.view.type, a.view.extents, a.view.space};
}

}  // namespace argx::python
