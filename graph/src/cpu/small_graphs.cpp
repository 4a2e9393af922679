// See small_graphs.hpp.
#include "spikeminer/graph/small_graphs.hpp"

#include "spikeminer/graph/analytics.hpp"
#include "spikeminer/graph/cliques.hpp"

#include <algorithm>

namespace spikeminer::graph {
namespace {

// A Graph as analytics.hpp reads a view: each vertex's neighbours in order, no values.
struct NeighbourView {
    const Graph& graph;
    [[nodiscard]] Vertex num_vertices() const { return graph.num_vertices(); }
    template <typename F>
    void for_each_neighbor(Vertex v, F f) const {
        for (const Vertex t : graph.neighbors(v)) f(t, 0.0F);
    }
};

Graph graph_of(Vertex n, std::span<const UndirectedEdge> edges) {
    std::vector<std::pair<Vertex, Vertex>> pairs;
    pairs.reserve(edges.size());
    for (const UndirectedEdge& e : edges) pairs.emplace_back(e.a, e.b);
    return Graph::from_edges(n, pairs);
}

}  // namespace

Vertex most_central(std::span<const double> rank) {
    const double highest = *std::max_element(rank.begin(), rank.end());
    const auto first = std::find_if(rank.begin(), rank.end(), [&](double r) { return r >= highest * (1 - 1e-6); });
    return static_cast<Vertex>(first - rank.begin());
}

void count_components(std::span<const Vertex> label, SmallGraphReading& reading) {
    std::vector<std::size_t> size(label.size(), 0);
    for (const Vertex l : label) ++size[l];
    reading.components = 0;
    reading.largest_component = 0;
    for (const std::size_t s : size) {
        if (s < 2) continue;
        ++reading.components;
        reading.largest_component = std::max(reading.largest_component, s);
    }
}

SmallGraphReading read_small_graph(Vertex n, std::span<const UndirectedEdge> edges) {
    const Graph graph = graph_of(n, edges);
    const NeighbourView view{graph};
    SmallGraphReading reading;
    count_components(connected_components(view), reading);
    if (!edges.empty()) reading.most_central = most_central(pagerank(view).rank);
    return reading;
}

std::vector<std::vector<Vertex>> small_graph_cliques(Vertex n, std::span<const UndirectedEdge> edges, std::size_t min_size) {
    CliqueOptions options;
    options.min_size = min_size;
    options.backend = Backend::Cpu;
    options.threads = 1;
    std::vector<std::vector<Vertex>> cliques;
    enumerate_maximal_cliques(graph_of(n, edges), options, [&](std::span<const Vertex> c) { cliques.emplace_back(c.begin(), c.end()); });
    std::sort(cliques.begin(), cliques.end());
    return cliques;
}

}  // namespace spikeminer::graph
