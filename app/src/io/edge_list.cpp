#include "spikeminer/app/io/edge_list.hpp"

#include "edge_fields.hpp"
#include "machine_memory.hpp"
#include "text_lines.hpp"

#include "spikeminer/core/error.hpp"

#include <algorithm>

namespace spikeminer::io {

EdgeListGraph read_edge_list(const std::string& path) {
    detail::TextLines lines(path);
    std::vector<std::pair<graph::Vertex, graph::Vertex>> edges;
    graph::Vertex vertices = 0;
    std::string_view line;
    while (lines.next(line)) {
        if (detail::is_blank_or_comment(line)) continue;
        const std::string where = path + " line " + std::to_string(lines.line_number());
        std::size_t at = 0;
        const std::string_view first = detail::next_field(line, at);
        const std::string_view second = detail::next_field(line, at);
        if (second.empty()) throw Error(where + ": expected two vertex ids, found one");
        const graph::Vertex a = detail::parse_vertex(first, where);
        const graph::Vertex b = detail::parse_vertex(second, where);
        vertices = std::max({vertices, static_cast<graph::Vertex>(a + 1), static_cast<graph::Vertex>(b + 1)});
        edges.emplace_back(a, b);
    }
    if (edges.empty()) throw Error(path + ": holds no edges");
    // The graph numbers its vertices 0..largest id, about 16 bytes each (its offset in the
    // graph, its index when the named ones are searched alone), named or not: a largest id
    // far beyond what the lines could name, or beyond memory, is refused before the tables
    // are allocated.
    constexpr std::size_t kBytesPerVertex = 16;
    const std::string table = std::to_string(vertices) + " vertices (" +
                              std::to_string(static_cast<std::uint64_t>(vertices) * kBytesPerVertex >> 20) + " MiB)";
    if (vertices > (graph::Vertex{1} << 24) && vertices / 16 > 2 * edges.size()) {
        throw Error(path + ": the largest vertex id, " + std::to_string(vertices - 1) + ", is far beyond the " +
                    std::to_string(2 * edges.size()) + " ids at most that its lines name: the graph would hold " + table +
                    ", nearly all unnamed; renumber the ids from 0");
    }
    if (vertices > detail::physical_memory_bytes() / kBytesPerVertex) {
        throw Error(path + ": the largest vertex id, " + std::to_string(vertices - 1) + ", makes a graph of " + table +
                    ", more than this machine's memory (" + std::to_string(detail::physical_memory_bytes() >> 20) +
                    " MiB); renumber the ids from 0");
    }
    EdgeListGraph result;
    std::vector<bool> seen(vertices, false);
    for (const auto& [a, b] : edges) seen[a] = seen[b] = true;
    for (graph::Vertex v = 0; v < vertices; ++v) {
        if (seen[v]) result.named.push_back(v);
    }
    result.graph = graph::Graph::from_edges(vertices, edges, &result.cleanup);
    return result;
}

}  // namespace spikeminer::io
