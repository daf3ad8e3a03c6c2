// Workspaces: per (device, stream id) for ordinary calls, at most kept_stream_workspaces
// streams a device (least recently used freed first); graph-owned for captured calls.
//
// The freeing rule: a stream's workspace is only ever used by uncaptured launches on that
// stream (captured calls get graph-owned scratch, so no graph can hold a pointer into it).
// Each launch records the workspace's event after itself; a workspace is freed in stream
// order after that event, so never while a launch may still read it, even when its stream
// has been destroyed. Streams are told apart by their id (cudaStreamGetId), which is never
// reused, so a new stream at a destroyed one's address does not inherit work in flight.
#include "workspace.hpp"

#include <algorithm>
#include <map>
#include <mutex>

#include "graph_memory.hpp"
#include "runtime.hpp"

namespace argx::detail::gpu {
namespace {

struct stream_workspace {
  char* base = nullptr;
  std::size_t counters = 0, slots = 0, partials = 0;  // capacities
  cudaEvent_t last_launch = nullptr;                   // recorded after each launch that used it
  unsigned long long last_use = 0;                     // for least-recently-used eviction
  int busy = 0;                                        // leases handed out and not yet done
};

std::size_t grow(std::size_t have, std::size_t need) {
  std::size_t n = std::max<std::size_t>(have, 256);
  while (n < need) n *= 2;
  return n;
}

std::size_t round256(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

// Counters and slots first (zeroed), then partials.
std::size_t zeroed_bytes(std::size_t counters, std::size_t slots) {
  return round256(counters * sizeof(unsigned)) + round256(slots * 8);
}

workspace_ptrs carve(char* base, std::size_t counters, std::size_t slots) {
  const std::size_t cbytes = round256(counters * sizeof(unsigned)), sbytes = round256(slots * 8);
  return workspace_ptrs{reinterpret_cast<unsigned*>(base), reinterpret_cast<unsigned long long*>(base + cbytes),
                        base + cbytes + sbytes};
}

std::mutex table_mutex;
std::map<std::pair<int, unsigned long long>, stream_workspace> table;
unsigned long long use_clock = 0;

// Frees w after its last launch, without waiting here: in order on argx's own stream.
void release(int device, stream_workspace& w) noexcept {
  if (pools_supported(device)) {
    cudaStream_t s = private_stream(device);
    if (w.last_launch) cudaStreamWaitEvent(s, w.last_launch, 0);
    cudaFreeAsync(w.base, s);
  } else {
    if (w.last_launch) cudaEventSynchronize(w.last_launch);
    relaxed_capture_mode relaxed;
    cudaFree(w.base);
  }
  if (w.last_launch) cudaEventDestroy(w.last_launch);
  cudaGetLastError();
  w = stream_workspace{};
}

// With the table locked: room for one more stream of `device`.
void evict_beyond_limit(int device) {
  std::size_t held = 0;
  auto oldest = table.end();
  for (auto it = table.begin(); it != table.end(); ++it) {
    if (it->first.first != device) continue;
    ++held;
    if (it->second.busy == 0 && (oldest == table.end() || it->second.last_use < oldest->second.last_use)) oldest = it;
  }
  if (held < kept_stream_workspaces || oldest == table.end()) return;
  release(device, oldest->second);
  table.erase(oldest);
}

}  // namespace

workspace_lease workspace(int device, cudaStream_t stream, cudaGraph_t graph, std::size_t counters, std::size_t slots,
                          std::size_t partials) {
  if (graph != nullptr) {
    const std::size_t zeroed = zeroed_bytes(counters, slots);
    char* base = static_cast<char*>(graph_alloc(graph, zeroed + partials * partial_bytes, true, "allocating graph scratch"));
    return workspace_lease{carve(base, counters, slots), {-1, 0}};
  }
  unsigned long long id = 0;
  check(cudaStreamGetId(stream, &id), "identifying the stream");
  const std::pair<int, unsigned long long> key{device, id};
  std::lock_guard<std::mutex> lock(table_mutex);
  auto found = table.find(key);
  if (found == table.end()) {
    evict_beyond_limit(device);
    found = table.emplace(key, stream_workspace{}).first;
  }
  stream_workspace& w = found->second;
  if (w.last_launch == nullptr)
    check(cudaEventCreateWithFlags(&w.last_launch, cudaEventDisableTiming), "creating a workspace event");
  if (w.base == nullptr || counters > w.counters || slots > w.slots || partials > w.partials) {
    const std::size_t c = grow(w.counters, counters), s = grow(w.slots, slots), p = grow(w.partials, partials);
    // Zeroed once here; every kernel leaves counters and slots zero.
    const std::size_t zeroed = zeroed_bytes(c, s);
    char* base = static_cast<char*>(device_alloc(zeroed + p * partial_bytes, stream, "allocating the workspace"));
    const cudaError_t e = cudaMemsetAsync(base, 0, zeroed, stream);
    if (e != cudaSuccess) {
      device_free(base, stream);
      check(e, "clearing the workspace counters");
    }
    device_free(w.base, stream);  // after the launches already queued on this stream
    w.base = base;
    w.counters = c;
    w.slots = s;
    w.partials = p;
  }
  w.last_use = ++use_clock;
  ++w.busy;
  return workspace_lease{carve(w.base, w.counters, w.slots), key};
}

void workspace_done(const workspace_lease& lease, cudaStream_t stream) {
  if (lease.key.first < 0) return;
  std::lock_guard<std::mutex> lock(table_mutex);
  auto it = table.find(lease.key);
  if (it == table.end()) return;
  --it->second.busy;
  check(cudaEventRecord(it->second.last_launch, stream), "recording the workspace's last use");
}

std::size_t stream_workspaces(int device) {
  std::lock_guard<std::mutex> lock(table_mutex);
  return static_cast<std::size_t>(
      std::count_if(table.begin(), table.end(), [&](const auto& e) { return e.first.first == device; }));
}

}  // namespace argx::detail::gpu
