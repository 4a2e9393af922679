#pragma once

#include "spikeminer/graph/graph.hpp"

#include <string>
#include <vector>

namespace spikeminer::io {

/// An undirected graph read from an edge list or an HDF5 graph group, and what was
/// cleaned on the way.
struct EdgeListGraph {
    graph::Graph graph;
    graph::EdgeListCleanup cleanup;
    /// An edge list's vertex ids that its lines name, ascending: the graph numbers its
    /// vertices 0..max id, and the ids between them that no line names are not vertices
    /// of the file. Empty for an HDF5 graph, which declares every vertex.
    std::vector<graph::Vertex> named;
};

/// Reads an edge list: one `u v` per line (any whitespace or commas between; further
/// columns ignored), `#` and `%` comment lines, plain or gzip-compressed. Vertex ids are
/// non-negative integers below 2^32 - 1; the graph has max id + 1 vertices. Self loops and
/// repeated edges are dropped and counted. Throws Error naming the file and line for a
/// non-numeric or out-of-range id, and naming the file for one without edges, and for a
/// largest id past 2^24 and more than 16 times the ids its lines could name, or one whose
/// vertex table would not fit in memory.
EdgeListGraph read_edge_list(const std::string& path);

/// Reads a graph from the project's HDF5 graph group ('/graph', see README) when `path`
/// is an HDF5 file, else as an edge list. Throws Error naming the file and the dataset or
/// line for anything malformed.
EdgeListGraph read_graph(const std::string& path);

/// Writes `graph` as a new HDF5 file holding the graph group, atomically.
void write_graph_h5(const std::string& path, const graph::Graph& graph);

}  // namespace spikeminer::io
