// Maximal cliques handed over in batches (list_maximal_cliques): every clique in exactly
// one batch, sorted, the batches well formed, the same cliques as the per-clique sink and
// the oracle; the batches arrive from several threads at once; a failing batch sink's
// error comes out and no batch is delivered after it.
#include "brute_force_cliques.hpp"
#include "catch.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/graph/cliques.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <vector>

using namespace spikeminer;
using graph::CliqueBatch;
using graph::CliqueOptions;
using graph::Vertex;
using test::CliqueSet;

namespace {

graph::Graph build(std::size_t vertices, const std::vector<test::Edge>& edges) {
    std::vector<std::pair<Vertex, Vertex>> pairs(edges.begin(), edges.end());
    return graph::Graph::from_edges(static_cast<Vertex>(vertices), pairs);
}

// The batch's cliques, after checking its shape: offsets from 0, rising, ending at the
// vertices' end; each clique sorted strictly.
std::vector<std::vector<Vertex>> unpack(const CliqueBatch& batch) {
    REQUIRE(batch.offsets.size() >= 2);
    REQUIRE(batch.offsets.front() == 0);
    REQUIRE(batch.offsets.back() == batch.vertices.size());
    std::vector<std::vector<Vertex>> out;
    for (std::size_t i = 0; i < batch.size(); ++i) {
        REQUIRE(batch.offsets[i] < batch.offsets[i + 1]);
        const auto clique = batch[i];
        REQUIRE(std::adjacent_find(clique.begin(), clique.end(), std::greater_equal<>()) == clique.end());
        out.emplace_back(clique.begin(), clique.end());
    }
    return out;
}

}  // namespace

TEST_CASE("clique batches: every clique once, sorted, as the oracle and the per-clique sink give", "[graph][cliques][batches]") {
    const std::size_t n = GENERATE(40, 300, 1500);
    const double density = n == 40 ? 0.4 : (n == 300 ? 0.08 : 0.02);
    const auto edges = test::random_graph(n, density, 5 + n);
    const graph::Graph g = build(n, edges);
    const CliqueSet expected = test::listed_maximal_cliques(n, edges);
    CAPTURE(n, expected.size());
    CliqueOptions options;
    options.threads = 4;
    std::mutex mutex;
    std::vector<std::vector<Vertex>> listed;
    std::size_t batches = 0;
    const graph::CliqueSummary summary = graph::list_maximal_cliques(g, options, [&](const CliqueBatch& batch) {
        const std::lock_guard lock(mutex);  // Catch's assertions (in unpack) are not thread-safe
        auto cliques = unpack(batch);
        ++batches;
        listed.insert(listed.end(), cliques.begin(), cliques.end());
    });
    CHECK(summary.count == expected.size());
    CHECK(listed.size() == expected.size());
    CHECK(CliqueSet(listed.begin(), listed.end()) == expected);
    CHECK(batches >= 1);
    CliqueSet one_by_one;
    graph::enumerate_maximal_cliques(g, options, [&](std::span<const Vertex> c) { one_by_one.emplace(c.begin(), c.end()); });
    CHECK(one_by_one == expected);
}

TEST_CASE("clique batches: delivered from several threads at once", "[graph][cliques][batches][threads]") {
    // The first call waits for a second to begin (the limit only guards against a hang):
    // were the calls serialized, none could.
    const auto edges = test::random_graph(3000, 0.02, 12);
    const graph::Graph g = build(3000, edges);
    CliqueOptions options;
    options.threads = 4;
    std::mutex mutex;
    std::condition_variable arrived;
    int calls = 0;
    bool overlapped = false;
    std::uint64_t cliques = 0;
    const graph::CliqueSummary summary = graph::list_maximal_cliques(g, options, [&](const CliqueBatch& batch) {
        std::unique_lock lock(mutex);
        cliques += batch.size();
        if (++calls == 1) {
            overlapped = arrived.wait_for(lock, std::chrono::seconds(60), [&] { return calls >= 2; });
        } else {
            arrived.notify_all();
        }
    });
    CHECK(cliques == summary.count);
    CHECK(overlapped);
}

TEST_CASE("clique batches: a failing sink's error comes out, and no batch follows it", "[graph][cliques][batches]") {
    const auto edges = test::random_graph(3000, 0.02, 13);
    const graph::Graph g = build(3000, edges);
    CliqueOptions options;
    options.threads = GENERATE(1U, 4U);
    std::atomic<int> calls{0};
    REQUIRE_THROWS_WITH(graph::list_maximal_cliques(g, options,
                                                    [&](const CliqueBatch&) {
                                                        if (calls.fetch_add(1) == 2) throw Error("disk full");
                                                    }),
                        "disk full");
    if (options.threads == 1) CHECK(calls.load() == 3);  // with more, calls already under way may finish
}
