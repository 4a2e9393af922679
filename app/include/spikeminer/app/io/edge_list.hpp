#pragma once

#include "spikeminer/graph/graph.hpp"

#include <string>

namespace spikeminer::io {

/// An undirected graph read from an edge list, and what was cleaned on the way.
struct EdgeListGraph {
    graph::Graph graph;
    graph::EdgeListCleanup cleanup;
    std::size_t lines = 0;  ///< edge lines read
};

/// Reads an edge list: one `u v` per line (any whitespace or commas between; further
/// columns ignored), `#` and `%` comment lines, plain or gzip-compressed. Vertex ids are
/// non-negative integers below 2^32 - 1; the graph has max id + 1 vertices. Self loops and
/// repeated edges are dropped and counted. Throws Error naming the file and line for a
/// non-numeric or out-of-range id, and for a file without edges.
EdgeListGraph read_edge_list(const std::string& path);

}  // namespace spikeminer::io
