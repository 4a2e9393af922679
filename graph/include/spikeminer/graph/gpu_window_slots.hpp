#pragma once
// Many small graphs kept in GPMA+ at once and read in one launch each (small_graphs.hpp):
// slot s of `slots` holds a graph on vertices [0, n) as vertices [s n, (s + 1) n) of one
// GPMA+, so that a batch of window graphs is one GPMA+ batch (the changes of every slot
// since its last graph) and their components, PageRank and maximal cliques are one
// launch each, one warp a slot. Only in builds with CUDA (src/cuda/gpu_window_slots.cu).

#include "spikeminer/graph/gpu_pma.hpp"
#include "spikeminer/graph/small_graphs.hpp"

#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace spikeminer::graph {

class GpuWindowSlots {
public:
    /// The most vertices with an edge in a slot whose cliques the GPU searches (the
    /// others are left to the CPU: see cliques()).
    static constexpr std::size_t kMostActive = 512;
    /// The depth of the search's stack: it holds cliques of up to kMostDepth vertices (a
    /// co-firing window's are tens of neurons at most).
    static constexpr std::size_t kMostDepth = 64;
    /// Words of cliques a slot's search may write (each clique its size, then its vertices).
    static constexpr std::size_t kCliqueWords = 8192;

    /// `slots` graphs on `n` vertices each, on the current device; slots * n below 2^32 - 1.
    /// Throws GpuOutOfMemory when the device cannot hold them.
    GpuWindowSlots(Vertex n, std::size_t slots);
    ~GpuWindowSlots();
    GpuWindowSlots(const GpuWindowSlots&) = delete;
    GpuWindowSlots& operator=(const GpuWindowSlots&) = delete;

    [[nodiscard]] std::size_t slots() const;
    /// Slot i takes graphs[i] (edges a < b below n, sorted, each once), for i < graphs.size()
    /// <= slots(): one GPMA+ batch of erasures, one of inserts and one of values for all.
    void assign(std::span<const std::span<const UndirectedEdge>> graphs);
    /// Components and PageRank of slots [0, count), as read_small_graph gives them.
    [[nodiscard]] std::vector<SmallGraphReading> read(std::size_t count) const;
    /// The maximal cliques of at least `min_size` >= 2 vertices of slots [0, count), as
    /// small_graph_cliques gives them; nullopt for a slot the search did not hold (more
    /// than kMostActive vertices with an edge, a clique of more than kMostDepth, or more than
    /// kCliqueWords words of cliques).
    [[nodiscard]] std::vector<std::optional<std::vector<std::vector<Vertex>>>> cliques(std::size_t count, std::size_t min_size) const;
    /// The GPMA+ that holds them all.
    [[nodiscard]] const GpuPma& structure() const;

private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace spikeminer::graph
