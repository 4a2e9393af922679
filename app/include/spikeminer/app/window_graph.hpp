#pragma once
// The dynamic graph a sliding window keeps (dyngraph's edge streams, the pipeline's
// co-firing windows): one structure on the CPU or the GPU, moved by batches, with the
// analytics read from it in place.

#include "spikeminer/app/sliding_window.hpp"
#include "spikeminer/core/backend.hpp"
#include "spikeminer/graph/analytics.hpp"
#include "spikeminer/graph/cliques.hpp"
#include "spikeminer/graph/dynamic_graph.hpp"

#include <memory>
#include <string>
#include <vector>

namespace spikeminer::app {

/// How the window's graph is kept: a packed memory array (GPMA+ on the GPU, or on the
/// CPU) or ordered adjacency sets (CPU only).
enum class GraphStructure { Pma, Sets };

/// "pma" or "sets"; throws UsageError for another name.
GraphStructure parse_structure(const std::string& name);

/// The edges from which auto keeps a window's graph in GPMA+: below them the CPU updates
/// and reads it sooner than a GPU call returns (a GPU slide costs about 0.1-0.5 ms of
/// launches whatever its size; bench/RESULTS.md).
inline constexpr std::size_t kGpuWindowEdges = 100'000;

/// A window's graph. Its analytics run where the graph is: on the GPU for GPMA+, on the
/// CPU otherwise; the results are the same (PageRank to the order of its sums).
class WindowGraph {
public:
    /// `backend` Cpu or Cuda (as chosen by choose_backend); Sets only on the CPU. On the
    /// GPU, `devices` names the GPU (one) or the GPUs that share GPMA+ by source vertex
    /// (several; cut at the first batch, and read through a host copy). Throws
    /// GpuOutOfMemory when the GPU cannot hold an empty structure.
    WindowGraph(graph::Vertex vertices, GraphStructure structure, Backend backend, std::vector<int> devices = {});
    ~WindowGraph();
    WindowGraph(WindowGraph&&) noexcept;
    WindowGraph& operator=(WindowGraph&&) noexcept;

    /// Applies one step's batches (erasures, inserts, then values).
    void apply(const WindowBatches& batches);
    [[nodiscard]] std::size_t num_edges() const;
    [[nodiscard]] std::vector<std::uint32_t> bfs_levels(graph::Vertex root) const;
    [[nodiscard]] std::vector<graph::Vertex> components() const;
    [[nodiscard]] graph::PageRankResult pagerank() const;
    /// A compact copy, on the host.
    [[nodiscard]] graph::WeightedCsr to_csr() const;
    /// The maximal cliques (graph/cliques.hpp) of the graph, which must hold both directions
    /// of every edge: on the GPU, GPMA+'s graph reaches the search through a compact CSR
    /// made on the device; on the CPU, through a host copy.
    graph::CliqueSummary maximal_cliques(const graph::CliqueOptions& options, const graph::CliqueSink& sink) const;
    /// "GPMA+ on the GPU", "packed memory array on the CPU" or "adjacency sets on the CPU".
    [[nodiscard]] std::string describe() const;

    struct Structure;

private:
    std::unique_ptr<Structure> structure_;
};

}  // namespace spikeminer::app
