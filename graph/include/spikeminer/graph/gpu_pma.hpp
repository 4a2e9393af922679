#pragma once
// GPMA+ (Sha, Li, He, Tan, VLDB 2017): the packed memory array of cpu_pma.hpp on the GPU,
// updated a whole batch at a time. Only in builds with CUDA (src/cuda/gpu_pma.cu).

#include "spikeminer/graph/dynamic_graph.hpp"

#include <memory>
#include <optional>
#include <span>
#include <vector>

struct CUstream_st;  // cudaStream_t is CUstream_st*

namespace spikeminer::graph {

/// What kernels read: the array with gaps and each vertex's first slot (a CSR with
/// gaps: vertex v's edges are the non-empty slots in [row_start[v], row_start[v+1])).
/// Segments keep their keys at the front, so a reader takes the first counts[s] slots of
/// each segment s and skips the rest without reading it. A compact CSR is the same view
/// with counts == nullptr (no gaps). Trivially copyable; valid until the next update.
/// Device code reads it through gpma_view.cuh (for_each_neighbor, degree).
struct GpmaView {
    const std::uint64_t* keys = nullptr;    ///< (src << 32 | dst), ~0 for an empty slot
    const float* values = nullptr;
    const std::uint64_t* row_start = nullptr;
    Vertex vertices = 0;
    std::uint64_t capacity = 0;
    const std::uint32_t* counts = nullptr;  ///< keys at the front of each segment (nullptr: no gaps)
    std::uint64_t segment = 0;              ///< slots per segment

};

/// The same layout, thresholds and semantics as CpuPma (left-packed leaf segments,
/// PmaDensity, dynamic_graph.hpp's batch rules), kept in device memory on the current
/// CUDA device. A batch is checked, sorted and de-duplicated on the device (CUB); keys
/// already present get their values in place; the new keys are merged into the smallest
/// window around their leaf that stays within its bound (all windows of the batch at
/// once, see gpu_pma.cu), and the whole array is rebuilt at a larger size when the root
/// would pass its upper bound, or in place when the batch is large against the graph.
/// Erasures really remove (no lazy marks: kernels never skip dead keys and degrees stay
/// exact): the slots are emptied, the touched segments re-packed by one warp each, and
/// windows under their lower bound spread the same way (the array halves with the root).
///
/// A batch is queued without reading anything back: its counts stay on the device and
/// every kernel is sized by the batch's length. The host waits only where the array may
/// have to grow or shrink (the exact edge count decides) and, for the calls that return
/// a BatchResult, once at the end.
///
/// The plain calls return when the structure is up to date. The *_async calls queue the
/// batch (in device memory) after the work already queued on `stream` and make that
/// stream's later work wait for it (so kernels queued there read the updated view());
/// synchronize() waits and returns what the batches queued since the last wait did,
/// summed (the plain calls end with it, so their result also counts async batches
/// queued before them). A batch naming a vertex >= num_vertices() changes nothing; the
/// Error of check_edge for it is thrown by the next synchronize(). Not for concurrent use
/// from several host threads (find too).
/// If a batch fails (GpuOutOfMemory while growing), the structure keeps its earlier keys
/// and stays usable; values already overwritten by that batch stay overwritten.
class GpuPma {
public:
    explicit GpuPma(Vertex vertices);
    ~GpuPma();
    GpuPma(const GpuPma&) = delete;
    GpuPma& operator=(const GpuPma&) = delete;

    BatchResult insert_edges(std::span<const EdgeUpdate> batch);
    BatchResult erase_edges(std::span<const EdgeRef> batch);
    BatchResult update_values(std::span<const EdgeUpdate> batch);
    /// The same for batches already in device memory, written by work on the legacy
    /// default stream (such as a cudaMemcpy) or complete before the call.
    BatchResult insert_edges_device(const EdgeUpdate* batch, std::size_t n);
    BatchResult erase_edges_device(const EdgeRef* batch, std::size_t n);
    BatchResult update_values_device(const EdgeUpdate* batch, std::size_t n);

    /// Queued after the work on `stream` (a cudaStream_t; nullptr: the legacy stream).
    void insert_edges_async(const EdgeUpdate* batch, std::size_t n, CUstream_st* stream);
    void erase_edges_async(const EdgeRef* batch, std::size_t n, CUstream_st* stream);
    void update_values_async(const EdgeUpdate* batch, std::size_t n, CUstream_st* stream);
    /// Waits for every queued batch; what the batches since the last wait did.
    BatchResult synchronize();

    [[nodiscard]] std::optional<float> find(Vertex src, Vertex dst) const;
    [[nodiscard]] WeightedCsr to_csr() const;
    /// Brings the vertex starts up to date, so that kernels read the current graph: after
    /// async calls it is queued and the stream of the last batch waits for it (queue the
    /// readers there); after synchronize() or a plain call the host waits for it, and any
    /// stream may read. Readers must be done, or queued on the stream of the next batch,
    /// before the next batch is queued: the structure does not wait for other streams.
    [[nodiscard]] GpmaView view() const;

    [[nodiscard]] Vertex num_vertices() const;
    /// Waits for queued batches.
    [[nodiscard]] std::size_t num_edges() const;
    [[nodiscard]] std::size_t capacity() const;
    [[nodiscard]] std::size_t segment_size() const;
    [[nodiscard]] std::vector<std::uint32_t> segment_counts() const;

private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace spikeminer::graph
