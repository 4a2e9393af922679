#pragma once
// Edge lists as small_graphs.hpp takes them (a < b, sorted, each once), made from test
// graphs.

#include "brute_force_cliques.hpp"

#include "spikeminer/graph/small_graphs.hpp"

#include <algorithm>
#include <random>
#include <vector>

namespace spikeminer::test {

/// Each edge as (lower, higher), sorted, repeats and self loops dropped (the first kept).
inline std::vector<graph::UndirectedEdge> sorted_unique(std::vector<graph::UndirectedEdge> edges) {
    std::erase_if(edges, [](const graph::UndirectedEdge& e) { return e.a == e.b; });
    for (graph::UndirectedEdge& e : edges) {
        if (e.b < e.a) std::swap(e.a, e.b);
    }
    std::stable_sort(edges.begin(), edges.end(),
                     [](const graph::UndirectedEdge& x, const graph::UndirectedEdge& y) { return std::pair(x.a, x.b) < std::pair(y.a, y.b); });
    edges.erase(std::unique(edges.begin(), edges.end(),
                            [](const graph::UndirectedEdge& x, const graph::UndirectedEdge& y) { return x.a == y.a && x.b == y.b; }),
                edges.end());
    return edges;
}

/// The edges with random weights of 0 to `levels` - 1 (fixed seed).
inline std::vector<graph::UndirectedEdge> weighted(const std::vector<Edge>& edges, std::uint64_t seed, unsigned levels = 4) {
    std::mt19937_64 random(seed);
    std::vector<graph::UndirectedEdge> out;
    for (const auto& [u, v] : edges) out.push_back({u, v, static_cast<float>(random() % levels)});
    return sorted_unique(std::move(out));
}

}  // namespace spikeminer::test
