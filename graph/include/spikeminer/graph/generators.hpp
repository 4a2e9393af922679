#pragma once

#include "spikeminer/graph/graph.hpp"

#include <cstdint>
#include <utility>
#include <vector>

namespace spikeminer::graph {

/// Graph500's R-MAT generator: `edges` directed edges over 2^scale vertices, each chosen
/// by descending the adjacency matrix's quadrants with probabilities a = 0.57,
/// b = c = 0.19, d = 0.05; repeats and self loops are kept (a stream). Deterministic in
/// `seed` on every platform (mt19937_64 bits, no library distributions). Without
/// Graph500's noise and vertex relabelling: low ids are the heavy ones.
std::vector<std::pair<Vertex, Vertex>> rmat_edges(unsigned scale, std::size_t edges, std::uint64_t seed);

/// Erdős–Rényi G(n, m) as a stream: `edges` ordered pairs drawn uniformly (with repeats).
std::vector<std::pair<Vertex, Vertex>> erdos_renyi_edges(Vertex vertices, std::size_t edges, std::uint64_t seed);

}  // namespace spikeminer::graph
