#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace spikeminer::graph {

using Vertex = std::uint32_t;

/// What building a graph from an edge list removed.
struct EdgeListCleanup {
    std::size_t self_loops = 0;
    std::size_t duplicates = 0;  ///< repeated edges, in either direction
};

/// Throws Error when src or dst is not below `vertices`.
void check_edge(Vertex src, Vertex dst, Vertex vertices);
/// Throws Error when a dynamic graph is declared with 2^32 - 1 vertices (that id marks
/// an empty slot's key half).
void check_vertex_count(Vertex vertices);

/// An undirected simple graph in compressed sparse rows: each vertex's neighbours sorted.
class Graph {
public:
    Graph() = default;

    /// Builds from undirected edges over vertices 0..vertices-1, dropping self loops and
    /// repeated edges (counted in `cleanup` when given). Throws Error for an endpoint out of range.
    static Graph from_edges(Vertex vertices, std::span<const std::pair<Vertex, Vertex>> edges,
                            EdgeListCleanup* cleanup = nullptr);

    [[nodiscard]] Vertex num_vertices() const { return static_cast<Vertex>(offsets_.empty() ? 0 : offsets_.size() - 1); }
    [[nodiscard]] std::size_t num_edges() const { return neighbors_.size() / 2; }
    [[nodiscard]] std::span<const Vertex> neighbors(Vertex v) const {
        return {neighbors_.data() + offsets_[v], static_cast<std::size_t>(offsets_[v + 1] - offsets_[v])};
    }
    [[nodiscard]] std::size_t degree(Vertex v) const { return static_cast<std::size_t>(offsets_[v + 1] - offsets_[v]); }
    /// Where each vertex's list starts in the lists laid end to end (n + 1 entries).
    [[nodiscard]] std::span<const std::uint64_t> offsets() const { return offsets_; }
    [[nodiscard]] bool adjacent(Vertex a, Vertex b) const;

private:
    std::vector<std::uint64_t> offsets_;
    std::vector<Vertex> neighbors_;
};

/// A degeneracy ordering by core peeling (Batagelj–Zaversnik): vertices leave in order of
/// their core number, so every vertex has at most `degeneracy` neighbours after it, the
/// degeneracy being the largest k with a non-empty k-core (what the clique search needs;
/// within a core level the order is not by remaining degree). Position of each vertex in
/// the order, and the degeneracy.
struct DegeneracyOrder {
    std::vector<Vertex> order;     ///< vertices in removal order
    std::vector<Vertex> position;  ///< position[v] = index of v in order
    std::size_t degeneracy = 0;
};
DegeneracyOrder degeneracy_order(const Graph& graph);

}  // namespace spikeminer::graph
