#pragma once
// The GPU-rebuild baseline of GPMA (Sha et al.): what a static GPU graph structure forces
// on a changing graph. Only in builds with CUDA (src/cuda/gpu_rebuild.cu).

#include "spikeminer/graph/dynamic_graph.hpp"
#include "spikeminer/graph/gpu_pma.hpp"

#include <memory>
#include <span>

namespace spikeminer::graph {

/// The edges as one sorted array of keys with values and a row index (a compact CSR on
/// the device), rebuilt after every insert or erase batch by sorting the whole edge list
/// with the batch appended (CUB radix sort) and deriving the row starts again. Same batch
/// semantics as the other dynamic graphs (dynamic_graph.hpp). Its view() is a CSR without
/// gaps, which the GPU analytics read with the same kernels as GPMA+'s view: the
/// benchmark's "compact CSR" side.
class GpuRebuildCsr {
public:
    explicit GpuRebuildCsr(Vertex vertices);
    ~GpuRebuildCsr();
    GpuRebuildCsr(const GpuRebuildCsr&) = delete;
    GpuRebuildCsr& operator=(const GpuRebuildCsr&) = delete;

    BatchResult insert_edges(std::span<const EdgeUpdate> batch);
    BatchResult erase_edges(std::span<const EdgeRef> batch);
    BatchResult update_values(std::span<const EdgeUpdate> batch);
    /// Batches already in device memory.
    BatchResult insert_edges_device(const EdgeUpdate* batch, std::size_t n);
    BatchResult erase_edges_device(const EdgeRef* batch, std::size_t n);
    BatchResult update_values_device(const EdgeUpdate* batch, std::size_t n);

    [[nodiscard]] WeightedCsr to_csr() const;
    [[nodiscard]] GpmaView view() const;
    [[nodiscard]] Vertex num_vertices() const;
    [[nodiscard]] std::size_t num_edges() const;

private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace spikeminer::graph
