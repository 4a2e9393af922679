// A batch of edge updates on the device made ready for a dynamic graph: ids checked,
// keys made, sorted, and the last update of each key kept (dynamic_graph.hpp's rule).
// Shared by GPMA+ and the GPU-rebuild baseline.
#pragma once

#include "device_arena.hpp"

#include "spikeminer/graph/dynamic_graph.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace spikeminer::graph::detail::gpu {

/// Sorted unique keys (src << 32 | dst) and their values (0 for EdgeRef batches), in the
/// arena.
struct SortedBatch {
    std::uint64_t* keys = nullptr;
    float* values = nullptr;
    std::size_t n = 0;
};

/// `edges` is in device memory. Throws the Error of check_edge for the first update
/// naming a vertex >= `vertices` (before anything changes), check_batch_size's Error.
/// Waits for the stream (it reads the counts back).
template <typename Edge>
SortedBatch sorted_unique_batch(const Edge* edges, std::size_t n, Vertex vertices, spikeminer::detail::DeviceArena& arena,
                                cudaStream_t stream);

/// Throws Error for a batch of 2^31 updates or more (CUB's item counts are int).
void check_batch_size(std::size_t n);

/// Copies a host batch into the arena (queued on the stream).
template <typename Edge>
const Edge* upload_batch(const Edge* host, std::size_t n, spikeminer::detail::DeviceArena& arena, cudaStream_t stream) {
    check_batch_size(n);
    Edge* out = arena.take<Edge>(n, "edge batch");
    if (n != 0) SPIKEMINER_CUDA_CHECK(cudaMemcpyAsync(out, host, n * sizeof(Edge), cudaMemcpyHostToDevice, stream));
    return out;
}

}  // namespace spikeminer::graph::detail::gpu
