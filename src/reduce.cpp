// The frontend: argx::reduce, the one non-inline layer above the backends. It builds the
// plan once, checks the outputs against it, resolves the policy to a backend entry, checks
// memory spaces, and runs the backend. Every check happens before any output is written.
#include <argx/argx.hpp>

#include "../backends/common/backend.hpp"

namespace argx {
namespace {

// automatic: device memory goes to cuda; host memory stays on the CPU unless the caller
// allows a transfer and a GPU is usable (present, and argx built for its architecture).
backend resolve(const policy& pol, const tensor_view& x) {
  if (pol.kind != backend::automatic) return pol.kind;
  if (x.space == memory_space::device) return backend::cuda;
  if (pol.allow_transfer && detail::cuda_entry.usable()) return backend::cuda;
  return detail::tbb_entry.usable() ? backend::tbb : backend::par;
}

const detail::backend_entry& usable_entry(backend b) {
  const detail::backend_entry* e = detail::find_entry(b);
  if (b == backend::automatic) throw error(errc::bad_argument, "policy: automatic did not resolve to a backend");
  if (!e) throw error(errc::bad_argument, "policy: unknown backend code " + std::to_string(static_cast<int>(b)));
  if (!e->usable()) throw error(errc::backend_unavailable, "backend " + std::string(name(b)) + ": " + e->unusable_reason());
  return *e;
}

// A CPU backend must never dereference device memory: trust neither the declared space
// nor the pointer alone (locate() asks the CUDA driver when argx has CUDA).
void require_host(backend b, memory_space s, const void* ptr, const char* what) {
  if (s != memory_space::host || (ptr && locate(ptr) != memory_space::host))
    throw error(errc::wrong_memory_space, std::string(what) + " is device memory but backend " + std::string(name(b)) +
                                              " runs on the CPU (use argx::cuda or copy it to the host)");
}

// Runs plan p (built from x) into the outputs, after checking them against it.
void run_plan(const policy& pol, const detail::plan& p, const tensor_view& x, const output_view& indices,
              const output_view* values) {
  detail::check_output(p, indices, p.index == index_type::int64 ? dtype::i64 : dtype::i32, "index");
  if (values) detail::check_output(p, *values, x.type, "values");
  const backend b = resolve(pol, x);
  const detail::backend_entry& e = usable_entry(b);
  if (e.host_only) {
    require_host(b, x.space, x.data, "input");
    require_host(b, indices.space, indices.data, "index output");
    if (values) require_host(b, values->space, values->data, "values output");
  }
  if (p.kind == detail::shape_class::empty) return;
  const detail::outputs out{indices.data, values ? values->data : nullptr, indices.space,
                            values ? values->space : memory_space::host};
  e.run(p, out, pol.stream);
}

result reduce_to_result(const policy& pol, op o, const tensor_view& x, const spec& s) {
  detail::plan p = detail::make_plan(x, o, s);  // validates with the caller's index type
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
  p.index = index_type::int64;
  const output_view iv = make_output(r.indices.data(), p.out_extents);
  const output_view vv = make_output(static_cast<void*>(r.values.data()), x.type, p.out_extents);
  run_plan(pol, p, x, iv, &vv);  // host outputs: finished on return, whatever the backend
  return r;
}

}  // namespace

bool available(backend b) {
  if (b == backend::automatic) return true;
  const detail::backend_entry* e = detail::find_entry(b);
  return e && e->usable();
}

// The two public entry points: nothing but argx::error leaves them.
void reduce(const policy& pol, op o, const tensor_view& x, const output_view& indices, const output_view* values,
            const spec& s) {
  detail::with_argx_errors("reduce", [&] { run_plan(pol, detail::make_plan(x, o, s), x, indices, values); });
}

result reduce(const policy& pol, op o, const tensor_view& x, const spec& s) {
  return detail::with_argx_errors("reduce", [&] { return reduce_to_result(pol, o, x, s); });
}

}  // namespace argx
