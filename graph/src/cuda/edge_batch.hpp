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

/// What a batch's preparation found, in device memory: the first position naming a
/// vertex out of range (~0 when none) and that update's ids, and the number of unique
/// keys, which is 0 when a position was bad (so that whatever is queued after the batch
/// changes nothing).
struct BatchCounts {
    unsigned long long first_bad;
    unsigned long long unique;
    Vertex bad_src, bad_dst;
};

/// Sorted unique keys (src << 32 | dst) and their values (0 for EdgeRef batches), in the
/// arena; how many only on the device (counts->unique, at most `bound`).
struct SortedBatch {
    std::uint64_t* keys = nullptr;
    float* values = nullptr;
    std::size_t bound = 0;  ///< the batch's slots
    BatchCounts* counts = nullptr;
    [[nodiscard]] const unsigned long long* n() const { return &counts->unique; }
};

/// `edges` (n slots) is in device memory; with `updates` (device memory), only the first
/// *updates are updates and the rest is ignored (a batch padded to a fixed size). Queued
/// on the stream; nothing is read back (read_unique or the caller's own read-back
/// reports a bad id). Throws check_batch_size's Error.
template <typename Edge>
SortedBatch sorted_unique_batch(const Edge* edges, std::size_t n, const unsigned long long* updates, Vertex vertices,
                                spikeminer::detail::DeviceArena& arena, cudaStream_t stream);

/// Waits for the stream; the batch's unique keys, or the Error of check_edge for its
/// first update naming a vertex >= `vertices`.
std::size_t read_unique(const SortedBatch& batch, Vertex vertices, cudaStream_t stream);

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
