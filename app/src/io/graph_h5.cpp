// Graphs in HDF5 (spikeminer format version 1), a group that any spikeminer HDF5 file
// may hold (a co-firing graph beside its recording, or a graph alone):
//   /graph          group; attributes spikeminer_format = "graph",
//                   spikeminer_format_version = 1, vertices (int64)
//   /graph/edges    int64 [m, 2]: one row (u, v) per undirected edge, 0 <= u, v < vertices
// The writer stores each edge once with u < v; the reader drops and counts self loops and
// repeated edges, as for edge lists.
#include "hdf5_isolated.hpp"
#include "hdf5_read.hpp"
#include "hdf5_write.hpp"

#include "spikeminer/app/io/atomic_output.hpp"
#include "spikeminer/app/io/edge_list.hpp"
#include "spikeminer/app/io/input_file.hpp"
#include "spikeminer/core/error.hpp"

#include <hdf5.h>

namespace spikeminer::io {
namespace {

constexpr std::int64_t kVersion = 1;
constexpr std::int64_t kMaxVertices = (std::int64_t{1} << 32) - 1;

// The HDF5 part of reading a graph, checked: the vertex count and the edges' ends, two
// per edge. It runs in a child process (hdf5_isolated.hpp).
void read_graph_table(const std::string& path, detail::Writer& out) {
    const detail::H5Reader file(path);
    if (!file.exists("/graph")) {
        throw Error(path + ": an HDF5 file without a '/graph' group (the spikeminer graph layout)");
    }
    const auto format = file.string_attribute("/graph", "spikeminer_format");
    if (!format || *format != "graph") {
        throw Error(path + ": group '/graph' lacks the attribute spikeminer_format = \"graph\"");
    }
    const auto version = file.integer_attribute("/graph", "spikeminer_format_version");
    if (!version || *version != kVersion) {
        throw Error(path + ": group '/graph' has spikeminer_format_version " +
                    (version ? std::to_string(*version) : std::string("missing")) + "; this program reads version 1");
    }
    const auto vertices = file.integer_attribute("/graph", "vertices");
    if (!vertices || *vertices < 1 || *vertices > kMaxVertices) {
        throw Error(path + ": group '/graph' needs an attribute 'vertices' between 1 and 2^32 - 1" +
                    (vertices ? " (it is " + std::to_string(*vertices) + ")" : std::string()));
    }
    const std::vector<std::int64_t> table = file.read_integer_pairs("/graph/edges");
    std::vector<graph::Vertex> ends(table.size());
    for (std::size_t i = 0; i < table.size(); ++i) {
        if (table[i] < 0 || table[i] >= *vertices) {
            const std::size_t row = i / 2;
            throw Error(file.where("/graph/edges") + ": row " + std::to_string(row) + " (" + std::to_string(table[2 * row]) + ", " +
                        std::to_string(table[2 * row + 1]) + ") names a vertex outside 0.." + std::to_string(*vertices - 1));
        }
        ends[i] = static_cast<graph::Vertex>(table[i]);
    }
    out.value(*vertices);
    out.values(ends);
}

EdgeListGraph read_graph_h5(const std::string& path) {
    std::int64_t vertices = 0;
    std::vector<graph::Vertex> ends;
    detail::run_isolated(
        path, [&](detail::Writer& out) { read_graph_table(path, out); },
        [&](detail::Reader& in) {
            vertices = in.value<std::int64_t>();
            ends = in.values<graph::Vertex>();
        },
        nullptr);
    std::vector<std::pair<graph::Vertex, graph::Vertex>> edges;
    edges.reserve(ends.size() / 2);
    for (std::size_t i = 0; i + 1 < ends.size(); i += 2) edges.emplace_back(ends[i], ends[i + 1]);
    EdgeListGraph result;
    result.graph = graph::Graph::from_edges(static_cast<graph::Vertex>(vertices), edges, &result.cleanup);
    return result;
}

}  // namespace

EdgeListGraph read_graph(const std::string& path) {
    check_input_file(path);
    detail::silence_hdf5_errors();
    if (H5Fis_hdf5(path.c_str()) > 0) return read_graph_h5(path);
    return read_edge_list(path);
}

void write_graph_h5(const std::string& path, const graph::Graph& graph) {
    AtomicOutput output(path);
    {
        detail::H5Writer file(output.temp_path(), path);
        file.create_group("/graph");
        file.set_attribute("/graph", "spikeminer_format", std::string("graph"));
        file.set_attribute("/graph", "spikeminer_format_version", kVersion);
        file.set_attribute("/graph", "vertices", static_cast<std::int64_t>(graph.num_vertices()));
        std::vector<std::int64_t> table;
        table.reserve(2 * graph.num_edges());
        for (graph::Vertex u = 0; u < graph.num_vertices(); ++u) {
            for (const graph::Vertex v : graph.neighbors(u)) {
                if (u < v) {
                    table.push_back(u);
                    table.push_back(v);
                }
            }
        }
        file.write_pairs("/graph/edges", table);
        file.close();
    }
    output.commit();
}

}  // namespace spikeminer::io
