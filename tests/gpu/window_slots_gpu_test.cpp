// Window graphs read in batches on the GPU (GpuWindowSlots) against the CPU's reading of
// each graph alone (small_graphs.hpp, itself checked against oracles in graph_tests):
// random graphs over several rounds (so that each slot's batch erases, inserts and
// re-weights), empty slots, partial batches, and the slots the search cannot hold (too
// many vertices with an edge, a clique deeper than its stack, more cliques than its
// buffer), which it must say rather than answer wrongly.
#include "catch.hpp"
#include "brute_force_cliques.hpp"
#include "undirected_edges.hpp"

#include "spikeminer/graph/gpu_window_slots.hpp"

#include <algorithm>
#include <random>

using namespace spikeminer;
using graph::GpuWindowSlots;
using graph::UndirectedEdge;
using graph::Vertex;

namespace {

// A graph whose edges join only vertices of a random subset of `active` of the n vertices.
std::vector<UndirectedEdge> random_window(std::size_t n, std::size_t active, double density, std::uint64_t seed) {
    std::mt19937_64 random(seed);
    std::vector<Vertex> chosen(n);
    for (Vertex v = 0; v < n; ++v) chosen[v] = v;
    std::shuffle(chosen.begin(), chosen.end(), random);
    chosen.resize(active);
    std::vector<test::Edge> edges;
    for (const auto& [i, j] : test::random_graph(active, density, seed)) edges.emplace_back(chosen[i], chosen[j]);
    return test::weighted(edges, seed, 3);
}

// The slots whose cliques the GPU found.
std::size_t check_slots(const GpuWindowSlots& slots, Vertex n, const std::vector<std::vector<UndirectedEdge>>& graphs, std::size_t min_size) {
    const auto readings = slots.read(graphs.size());
    const auto cliques = slots.cliques(graphs.size(), min_size);
    REQUIRE(readings.size() == graphs.size());
    REQUIRE(cliques.size() == graphs.size());
    std::size_t found = 0;
    for (std::size_t i = 0; i < graphs.size(); ++i) {
        INFO("slot " << i << ", " << graphs[i].size() << " edges, min_size " << min_size);
        const graph::SmallGraphReading expected = graph::read_small_graph(n, graphs[i]);
        CHECK(readings[i].components == expected.components);
        CHECK(readings[i].largest_component == expected.largest_component);
        CHECK(readings[i].most_central == expected.most_central);
        const auto expected_cliques = graph::small_graph_cliques(n, graphs[i], min_size);
        if (cliques[i]) {
            CHECK(*cliques[i] == expected_cliques);
            ++found;
        } else {
            // Only a search that does not fit may be left to the CPU.
            std::size_t words = 0;
            std::size_t largest = 0;
            for (const auto& c : expected_cliques) {
                words += 1 + c.size();
                largest = std::max(largest, c.size());
            }
            CHECK((words > GpuWindowSlots::kCliqueWords || largest > GpuWindowSlots::kMostDepth));
        }
    }
    return found;
}

}  // namespace

TEST_CASE("window slots read each graph as the CPU reads it alone, round after round", "[gpu][slots]") {
    const Vertex n = 300;
    GpuWindowSlots slots(n, 48);
    std::mt19937_64 random(5);
    std::size_t read = 0;
    std::size_t found = 0;
    for (int round = 0; round < 6; ++round) {
        // The last round fills only part of the slots.
        const std::size_t count = round == 5 ? 17 : slots.slots();
        std::vector<std::vector<UndirectedEdge>> graphs;
        for (std::size_t i = 0; i < count; ++i) {
            const std::size_t active = i % 7 == 0 ? 0 : 2 + random() % 100;
            const double density = std::vector<double>{0.02, 0.1, 0.3, 0.5}[random() % 4];
            graphs.push_back(active == 0 ? std::vector<UndirectedEdge>{} : random_window(n, active, density, random()));
        }
        std::vector<std::span<const UndirectedEdge>> views(graphs.begin(), graphs.end());
        slots.assign(views);
        INFO("round " << round);
        std::size_t held = 0;
        for (std::size_t i = 0; i < count; ++i) held += graphs[i].size();
        if (count == slots.slots()) CHECK(slots.structure().num_edges() == 2 * held);  // every slot's edges, both ways
        for (const std::size_t min_size : {2U, 3U, 6U}) {
            found += check_slots(slots, n, graphs, min_size);
            read += graphs.size();
        }
    }
    CHECK(found * 10 >= read * 6);  // the densest windows' thousands of cliques aside, the GPU finds them
}

TEST_CASE("window slots leave to the CPU what their search cannot hold, and read the rest", "[gpu][slots]") {
    const Vertex n = 1400;
    GpuWindowSlots slots(n, 4);
    std::vector<std::vector<UndirectedEdge>> graphs(4);
    // 0: a matching of 1,200 vertices (more than kMostActive with an edge).
    for (Vertex v = 0; v < 1200; v += 2) graphs[0].push_back({v, v + 1, 1.0F});
    // 1: a clique of 70 vertices (deeper than the search's stack).
    for (Vertex a = 0; a < 70; ++a) {
        for (Vertex b = a + 1; b < 70; ++b) graphs[1].push_back({a, b, 1.0F});
    }
    // 2: the Moon-Moser graph on 24 vertices (every pair outside the same triple): 3^8
    // maximal cliques of 8, more than a slot's buffer holds.
    for (Vertex a = 0; a < 24; ++a) {
        for (Vertex b = a + 1; b < 24; ++b) {
            if (a / 3 != b / 3) graphs[2].push_back({a, b, 1.0F});
        }
    }
    // 3: the same on 15 vertices (3^5 cliques of 5), which fits.
    for (Vertex a = 0; a < 15; ++a) {
        for (Vertex b = a + 1; b < 15; ++b) {
            if (a / 3 != b / 3) graphs[3].push_back({a + 500, b + 500, 1.0F});
        }
    }
    std::vector<std::span<const UndirectedEdge>> views(graphs.begin(), graphs.end());
    slots.assign(views);
    const auto cliques = slots.cliques(4, 2);
    CHECK(!cliques[0]);
    CHECK(!cliques[1]);
    CHECK(!cliques[2]);
    REQUIRE(cliques[3]);
    CHECK(cliques[3]->size() == 243);
    CHECK(*cliques[3] == graph::small_graph_cliques(n, graphs[3], 2));
    const auto readings = slots.read(4);
    for (std::size_t i = 0; i < 4; ++i) {
        const graph::SmallGraphReading expected = graph::read_small_graph(n, graphs[i]);
        CHECK(readings[i].components == expected.components);
        CHECK(readings[i].largest_component == expected.largest_component);
        CHECK(readings[i].most_central == expected.most_central);
    }
    CHECK(readings[0].components == 600);
}
