// Dynamic graphs (CPU packed memory array, adjacency sets) against a std::map model after
// every batch of random inserts, erasures and value updates (duplicates in a batch,
// absent edges, emptying the graph, growth past several doublings and shrinking back),
// the PMA's layout invariants, refusals, the analytics (BFS, components, PageRank)
// against oracles from their definitions, and the stream generators.
#include "catch.hpp"
#include "pma_layout.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/graph/adjacency_sets.hpp"
#include "spikeminer/graph/analytics.hpp"
#include "spikeminer/graph/cpu_pma.hpp"
#include "spikeminer/graph/generators.hpp"

#include <cmath>
#include <map>
#include <random>
#include <set>

using namespace spikeminer;
using graph::AdjacencySets;
using graph::BatchResult;
using graph::CpuPma;
using graph::EdgeRef;
using graph::EdgeUpdate;
using graph::Vertex;
using graph::WeightedCsr;

namespace {

using Model = std::map<std::pair<Vertex, Vertex>, float>;

WeightedCsr csr_of(const Model& model, Vertex n) {
    WeightedCsr csr;
    csr.offsets.assign(static_cast<std::size_t>(n) + 1, 0);
    for (const auto& [key, value] : model) {
        ++csr.offsets[key.first + 1];
        csr.targets.push_back(key.second);
        csr.values.push_back(value);
    }
    for (Vertex v = 0; v < n; ++v) csr.offsets[v + 1] += csr.offsets[v];
    return csr;
}

// The model's view of a batch: how many keys it changes and how many it names in vain.
template <typename Apply>
BatchResult model_batch(const std::vector<std::pair<Vertex, Vertex>>& keys, Apply apply) {
    std::map<std::pair<Vertex, Vertex>, bool> first;
    for (const auto& key : keys) first.try_emplace(key, apply(key));
    BatchResult r;
    for (const auto& [key, changed] : first) ++(changed ? r.applied : r.ignored);
    return r;
}

template <typename Dynamic>
void check_equal(const Dynamic& g, const Model& model, Vertex n, const std::string& what) {
    const WeightedCsr got = g.to_csr();
    const WeightedCsr want = csr_of(model, n);
    INFO(what);
    REQUIRE(g.num_edges() == model.size());
    REQUIRE(got.offsets == want.offsets);
    REQUIRE(got.targets == want.targets);
    REQUIRE(got.values == want.values);
    for (Vertex v = 0; v < n; ++v) REQUIRE(g.degree(v) == want.offsets[v + 1] - want.offsets[v]);
}


}  // namespace

TEST_CASE("dynamic graphs equal a map model after every random batch", "[graph][dynamic]") {
    const std::uint64_t seed = GENERATE(1, 2, 3, 4);
    std::mt19937_64 random(seed);
    const Vertex n = seed % 2 == 0 ? 40 : 3000;  // dense and sparse
    CpuPma pma(n);
    AdjacencySets sets(n);
    Model model;
    std::size_t max_capacity = 0;
    for (int round = 0; round < 120; ++round) {
        // Grow for 60 rounds, then shrink: the PMA doubles several times and halves back.
        const int kind = static_cast<int>(random() % 10);
        const bool growing = round < 60;
        const std::size_t size = 1 + random() % (round % 7 == 0 ? 2000 : 60);
        std::vector<std::pair<Vertex, Vertex>> keys;
        for (std::size_t i = 0; i < size; ++i) {
            // Half of the keys from the existing edges (when there are some), for updates and erasures.
            if (!model.empty() && random() % 2 == 0) {
                auto it = model.begin();
                std::advance(it, static_cast<std::ptrdiff_t>(random() % std::min<std::size_t>(model.size(), 50)));
                keys.push_back(it->first);
            } else {
                keys.emplace_back(static_cast<Vertex>(random() % n), static_cast<Vertex>(random() % n));
            }
        }
        if (random() % 4 == 0) keys.push_back(keys.front());  // a duplicate in the batch
        std::string what = "seed " + std::to_string(seed) + " round " + std::to_string(round);
        if ((growing && kind < 7) || (!growing && kind < 2)) {
            std::vector<EdgeUpdate> batch;
            for (const auto& k : keys) batch.push_back({k.first, k.second, static_cast<float>(random() % 1000)});
            Model before = model;
            for (const auto& u : batch) model[{u.src, u.dst}] = u.value;
            const BatchResult want = model_batch(keys, [&](const auto& k) { return before.count(k) == 0; });
            const BatchResult a = pma.insert_edges(batch);
            const BatchResult b = sets.insert_edges(batch);
            CHECK((a.applied == want.applied && a.ignored == want.ignored));
            CHECK((b.applied == want.applied && b.ignored == want.ignored));
            what += " insert";
        } else if (kind < 8 || !growing) {
            std::vector<EdgeRef> batch;
            for (const auto& k : keys) batch.push_back({k.first, k.second});
            const BatchResult want = model_batch(keys, [&](const auto& k) { return model.erase(k) != 0; });
            const BatchResult a = pma.erase_edges(batch);
            const BatchResult b = sets.erase_edges(batch);
            CHECK((a.applied == want.applied && a.ignored == want.ignored));
            CHECK((b.applied == want.applied && b.ignored == want.ignored));
            what += " erase";
        } else {
            std::vector<EdgeUpdate> batch;
            for (const auto& k : keys) batch.push_back({k.first, k.second, static_cast<float>(random() % 1000)});
            for (const auto& u : batch) {
                const auto it = model.find({u.src, u.dst});
                if (it != model.end()) it->second = u.value;
            }
            const BatchResult want = model_batch(keys, [&](const auto& k) { return model.count(k) != 0; });
            const BatchResult a = pma.update_values(batch);
            const BatchResult b = sets.update_values(batch);
            CHECK((a.applied == want.applied && a.ignored == want.ignored));
            CHECK((b.applied == want.applied && b.ignored == want.ignored));
            what += " update";
        }
        check_equal(pma, model, n, what + " (pma)");
        check_equal(sets, model, n, what + " (sets)");
        test::check_pma_layout(pma);
        max_capacity = std::max(max_capacity, pma.capacity());
        for (int probe = 0; probe < 20; ++probe) {
            const Vertex s = static_cast<Vertex>(random() % n);
            const Vertex d = static_cast<Vertex>(random() % n);
            const auto it = model.find({s, d});
            const std::optional<float> want = it == model.end() ? std::nullopt : std::optional<float>(it->second);
            REQUIRE(pma.find(s, d) == want);
            REQUIRE(sets.find(s, d) == want);
        }
    }
    CHECK(max_capacity >= 8 * CpuPma::kMinCapacity);  // grew past several doublings
    // Empty it completely: the PMA shrinks back to its smallest size.
    std::vector<EdgeRef> all;
    for (const auto& [key, value] : model) all.push_back({key.first, key.second});
    CHECK(pma.erase_edges(all).applied == model.size());
    CHECK(sets.erase_edges(all).applied == model.size());
    model.clear();
    check_equal(pma, model, n, "emptied");
    check_equal(sets, model, n, "emptied");
    CHECK(pma.capacity() == CpuPma::kMinCapacity);
}

TEST_CASE("dynamic graphs refuse a vertex beyond the declared count, changing nothing", "[graph][dynamic]") {
    CpuPma pma(10);
    AdjacencySets sets(10);
    const std::vector<EdgeUpdate> good{{1, 2, 1.0F}};
    pma.insert_edges(good);
    sets.insert_edges(good);
    const std::vector<EdgeUpdate> bad{{3, 4, 1.0F}, {5, 10, 1.0F}};
    CHECK_THROWS_WITH(pma.insert_edges(bad), test::contains("(5, 10)") && test::contains("10 declared"));
    CHECK_THROWS_AS(sets.insert_edges(bad), Error);
    CHECK_THROWS_AS(pma.erase_edges(std::vector<EdgeRef>{{10, 0}}), Error);
    CHECK_THROWS_AS(sets.update_values(std::vector<EdgeUpdate>{{0, 11, 2.0F}}), Error);
    CHECK(pma.num_edges() == 1);
    CHECK(sets.num_edges() == 1);
    CHECK(!pma.find(3, 4));
    CHECK(!sets.find(3, 4));
}

TEST_CASE("analytics: BFS and components against reachability by brute force", "[graph][analytics]") {
    std::mt19937_64 random(GENERATE(5, 6, 7));
    const Vertex n = 60;
    Model model;
    for (int i = 0; i < 80; ++i) model[{static_cast<Vertex>(random() % n), static_cast<Vertex>(random() % n)}] = 1.0F;
    CpuPma pma(n);
    std::vector<EdgeUpdate> batch;
    for (const auto& [key, value] : model) batch.push_back({key.first, key.second, value});
    pma.insert_edges(batch);
    // Hops by Floyd–Warshall (directed), joined-ness by closure of the undirected relation.
    constexpr std::uint32_t kInf = graph::kUnreached;
    std::vector<std::vector<std::uint32_t>> hops(n, std::vector<std::uint32_t>(n, kInf));
    std::vector<std::vector<bool>> joined(n, std::vector<bool>(n, false));
    for (Vertex v = 0; v < n; ++v) {
        hops[v][v] = 0;
        joined[v][v] = true;
    }
    for (const auto& [key, value] : model) {
        if (key.first != key.second) hops[key.first][key.second] = 1;
        joined[key.first][key.second] = joined[key.second][key.first] = true;
    }
    for (Vertex k = 0; k < n; ++k) {
        for (Vertex i = 0; i < n; ++i) {
            for (Vertex j = 0; j < n; ++j) {
                if (hops[i][k] != kInf && hops[k][j] != kInf) hops[i][j] = std::min(hops[i][j], hops[i][k] + hops[k][j]);
                joined[i][j] = joined[i][j] || (joined[i][k] && joined[k][j]);
            }
        }
    }
    for (const Vertex root : {Vertex{0}, Vertex{17}, Vertex{59}}) CHECK(graph::bfs_levels(pma, root) == hops[root]);
    const std::vector<Vertex> label = graph::connected_components(pma);
    for (Vertex v = 0; v < n; ++v) {
        Vertex smallest = v;
        for (Vertex u = 0; u < n; ++u) {
            if (joined[v][u]) smallest = std::min(smallest, u);
        }
        REQUIRE(label[v] == smallest);
    }
}

TEST_CASE("analytics: PageRank on known graphs and as a fixed point", "[graph][analytics]") {
    SECTION("a directed cycle: uniform") {
        AdjacencySets cycle(5);
        std::vector<EdgeUpdate> batch;
        for (Vertex v = 0; v < 5; ++v) batch.push_back({v, (v + 1) % 5, 1.0F});
        cycle.insert_edges(batch);
        const auto result = graph::pagerank(cycle);
        for (const double r : result.rank) CHECK(std::abs(r - 0.2) < 1e-12);
    }
    SECTION("a star into a sink: closed form") {
        // Leaves 1..4 point at 0, which has no out-edges. With d = 0.85, n = 5, the sink's
        // rank s and a leaf's rank l satisfy l = (1-d)/n + d*s/n and s = l + 4*d*l.
        AdjacencySets star(5);
        std::vector<EdgeUpdate> batch;
        for (Vertex v = 1; v < 5; ++v) batch.push_back({v, 0, 1.0F});
        star.insert_edges(batch);
        graph::PageRankOptions options;
        options.tolerance = 1e-14;
        options.max_iterations = 1000;
        const auto result = graph::pagerank(star, options);
        const double d = 0.85;
        const double leaf = ((1 - d) / 5) / (1 - d * (1 + 4 * d) / 5);
        CHECK(std::abs(result.rank[1] - leaf) < 1e-10);
        CHECK(std::abs(result.rank[0] - leaf * (1 + 4 * d)) < 1e-10);
    }
    SECTION("random graphs: sums to one, satisfies the update within the tolerance") {
        std::mt19937_64 random(9);
        const Vertex n = 200;
        CpuPma pma(n);
        std::vector<EdgeUpdate> batch;
        for (int i = 0; i < 900; ++i) batch.push_back({static_cast<Vertex>(random() % n), static_cast<Vertex>(random() % n), 1.0F});
        pma.insert_edges(batch);
        const auto result = graph::pagerank(pma);
        double sum = 0;
        for (const double r : result.rank) sum += r;
        CHECK(std::abs(sum - 1.0) < 1e-9);
        CHECK(result.iterations > 1);
        CHECK(result.iterations < 100);
        graph::PageRankOptions one;
        one.fixed_iterations = 1;
        // One more step from the result moves it by less than the tolerance.
        const auto again = graph::pagerank(pma, {0.85, 1e-3, 100, result.iterations + 1});
        double change = 0;
        for (Vertex v = 0; v < n; ++v) change += std::abs(again.rank[v] - result.rank[v]);
        CHECK(change < 1e-3);
        CHECK(graph::pagerank(pma, one).iterations == 1);
        // The same iterations done densely from the batch itself: rank' = (1 - d) / n +
        // d * (mass of the vertices without out-edges) / n + d * sum over u -> v of rank(u) / out(u).
        std::set<std::pair<Vertex, Vertex>> edges;
        for (const EdgeUpdate& u : batch) edges.emplace(u.src, u.dst);
        std::vector<double> out(n, 0);
        for (const auto& [a, b] : edges) out[a] += 1;
        std::vector<double> rank(n, 1.0 / n);
        for (unsigned it = 0; it < result.iterations; ++it) {
            double dangling = 0;
            for (Vertex v = 0; v < n; ++v) dangling += out[v] == 0 ? rank[v] : 0.0;
            std::vector<double> next(n, (1 - 0.85) / n + 0.85 * dangling / n);
            for (const auto& [a, b] : edges) next[b] += 0.85 * rank[a] / out[a];
            rank = next;
        }
        double worst = 0;
        for (Vertex v = 0; v < n; ++v) worst = std::max(worst, std::abs(rank[v] - result.rank[v]));
        CHECK(worst < 1e-12);
    }
}

TEST_CASE("generators: R-MAT quadrant frequencies and Erdős–Rényi ranges, deterministic", "[graph][generators]") {
    const auto rmat = graph::rmat_edges(10, 200'000, 42);
    REQUIRE(rmat.size() == 200'000);
    CHECK(rmat == graph::rmat_edges(10, 200'000, 42));
    CHECK(rmat != graph::rmat_edges(10, 200'000, 43));
    std::size_t quadrant[4] = {};
    for (const auto& [s, d] : rmat) {
        REQUIRE(s < 1024);
        REQUIRE(d < 1024);
        ++quadrant[(s >> 9) * 2 + (d >> 9)];  // the first step's choice
    }
    const auto share = [&](int q) { return static_cast<double>(quadrant[q]) / static_cast<double>(rmat.size()); };
    CHECK(std::abs(share(0) - 0.57) < 0.01);
    CHECK(std::abs(share(1) - 0.19) < 0.01);
    CHECK(std::abs(share(2) - 0.19) < 0.01);
    CHECK(std::abs(share(3) - 0.05) < 0.01);
    const auto er = graph::erdos_renyi_edges(1000, 100'000, 7);
    std::vector<std::size_t> hits(1000, 0);
    for (const auto& [s, d] : er) {
        REQUIRE(s < 1000);
        REQUIRE(d < 1000);
        ++hits[s];
    }
    // 100 expected per vertex; a fair draw stays within 60..140 everywhere (5+ sigma).
    CHECK(*std::min_element(hits.begin(), hits.end()) > 60);
    CHECK(*std::max_element(hits.begin(), hits.end()) < 140);
    CHECK_THROWS_AS(graph::rmat_edges(0, 1, 1), UsageError);
}

TEST_CASE("PMA segments: log2 of the capacity rounded up to a power of two, at least 8", "[graph][dynamic]") {
    CHECK(graph::PmaDensity::segment_size(64) == 8);
    CHECK(graph::PmaDensity::segment_size(std::size_t{1} << 8) == 8);
    CHECK(graph::PmaDensity::segment_size(std::size_t{1} << 9) == 16);
    CHECK(graph::PmaDensity::segment_size(std::size_t{1} << 16) == 16);
    CHECK(graph::PmaDensity::segment_size(std::size_t{1} << 17) == 32);
    CHECK(graph::PmaDensity::segment_size(std::size_t{1} << 32) == 32);
}
