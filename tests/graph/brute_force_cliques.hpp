#pragma once
// Oracles for maximal cliques and degeneracy written from the definitions, independent of
// spikeminer::graph (they take the raw edge list, not a Graph): a maximal clique is a set
// of pairwise adjacent vertices that no single outside vertex is adjacent to all of.

#include "spikeminer/graph/graph.hpp"

#include <cstddef>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

namespace spikeminer::test {

using Edge = std::pair<graph::Vertex, graph::Vertex>;
using CliqueSet = std::set<std::vector<graph::Vertex>>;

/// Every maximal clique of at least `min_size` vertices, as sorted vertex lists, by trying
/// every subset of the vertices (a bitmask each). At most 20 vertices. Self loops and
/// repeated edges in `edges` are harmless.
CliqueSet brute_force_maximal_cliques(std::size_t vertices, const std::vector<Edge>& edges, std::size_t min_size = 1);

/// The same by listing every clique once (depth first, each extended only by larger
/// vertices adjacent to all its members) and keeping those that no vertex at all extends.
/// Any number of vertices; the time grows with the number of cliques (not only maximal).
CliqueSet listed_maximal_cliques(std::size_t vertices, const std::vector<Edge>& edges, std::size_t min_size = 1);

/// The degeneracy by the naive O(n^2) peeling: repeatedly remove a vertex of least
/// remaining degree; the largest degree met at removal.
std::size_t naive_degeneracy(std::size_t vertices, const std::vector<Edge>& edges);

/// The cliques of `all` with at least `min_size` vertices.
CliqueSet at_least(const CliqueSet& all, std::size_t min_size);

/// A random simple graph: each pair an edge with probability `density` (fixed seed).
std::vector<Edge> random_graph(std::size_t vertices, double density, std::uint64_t seed);

/// The edges of the graph on `vertices` vertices whose pairs (i < j, in the order
/// (0,1), (0,2), ..., (1,2), ...) are chosen by the bits of `mask`.
std::vector<Edge> graph_from_mask(std::size_t vertices, std::uint64_t mask);

}  // namespace spikeminer::test
