// A dynamic graph cut by source into shards (the multi-GPU GPMA+ layout), here CPU PMAs on
// host threads standing in for devices: after every random batch the same graph, counts
// and lookups as one structure; cuts that balance a skewed stream; a bad edge changes no
// shard.
#include "catch.hpp"

#include "spikeminer/core/device_threads.hpp"
#include "spikeminer/core/error.hpp"
#include "spikeminer/graph/cpu_pma.hpp"
#include "spikeminer/graph/generators.hpp"
#include "spikeminer/graph/sharded_graph.hpp"

#include <random>

using namespace spikeminer;
using graph::BatchResult;
using graph::CpuPma;
using graph::EdgeRef;
using graph::EdgeUpdate;
using graph::Vertex;

namespace {

using Sharded = graph::ShardedGraph<CpuPma>;

void check_same(const Sharded& sharded, const CpuPma& one, const std::string& what) {
    INFO(what);
    const graph::WeightedCsr a = sharded.to_csr();
    const graph::WeightedCsr b = one.to_csr();
    REQUIRE(sharded.num_edges() == one.num_edges());
    REQUIRE(a.offsets == b.offsets);
    REQUIRE(a.targets == b.targets);
    REQUIRE(a.values == b.values);
}

bool same(const BatchResult& a, const BatchResult& b) { return a.applied == b.applied && a.ignored == b.ignored; }

}  // namespace

TEST_CASE("sharded graph: the one structure's graph after every random batch, 2 and 3 shards", "[graph][dynamic][devices]") {
    const auto shards = GENERATE(std::size_t{2}, std::size_t{3});
    const unsigned scale = 10;
    const Vertex n = Vertex{1} << scale;
    const auto stream = graph::rmat_edges(scale, 60000, 5);  // skewed: low ids hold most edges
    std::vector<EdgeUpdate> sample;
    for (std::size_t i = 0; i < 5000; ++i) sample.push_back({stream[i].first, stream[i].second, 1.0F});
    Sharded sharded(n, std::vector<int>(shards, kNoDevice), graph::balanced_cuts(n, shards, sample));
    CpuPma one(n);
    std::mt19937_64 random(shards);
    std::size_t next = 0;
    for (int round = 0; round < 60; ++round) {
        const std::size_t size = 1 + random() % (round % 5 == 0 ? 4000 : 300);
        std::vector<EdgeUpdate> batch;
        for (std::size_t i = 0; i < size && next < stream.size(); ++i, ++next) {
            batch.push_back({stream[next].first, stream[next].second, static_cast<float>(random() % 100)});
        }
        if (!batch.empty()) batch.push_back({batch.front().src, batch.front().dst, 7.0F});  // a repeated key: the last wins
        const std::string what = "round " + std::to_string(round);
        const int kind = static_cast<int>(random() % 3);
        if (kind == 0 || round < 20) {
            CHECK(same(sharded.insert_edges(batch), one.insert_edges(batch)));
        } else if (kind == 1) {
            std::vector<EdgeRef> erase;
            for (const EdgeUpdate& u : batch) erase.push_back({u.src, u.dst});
            // Half of them edges of earlier rounds.
            for (std::size_t i = 0; i < size / 2; ++i) {
                const auto& e = stream[random() % next];
                erase.push_back({e.first, e.second});
            }
            CHECK(same(sharded.erase_edges(erase), one.erase_edges(erase)));
        } else {
            for (std::size_t i = 0; i < size / 2; ++i) {
                const auto& e = stream[random() % next];
                batch.push_back({e.first, e.second, static_cast<float>(random() % 100)});
            }
            CHECK(same(sharded.update_values(batch), one.update_values(batch)));
        }
        check_same(sharded, one, what);
        for (int probe = 0; probe < 20; ++probe) {
            const auto& e = stream[random() % next];
            REQUIRE(sharded.find(e.first, e.second) == one.find(e.first, e.second));
        }
    }
    REQUIRE(one.num_edges() > 1000);
    // Every shard holds edges.
    const graph::WeightedCsr csr = one.to_csr();
    std::vector<std::size_t> held(shards, 0);
    for (Vertex v = 0; v < n; ++v) held[sharded.shard_of(v)] += csr.offsets[v + 1] - csr.offsets[v];
    for (std::size_t s = 0; s < shards; ++s) CHECK(held[s] > 0);
}

TEST_CASE("sharded graph: cuts balance a skewed sample by source; even ranges without one", "[graph][dynamic][devices]") {
    const auto stream = graph::rmat_edges(12, 100000, 9);
    std::vector<EdgeUpdate> sample;
    for (const auto& [a, b] : stream) sample.push_back({a, b, 1.0F});
    const Vertex n = 4096;
    for (const std::size_t shards : {2, 3, 4}) {
        const std::vector<Vertex> cuts = graph::balanced_cuts(n, shards, sample);
        REQUIRE(cuts.size() == shards);
        CHECK(cuts[0] == 0);
        CHECK(std::is_sorted(cuts.begin(), cuts.end()));
        std::vector<std::size_t> share(shards, 0);
        for (const EdgeUpdate& e : sample) ++share[static_cast<std::size_t>(std::upper_bound(cuts.begin() + 1, cuts.end(), e.src) - cuts.begin() - 1)];
        for (std::size_t s = 0; s < shards; ++s) {
            INFO(shards << " shards, shard " << s);
            CHECK(share[s] > sample.size() / shards * 8 / 10);  // within a fifth of an even share (one vertex may hold many)
        }
        CHECK(cuts[1] < n / shards);  // R-MAT puts most edges on low ids
    }
    CHECK(graph::balanced_cuts(100, 4, {}) == std::vector<Vertex>{0, 25, 50, 75});
    // Every edge at one vertex: the first shard holds them all, the others none.
    const std::vector<EdgeUpdate> one_source{{7, 1, 1.0F}, {7, 2, 1.0F}, {7, 3, 1.0F}};
    CHECK(graph::balanced_cuts(10, 3, one_source) == std::vector<Vertex>{0, 8, 8});
    const std::vector<EdgeUpdate> past{{1, 2, 1.0F}, {3, 12, 1.0F}};
    CHECK_THROWS_AS(graph::balanced_cuts(10, 2, past), Error);
}

TEST_CASE("sharded graph: an edge past the vertex count changes no shard", "[graph][dynamic][devices]") {
    Sharded sharded(10, {kNoDevice, kNoDevice}, {0, 5});
    const std::vector<EdgeUpdate> good{{1, 2, 1.0F}, {7, 8, 1.0F}};
    sharded.insert_edges(good);
    const std::vector<EdgeUpdate> bad{{3, 4, 1.0F}, {8, 9, 1.0F}, {6, 10, 1.0F}};
    CHECK_THROWS_AS(sharded.insert_edges(bad), Error);
    CHECK_THROWS_AS(sharded.erase_edges(std::vector<EdgeRef>{{1, 2}, {10, 0}}), Error);
    CHECK(sharded.num_edges() == 2);
    CHECK(!sharded.find(3, 4));
    CHECK(!sharded.find(8, 9));
    CHECK(sharded.find(1, 2) == 1.0F);
    CHECK_THROWS_AS(Sharded(10, {kNoDevice, kNoDevice}, {0}), Error);
}
