// WindowEdges against replaying every change from the first window, on random edge
// changes as the pipeline makes them, for several checkpoint spacings.
#include "catch.hpp"

#include "spikeminer/app/pipeline/window_edges.hpp"
#include "spikeminer/core/error.hpp"

#include <map>
#include <random>

using namespace spikeminer;
using pipeline::EdgeChange;
using pipeline::WindowEdge;

namespace {

std::vector<WindowEdge> replayed(const std::vector<EdgeChange>& changes, std::size_t w) {
    std::map<std::pair<NeuronId, NeuronId>, float> graph;
    for (const EdgeChange& c : changes) {
        if (c.window > w) break;
        if (c.kind == EdgeChange::Kind::Erased) graph.erase({c.a, c.b});
        else graph[{c.a, c.b}] = c.weight;
    }
    std::vector<WindowEdge> edges;
    for (const auto& [pair, weight] : graph) edges.push_back({pair.first, pair.second, weight});
    return edges;
}

// Changes as the pipeline makes them: per window, pairs present are erased or re-weighted,
// absent ones inserted; some windows change nothing.
std::vector<EdgeChange> random_changes(std::size_t windows, std::uint32_t seed) {
    std::mt19937 random(seed);  // 32-bit draws
    std::map<std::pair<NeuronId, NeuronId>, bool> present;
    std::vector<EdgeChange> changes;
    for (std::uint32_t w = 0; w < windows; ++w) {
        const int n = static_cast<int>(random() % 6);
        std::map<std::pair<NeuronId, NeuronId>, bool> touched;
        for (int k = 0; k < n; ++k) {
            auto a = static_cast<NeuronId>(random() % 12), b = static_cast<NeuronId>(random() % 12);
            if (a == b || touched.count({std::min(a, b), std::max(a, b)})) continue;
            if (a > b) std::swap(a, b);
            touched[{a, b}] = true;
            const float weight = static_cast<float>(random() % 100) / 10.0f;
            if (!present[{a, b}]) {
                changes.push_back({w, a, b, EdgeChange::Kind::Inserted, weight});
                present[{a, b}] = true;
            } else if (random() % 2 == 0) {
                changes.push_back({w, a, b, EdgeChange::Kind::Erased, 0});
                present[{a, b}] = false;
            } else {
                changes.push_back({w, a, b, EdgeChange::Kind::Updated, weight});
            }
        }
    }
    return changes;
}

}  // namespace

TEST_CASE("window edges: every window's graph equals the changes replayed from the start", "[window-edges]") {
    for (std::uint32_t seed = 1; seed <= 20; ++seed) {
        const std::size_t windows = 1 + seed * 7;
        const std::vector<EdgeChange> changes = random_changes(windows, seed);
        for (const std::size_t every : {1, 3, 32}) {
            const pipeline::WindowEdges edges(changes, windows, every);
            for (std::size_t w = 0; w < windows; ++w) {
                INFO("seed " << seed << ", every " << every << ", window " << w);
                REQUIRE(edges.at(w) == replayed(changes, w));
            }
        }
    }
}

TEST_CASE("window edges: ever holds each pair joined in some window once", "[window-edges]") {
    const std::vector<EdgeChange> changes = {{0, 1, 2, EdgeChange::Kind::Inserted, 1}, {2, 1, 2, EdgeChange::Kind::Erased, 0},
                                             {3, 0, 5, EdgeChange::Kind::Inserted, 2}, {4, 1, 2, EdgeChange::Kind::Inserted, 3}};
    const pipeline::WindowEdges edges(changes, 5, 2);
    CHECK(edges.ever() == std::vector<std::pair<NeuronId, NeuronId>>{{0, 5}, {1, 2}});
    CHECK(edges.at(1) == std::vector<WindowEdge>{{1, 2, 1}});
    CHECK(edges.at(2).empty());
    CHECK(edges.at(4) == std::vector<WindowEdge>{{0, 5, 2}, {1, 2, 3}});
    CHECK_THROWS_AS(edges.at(5), Error);
}

TEST_CASE("window edges: changes out of window order or past the last window are refused", "[window-edges]") {
    const std::vector<EdgeChange> backwards = {{1, 1, 2, EdgeChange::Kind::Inserted, 1}, {0, 2, 3, EdgeChange::Kind::Inserted, 1}};
    CHECK_THROWS_WITH(pipeline::WindowEdges(backwards, 3), test::contains("out of window order"));
    const std::vector<EdgeChange> past = {{3, 1, 2, EdgeChange::Kind::Inserted, 1}};
    CHECK_THROWS_WITH(pipeline::WindowEdges(past, 3), test::contains("window 3 of 3"));
}
