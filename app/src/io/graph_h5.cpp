// Graphs in HDF5 (spikeminer format version 1), a group that any spikeminer HDF5 file
// may hold (a co-firing graph beside its recording, or a graph alone):
//   /graph          group; attributes spikeminer_format = "graph",
//                   spikeminer_format_version = 1, vertices (int64)
//   /graph/edges    int64 [m, 2]: one row (u, v) per undirected edge, 0 <= u, v < vertices
// The writer stores each edge once with u < v; the reader drops and counts self loops and
// repeated edges, as for edge lists.
#include "hdf5_read.hpp"
#include "hdf5_write.hpp"

#include "spikeminer/app/io/atomic_output.hpp"
#include "spikeminer/app/io/input_file.hpp"
#include "spikeminer/app/io/edge_list.hpp"
#include "spikeminer/core/error.hpp"

#include <hdf5.h>

namespace spikeminer::io {
namespace {

constexpr std::int64_t kVersion = 1;
constexpr std::int64_t kMaxVertices = (std::int64_t{1} << 32) - 1;

EdgeListGraph read_graph_h5(const std::string& path) {
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
    std::vector<std::pair<graph::Vertex, graph::Vertex>> edges;
    edges.reserve(table.size() / 2);
    for (std::size_t row = 0; row < table.size() / 2; ++row) {
        const std::int64_t u = table[2 * row];
        const std::int64_t v = table[2 * row + 1];
        if (u < 0 || v < 0 || u >= *vertices || v >= *vertices) {
            throw Error(file.where("/graph/edges") + ": row " + std::to_string(row) + " (" + std::to_string(u) + ", " +
                        std::to_string(v) + ") names a vertex outside 0.." + std::to_string(*vertices - 1));
        }
        edges.emplace_back(static_cast<graph::Vertex>(u), static_cast<graph::Vertex>(v));
    }
    EdgeListGraph result;
    result.graph = graph::Graph::from_edges(static_cast<graph::Vertex>(*vertices), edges, &result.cleanup);
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
