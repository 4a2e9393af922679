#pragma once
// Graph analytics on any graph view with num_vertices() and for_each_neighbor(v, f(target,
// value)): a dynamic graph read in place (CPU PMA, adjacency sets) or a compact copy.
// Edges are directed; values are ignored (unweighted analytics). These are the CPU
// references the GPU versions on GPMA+ are checked against.

#include "spikeminer/graph/graph.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

namespace spikeminer::graph {

inline constexpr std::uint32_t kUnreached = ~std::uint32_t{0};

/// Breadth-first search over out-edges: hops from `root` to each vertex, kUnreached
/// where there is no path.
template <typename View>
std::vector<std::uint32_t> bfs_levels(const View& graph, Vertex root) {
    std::vector<std::uint32_t> level(graph.num_vertices(), kUnreached);
    if (root >= graph.num_vertices()) return level;
    std::vector<Vertex> frontier{root};
    level[root] = 0;
    for (std::uint32_t depth = 1; !frontier.empty(); ++depth) {
        std::vector<Vertex> next;
        for (const Vertex v : frontier) {
            graph.for_each_neighbor(v, [&](Vertex t, float) {
                if (level[t] == kUnreached) {
                    level[t] = depth;
                    next.push_back(t);
                }
            });
        }
        frontier.swap(next);
    }
    return level;
}

/// Connected components of the undirected view (an edge in either direction joins its
/// ends): each vertex labelled with the smallest vertex id of its component.
template <typename View>
std::vector<Vertex> connected_components(const View& graph) {
    std::vector<Vertex> parent(graph.num_vertices());
    std::iota(parent.begin(), parent.end(), Vertex{0});
    const auto root = [&parent](Vertex v) {
        while (parent[v] != v) v = parent[v] = parent[parent[v]];
        return v;
    };
    for (Vertex v = 0; v < graph.num_vertices(); ++v) {
        graph.for_each_neighbor(v, [&](Vertex t, float) {
            const Vertex a = root(v);
            const Vertex b = root(t);
            if (a != b) parent[std::max(a, b)] = std::min(a, b);  // the smaller id stays the root
        });
    }
    std::vector<Vertex> label(graph.num_vertices());
    for (Vertex v = 0; v < graph.num_vertices(); ++v) label[v] = root(v);
    return label;
}

struct PageRankOptions {
    double damping = 0.85;
    double tolerance = 1e-3;     ///< stop when the 1-norm of the change falls below this
    unsigned max_iterations = 100;
    unsigned fixed_iterations = 0;  ///< > 0: run exactly this many (benchmarks)
};

struct PageRankResult {
    std::vector<double> rank;  ///< sums to 1
    unsigned iterations = 0;
};

/// PageRank by power iteration over out-edges; a vertex without out-edges spreads its
/// rank evenly over all vertices.
template <typename View>
PageRankResult pagerank(const View& graph, const PageRankOptions& options = {}) {
    const Vertex n = graph.num_vertices();
    PageRankResult result;
    if (n == 0) return result;
    std::vector<std::uint32_t> out_degree(n, 0);
    for (Vertex v = 0; v < n; ++v) graph.for_each_neighbor(v, [&](Vertex, float) { ++out_degree[v]; });
    result.rank.assign(n, 1.0 / n);
    std::vector<double> next(n);
    const unsigned limit = options.fixed_iterations > 0 ? options.fixed_iterations : options.max_iterations;
    while (result.iterations < limit) {
        double dangling = 0;
        for (Vertex v = 0; v < n; ++v) {
            if (out_degree[v] == 0) dangling += result.rank[v];
        }
        std::fill(next.begin(), next.end(), (1.0 - options.damping) / n + options.damping * dangling / n);
        for (Vertex v = 0; v < n; ++v) {
            if (out_degree[v] == 0) continue;
            const double share = options.damping * result.rank[v] / out_degree[v];
            graph.for_each_neighbor(v, [&](Vertex t, float) { next[t] += share; });
        }
        double change = 0;
        for (Vertex v = 0; v < n; ++v) change += std::abs(next[v] - result.rank[v]);
        result.rank.swap(next);
        ++result.iterations;
        if (options.fixed_iterations == 0 && change < options.tolerance) break;
    }
    return result;
}

}  // namespace spikeminer::graph
