// The frontend's one non-inline layer: validate, pick the backend, check memory spaces,
// run. Every check happens before any output is written.
#include <argx/argx.hpp>

#include "common/backend.hpp"

namespace argx {
namespace {

bool is_cpu(backend b) { return b == backend::seq || b == backend::par || b == backend::tbb; }

backend best_cpu_backend() { return detail::tbb_built() ? backend::tbb : backend::par; }

// automatic: device memory goes to cuda; host memory stays on the CPU unless the caller
// allows a transfer and a GPU is usable (present, and argx built for its architecture).
backend resolve(const policy& pol, const tensor_view& x) {
  if (pol.kind != backend::automatic) return pol.kind;
  if (x.space == memory_space::device) return backend::cuda;
  if (pol.allow_transfer && detail::cuda_usable()) return backend::cuda;
  return best_cpu_backend();
}

void require_available(backend b) {
  if (available(b)) return;
  if (b == backend::tbb) throw error(errc::backend_unavailable, "backend tbb: argx was built without oneTBB");
  if (!built_with_cuda())
    throw error(errc::backend_unavailable, "backend " + std::string(name(b)) + ": argx was built without CUDA");
  throw error(errc::backend_unavailable, "backend " + std::string(name(b)) + ": " + detail::cuda_unavailable_reason());
}

// A CPU backend must never dereference device memory: trust neither the declared space
// nor the pointer alone (locate() asks the CUDA driver when argx has CUDA).
void require_host(backend b, memory_space s, const void* ptr, const char* what) {
  if (s != memory_space::host || (ptr && detail::locate(ptr) != memory_space::host))
    throw error(errc::wrong_memory_space, std::string(what) + " is device memory but backend " + std::string(name(b)) +
                                              " runs on the CPU (use argx::cuda or copy it to the host)");
}

}  // namespace

bool available(backend b) {
  switch (b) {
    case backend::seq: case backend::par: case backend::automatic: return true;
    case backend::tbb: return detail::tbb_built();
    case backend::cuda: case backend::thrust: return detail::cuda_usable();
  }
  return false;
}

namespace {

void reduce_into(const policy& pol, op o, const tensor_view& x, const output_view& indices, const output_view* values,
                 const spec& s) {
  const plan p = make_plan(x, o, s);
  check_output(p, indices, s.index == index_type::int64 ? dtype::i64 : dtype::i32, "index");
  if (values) check_output(p, *values, x.type, "values");
  const backend b = resolve(pol, x);
  if (b == backend::automatic) throw error(errc::bad_argument, "policy: automatic did not resolve to a backend");
  if (static_cast<int>(b) > static_cast<int>(backend::automatic))
    throw error(errc::bad_argument, "policy: unknown backend code " + std::to_string(static_cast<int>(b)));
  require_available(b);
  if (is_cpu(b)) {
    require_host(b, x.space, x.data, "input");
    require_host(b, indices.space, indices.data, "index output");
    if (values) require_host(b, values->space, values->data, "values output");
  }
  if (p.kind == shape_class::empty) return;

  const detail::outputs out{indices.data, values ? values->data : nullptr, indices.space,
                            values ? values->space : memory_space::host};
  switch (b) {
    case backend::seq: detail::run_seq(p, out); break;
    case backend::par: detail::run_par(p, out); break;
    case backend::tbb: detail::run_tbb(p, out); break;
    case backend::cuda: detail::run_cuda(p, out, pol.stream); break;
    case backend::thrust: detail::run_thrust(p, out, pol.stream); break;
    case backend::automatic: break;
  }
}

result reduce_to_result(const policy& pol, op o, const tensor_view& x, const spec& s) {
  const plan p = make_plan(x, o, s);  // validates with the caller's index type
  result r;
  r.extents = p.out_extents;
  r.value_type = x.type;
  // The result always holds int64 indices and the values: both sizes must fit first.
  const std::int64_t index_bytes = detail::output_bytes(p.outputs, dtype::i64, "index");
  const std::int64_t value_bytes = detail::output_bytes(p.outputs, x.type, "values");
  try {
    r.indices.resize(static_cast<std::size_t>(p.outputs));
    r.values.resize(static_cast<std::size_t>(value_bytes));
  } catch (const std::exception&) {  // bad_alloc, or length_error beyond the vector's max_size
    throw error(errc::out_of_memory, "result of " + std::to_string(p.outputs) + " elements (" +
                                         std::to_string(index_bytes + value_bytes) + " bytes) does not fit in host memory");
  }
  spec s64 = s;
  s64.index = index_type::int64;
  const output_view iv = make_output(r.indices.data(), p.out_extents);
  const output_view vv = make_output(static_cast<void*>(r.values.data()), x.type, p.out_extents);
  reduce_into(pol, o, x, iv, &vv, s64);  // host outputs: finished on return, whatever the backend
  return r;
}

}  // namespace

// The two public entry points: nothing but argx::error leaves them.
void reduce(const policy& pol, op o, const tensor_view& x, const output_view& indices, const output_view* values,
            const spec& s) {
  detail::with_argx_errors("reduce", [&] { reduce_into(pol, o, x, indices, values, s); });
}

result reduce(const policy& pol, op o, const tensor_view& x, const spec& s) {
  return detail::with_argx_errors("reduce", [&] { return reduce_to_result(pol, o, x, s); });
}

}  // namespace argx
