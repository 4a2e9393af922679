// The readings of small graphs (small_graphs.hpp) against oracles: components counted by
// a search written here, PageRank's most central vertex from the ranks of the CPU PMA (the
// structure the pipeline read before), the maximal cliques by brute force, and the edge
// changes between two graphs applied to a map model.
#include "catch.hpp"
#include "brute_force_cliques.hpp"
#include "undirected_edges.hpp"

#include "spikeminer/graph/analytics.hpp"
#include "spikeminer/graph/cpu_pma.hpp"
#include "spikeminer/graph/small_graphs.hpp"

#include <algorithm>
#include <map>
#include <random>

using namespace spikeminer;
using graph::UndirectedEdge;
using graph::Vertex;

namespace {

// Components of two or more vertices and the largest, by a depth-first search.
std::pair<std::size_t, std::size_t> components_by_search(std::size_t n, const std::vector<UndirectedEdge>& edges) {
    std::vector<std::vector<Vertex>> next(n);
    for (const UndirectedEdge& e : edges) {
        next[e.a].push_back(e.b);
        next[e.b].push_back(e.a);
    }
    std::vector<bool> seen(n, false);
    std::size_t count = 0;
    std::size_t largest = 0;
    for (Vertex s = 0; s < n; ++s) {
        if (seen[s]) continue;
        std::vector<Vertex> stack{s};
        seen[s] = true;
        std::size_t size = 0;
        while (!stack.empty()) {
            const Vertex v = stack.back();
            stack.pop_back();
            ++size;
            for (const Vertex t : next[v]) {
                if (!seen[t]) {
                    seen[t] = true;
                    stack.push_back(t);
                }
            }
        }
        if (size >= 2) {
            ++count;
            largest = std::max(largest, size);
        }
    }
    return {count, largest};
}

}  // namespace

TEST_CASE("small graphs: components, the most central vertex and the cliques against oracles", "[graph][small]") {
    for (const std::size_t n : {1U, 2U, 7U, 18U, 40U}) {
        for (const double density : {0.0, 0.05, 0.2, 0.6}) {
            for (std::uint64_t seed = 1; seed <= 3; ++seed) {
                INFO("n " << n << ", density " << density << ", seed " << seed);
                const std::vector<test::Edge> raw = test::random_graph(n, density, seed);
                const std::vector<UndirectedEdge> edges = test::weighted(raw, seed);
                const graph::SmallGraphReading reading = graph::read_small_graph(static_cast<Vertex>(n), edges);
                const auto [count, largest] = components_by_search(n, edges);
                CHECK(reading.components == count);
                CHECK(reading.largest_component == largest);
                graph::CpuPma pma(static_cast<Vertex>(n));
                std::vector<graph::EdgeUpdate> both;
                for (const UndirectedEdge& e : edges) {
                    both.push_back({e.a, e.b, e.weight});
                    both.push_back({e.b, e.a, e.weight});
                }
                pma.insert_edges(both);
                if (edges.empty()) {
                    CHECK(!reading.most_central);
                } else {
                    const std::vector<double> rank = graph::pagerank(pma).rank;
                    const double highest = *std::max_element(rank.begin(), rank.end());
                    Vertex expected = 0;
                    while (rank[expected] < highest * (1 - 1e-6)) ++expected;
                    REQUIRE(reading.most_central);
                    CHECK(*reading.most_central == expected);
                }
                for (const std::size_t min_size : {2U, 3U, 5U}) {
                    const auto found = graph::small_graph_cliques(static_cast<Vertex>(n), edges, min_size);
                    CHECK(std::is_sorted(found.begin(), found.end()));
                    const test::CliqueSet expected = n <= 20 ? test::brute_force_maximal_cliques(n, raw, min_size)
                                                             : test::listed_maximal_cliques(n, raw, min_size);
                    CHECK(test::CliqueSet(found.begin(), found.end()) == expected);
                    CHECK(found.size() == expected.size());
                }
            }
        }
    }
}

TEST_CASE("small graphs: the changes between two graphs, applied to the first, give the second", "[graph][small]") {
    std::mt19937_64 random(11);
    for (int round = 0; round < 200; ++round) {
        const auto n = static_cast<std::size_t>(2 + random() % 12);
        const std::vector<UndirectedEdge> before = test::weighted(test::random_graph(n, 0.4, random()), random());
        const std::vector<UndirectedEdge> after = test::weighted(test::random_graph(n, 0.4, random()), random());
        std::map<std::pair<Vertex, Vertex>, float> model;
        for (const UndirectedEdge& e : before) model[{e.a, e.b}] = e.weight;
        std::vector<std::pair<Vertex, Vertex>> order;
        graph::edge_changes(
            before, after,
            [&](const UndirectedEdge& e) {
                REQUIRE(model.erase({e.a, e.b}) == 1);
                order.emplace_back(e.a, e.b);
            },
            [&](const UndirectedEdge& e) {
                REQUIRE(model.emplace(std::pair(e.a, e.b), e.weight).second);
                order.emplace_back(e.a, e.b);
            },
            [&](const UndirectedEdge& e) {
                REQUIRE(model.contains({e.a, e.b}));
                REQUIRE(model[{e.a, e.b}] != e.weight);
                model[{e.a, e.b}] = e.weight;
                order.emplace_back(e.a, e.b);
            });
        std::map<std::pair<Vertex, Vertex>, float> expected;
        for (const UndirectedEdge& e : after) expected[{e.a, e.b}] = e.weight;
        CHECK(model == expected);
        CHECK(std::is_sorted(order.begin(), order.end()));
        CHECK(std::adjacent_find(order.begin(), order.end()) == order.end());
    }
}
