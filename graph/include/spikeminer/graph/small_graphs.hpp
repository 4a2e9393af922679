#pragma once
// Many small graphs on the same vertices, read alike: a co-firing window's graph each
// (every neuron, a few hundred edges). What is read from each: its components, the vertex
// of highest PageRank and its maximal cliques, exactly as analytics.hpp and cliques.hpp
// give them for the graph alone. One call per graph is all overhead on the GPU, so it
// reads a batch of them per launch (gpu_window_slots.hpp); the CPU shares a batch out to
// its threads, one graph each.

#include "spikeminer/graph/graph.hpp"

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace spikeminer::graph {

/// An undirected edge, a < b, with its value.
struct UndirectedEdge {
    Vertex a = 0;
    Vertex b = 0;
    float weight = 0;
};

/// What the pipeline reads from a window's graph.
struct SmallGraphReading {
    std::size_t components = 0;          ///< components of two or more vertices
    std::size_t largest_component = 0;   ///< vertices of the largest of those (0: none)
    std::optional<Vertex> most_central;  ///< highest PageRank (none without edges)
};

/// The vertex of highest rank; of those within a millionth of the highest, the lowest id.
/// Members of a clique tie exactly, and backends may add PageRank's shares in different
/// orders (the GPU's atomics in any order), so the last bits alone must not choose.
Vertex most_central(std::span<const double> rank);

/// The components part of a reading from each vertex's component label.
void count_components(std::span<const Vertex> label, SmallGraphReading& reading);

/// Components and PageRank (analytics.hpp's defaults) of the graph of `n` vertices and
/// these edges (a < b, sorted, each once).
SmallGraphReading read_small_graph(Vertex n, std::span<const UndirectedEdge> edges);

/// Its maximal cliques of at least `min_size` vertices (on one thread), each sorted
/// ascending, in lexicographic order.
std::vector<std::vector<Vertex>> small_graph_cliques(Vertex n, std::span<const UndirectedEdge> edges, std::size_t min_size);

/// The changes from `before` to `after` (both sorted by (a, b), each edge once), in (a, b)
/// order: erase(e) for an edge only before, insert(e) for one only after, update(e) for
/// one in both whose weight changed (e as after).
template <typename Erase, typename Insert, typename Update>
void edge_changes(std::span<const UndirectedEdge> before, std::span<const UndirectedEdge> after, Erase erase, Insert insert,
                  Update update) {
    const auto less = [](const UndirectedEdge& x, const UndirectedEdge& y) { return x.a < y.a || (x.a == y.a && x.b < y.b); };
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < before.size() || j < after.size()) {
        if (j == after.size() || (i < before.size() && less(before[i], after[j]))) {
            erase(before[i++]);
        } else if (i == before.size() || less(after[j], before[i])) {
            insert(after[j++]);
        } else {
            if (before[i].weight != after[j].weight) update(after[j]);
            ++i;
            ++j;
        }
    }
}

}  // namespace spikeminer::graph
