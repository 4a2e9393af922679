#include "spikeminer/graph/graph.hpp"

#include "spikeminer/core/error.hpp"

#include <algorithm>

namespace spikeminer::graph {

Graph Graph::from_edges(Vertex vertices, std::span<const std::pair<Vertex, Vertex>> edges, EdgeListCleanup* cleanup) {
    std::vector<std::pair<Vertex, Vertex>> both;
    both.reserve(edges.size() * 2);
    std::size_t loops = 0;
    for (const auto& [a, b] : edges) {
        check_edge(a, b, vertices);
        if (a == b) {
            ++loops;
            continue;
        }
        both.emplace_back(a, b);
        both.emplace_back(b, a);
    }
    std::sort(both.begin(), both.end());
    const std::size_t before = both.size();
    both.erase(std::unique(both.begin(), both.end()), both.end());
    if (cleanup != nullptr) *cleanup = EdgeListCleanup{loops, (before - both.size()) / 2};
    Graph graph;
    graph.offsets_.assign(static_cast<std::size_t>(vertices) + 1, 0);
    for (const auto& edge : both) ++graph.offsets_[edge.first + 1];
    for (std::size_t v = 0; v < vertices; ++v) graph.offsets_[v + 1] += graph.offsets_[v];
    graph.neighbors_.reserve(both.size());
    for (const auto& edge : both) graph.neighbors_.push_back(edge.second);
    return graph;
}

void check_edge(Vertex src, Vertex dst, Vertex vertices) {
    if (src >= vertices || dst >= vertices) {
        throw Error("edge (" + std::to_string(src) + ", " + std::to_string(dst) + ") names a vertex beyond the " +
                    std::to_string(vertices) + " declared");
    }
}

void check_vertex_count(Vertex vertices) {
    if (vertices == ~Vertex{0}) throw Error("a dynamic graph holds at most 2^32 - 2 vertices");
}

bool Graph::adjacent(Vertex a, Vertex b) const {
    const auto list = neighbors(a);
    return std::binary_search(list.begin(), list.end(), b);
}

DegeneracyOrder degeneracy_order(const Graph& graph) {
    const Vertex n = graph.num_vertices();
    DegeneracyOrder result;
    result.order.reserve(n);
    result.position.assign(n, 0);
    std::vector<std::size_t> degree(n);
    std::size_t max_degree = 0;
    for (Vertex v = 0; v < n; ++v) max_degree = std::max(max_degree, degree[v] = graph.degree(v));
    // Buckets of vertices by remaining degree, as doubly linked lists in arrays.
    std::vector<std::int64_t> head(max_degree + 1, -1);
    std::vector<std::int64_t> next(n, -1);
    std::vector<std::int64_t> prev(n, -1);
    const auto insert = [&](Vertex v) {
        next[v] = head[degree[v]];
        prev[v] = -1;
        if (head[degree[v]] >= 0) prev[static_cast<std::size_t>(head[degree[v]])] = v;
        head[degree[v]] = v;
    };
    const auto unlink = [&](Vertex v) {
        if (prev[v] >= 0) next[static_cast<std::size_t>(prev[v])] = next[v]; else head[degree[v]] = next[v];
        if (next[v] >= 0) prev[static_cast<std::size_t>(next[v])] = prev[v];
    };
    for (Vertex v = 0; v < n; ++v) insert(v);
    std::vector<bool> removed(n, false);
    std::size_t low = 0;
    for (Vertex i = 0; i < n; ++i) {
        while (head[low] < 0) ++low;
        const auto v = static_cast<Vertex>(head[low]);
        unlink(v);
        removed[v] = true;
        result.degeneracy = std::max(result.degeneracy, degree[v]);
        result.position[v] = i;
        result.order.push_back(v);
        for (const Vertex u : graph.neighbors(v)) {
            if (removed[u]) continue;
            unlink(u);
            --degree[u];
            insert(u);
        }
        if (low > 0) --low;
    }
    return result;
}

}  // namespace spikeminer::graph
