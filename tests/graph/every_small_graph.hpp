#pragma once
// Every graph on n vertices at once: their disjoint union, one component per edge set
// (component k holds vertices k*n .. k*n+n-1 and the edges of mask k), so that one
// enumeration (one GPU launch) covers all 2^(n(n-1)/2) graphs. Its maximal cliques are
// those of the components. The oracle works per component from the definition on
// adjacency bitmasks: a vertex subset is a maximal clique when its vertices are pairwise
// adjacent and no vertex outside it is adjacent to all of them.

#include "brute_force_cliques.hpp"

#include "spikeminer/graph/graph.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace spikeminer::test {

/// Per component: how many maximal cliques, and an order-independent digest of them.
struct ComponentCliques {
    std::vector<std::uint64_t> count;
    std::vector<std::uint64_t> digest;

    explicit ComponentCliques(std::size_t components) : count(components, 0), digest(components, 0) {}

    /// Adds a clique given as a vertex subset (bitmask) of component k.
    void add(std::size_t k, std::uint32_t mask) {
        std::uint64_t h = mask * 0x9E3779B97F4A7C15ULL;  // splitmix-style scramble
        h ^= h >> 31;
        h *= 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 29;
        ++count[k];
        digest[k] += h;
    }
};

struct EverySmallGraph {
    std::size_t n = 0;
    std::size_t components = 0;
    graph::Graph graph;
    ComponentCliques expected{0};
};

/// The union of every graph on n vertices (n <= 7) and its expected cliques.
inline EverySmallGraph every_small_graph(std::size_t n) {
    EverySmallGraph family;
    family.n = n;
    family.components = std::size_t{1} << (n * (n - 1) / 2);
    family.expected = ComponentCliques(family.components);
    std::vector<Edge> edges;
    for (std::size_t k = 0; k < family.components; ++k) {
        std::uint32_t adjacent[8] = {};
        for (const auto& [a, b] : graph_from_mask(n, k)) {
            adjacent[a] |= 1U << b;
            adjacent[b] |= 1U << a;
            edges.emplace_back(static_cast<graph::Vertex>(k * n + a), static_cast<graph::Vertex>(k * n + b));
        }
        for (std::uint32_t s = 1; s < (1U << n); ++s) {
            bool clique = true;
            std::uint32_t common = (1U << n) - 1;  // adjacent to every member so far
            for (std::size_t v = 0; v < n; ++v) {
                if ((s >> v) & 1U) {
                    clique = clique && (adjacent[v] | (1U << v) | ~s) == ~0U;
                    common &= adjacent[v];
                }
            }
            if (clique && (common & ~s) == 0) family.expected.add(k, s);
        }
    }
    family.graph = graph::Graph::from_edges(static_cast<graph::Vertex>(family.components * n), edges);
    return family;
}

/// Adds a clique from the enumerator's sink to `got`; false when it spans components.
inline bool add_union_clique(const EverySmallGraph& family, ComponentCliques& got, std::span<const graph::Vertex> clique) {
    const std::size_t k = clique.front() / family.n;
    std::uint32_t mask = 0;
    for (const graph::Vertex v : clique) {
        if (v / family.n != k) return false;
        mask |= 1U << (v % family.n);
    }
    got.add(k, mask);
    return true;
}

}  // namespace spikeminer::test
