#pragma once
// GPMA+ (Sha, Li, He, Tan, VLDB 2017): the packed memory array of cpu_pma.hpp on the GPU,
// updated a whole batch at a time. Only in builds with CUDA (src/cuda/gpu_pma.cu).

#include "spikeminer/graph/dynamic_graph.hpp"

#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace spikeminer::graph {

/// What kernels read: the array with gaps and each vertex's first slot (a CSR with
/// gaps: vertex v's edges are the non-empty slots in [row_start[v], row_start[v+1])).
/// Trivially copyable; valid until the next update.
struct GpmaView {
    const std::uint64_t* keys = nullptr;    ///< (src << 32 | dst), ~0 for an empty slot
    const float* values = nullptr;
    const std::uint64_t* row_start = nullptr;
    Vertex vertices = 0;
    std::uint64_t capacity = 0;
};

/// The same layout, thresholds and semantics as CpuPma (left-packed leaf segments,
/// PmaDensity, dynamic_graph.hpp's batch rules), kept in device memory on the current
/// CUDA device. An insert batch is sorted and de-duplicated (CUB), keys already present
/// get their values in place, and the new keys climb the implicit tree level by level
/// from their leaves: every window that can absorb its pending keys within its upper
/// bound merges them (one segmented sort for all such windows of a level) and spreads
/// its keys evenly; the rest move up; the array grows when even the root cannot absorb.
/// Erasures empty their slots, re-pack each segment with one warp, and windows under
/// their lower bound are spread the same way (the array shrinks with the root).
class GpuPma {
public:
    explicit GpuPma(Vertex vertices);
    ~GpuPma();
    GpuPma(const GpuPma&) = delete;
    GpuPma& operator=(const GpuPma&) = delete;

    BatchResult insert_edges(std::span<const EdgeUpdate> batch);
    BatchResult erase_edges(std::span<const EdgeRef> batch);
    BatchResult update_values(std::span<const EdgeUpdate> batch);

    [[nodiscard]] std::optional<float> find(Vertex src, Vertex dst) const;
    [[nodiscard]] WeightedCsr to_csr() const;
    [[nodiscard]] GpmaView view() const;

    [[nodiscard]] Vertex num_vertices() const;
    [[nodiscard]] std::size_t num_edges() const;
    [[nodiscard]] std::size_t capacity() const;
    [[nodiscard]] std::size_t segment_size() const;
    [[nodiscard]] std::vector<std::uint32_t> segment_counts() const;

private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace spikeminer::graph
