// The scratch of the kernels whose blocks meet in one launch (arrival counters, packed
// candidates, partial candidates), per stream for ordinary calls and per call for calls
// captured into a CUDA graph.
#pragma once

#include <cstddef>
#include <utility>

#include <cuda_runtime_api.h>

#include "kernel_types.hpp"

namespace argx::detail::gpu {

/// Streams of one device whose workspaces argx keeps; using a further stream frees the
/// workspace of the one used least recently (after the work queued on it).
inline constexpr std::size_t kept_stream_workspaces = 16;

/// A workspace handed to one launch; pass it back to workspace_done once the launch is queued.
struct workspace_lease {
  workspace_ptrs ptrs;
  std::pair<int, unsigned long long> key{-1, 0};  ///< (device, stream id); device -1 for graph scratch
};

/// Scratch for one launch on `stream` of the current device `device`: at least `counters`
/// arrival counters and `slots` packed candidates (all zero before the launch, and left
/// zero by every kernel) and `partials` partial candidates.
/// Uncaptured: the stream's workspace, grown in stream order; work on one stream runs in
/// order, so it is never used by two launches at once. Captured (`graph` not null): fresh
/// zeroed memory owned by the graph, so the graph replays without allocating and two
/// argx calls of one graph never share scratch.
workspace_lease workspace(int device, cudaStream_t stream, cudaGraph_t graph, std::size_t counters, std::size_t slots,
                          std::size_t partials);

/// Marks the end of the launch that used `w` (queued on `stream`): its workspace may be
/// freed once that work is done.
void workspace_done(const workspace_lease& w, cudaStream_t stream);

/// Workspaces argx holds for ordinary calls on `device` (for tests).
std::size_t stream_workspaces(int device);

}  // namespace argx::detail::gpu
