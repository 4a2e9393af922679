// GPMA+ and the GPU-rebuild baseline against the CPU PMA (itself checked against a map
// model in graph_tests): the same random batches of inserts, erasures and value updates
// (duplicates, absent keys, small batches that settle in windows and large ones that
// rebuild, growth past several doublings, shrinking back, emptying) give the same edges,
// values, batch counts and the same reading through the vertex starts; GPMA+'s layout
// keeps its bounds, through every capacity from 64 slots to 2^23 and back. Batches given in device memory act as host ones. The clique engine
// reads GPMA+'s graph on the device and finds what the CPU finds.
#include "catch.hpp"
#include "brute_force_cliques.hpp"
#include "pma_layout.hpp"

#include "spikeminer/app/sliding_window.hpp"
#include "spikeminer/core/error.hpp"
#include "spikeminer/graph/generators.hpp"
#include "spikeminer/graph/cliques.hpp"
#include "spikeminer/graph/cpu_pma.hpp"
#include "spikeminer/graph/gpu_analytics.hpp"
#include "spikeminer/graph/gpu_pma.hpp"
#include "spikeminer/graph/gpu_rebuild.hpp"

#include "device_calls.cuh"
#include "device_stream.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <span>
#include <string>
#include <tuple>

using namespace spikeminer;
using graph::BatchResult;
using graph::CpuPma;
using graph::EdgeRef;
using graph::EdgeUpdate;
using graph::GpuPma;
using graph::GpuRebuildCsr;
using graph::Vertex;

namespace {

// The same edges, values and CSR reading as the reference (GPMA+ or the GPU rebuild
// against the CPU PMA, or GPMA+ against the GPU rebuild).
template <typename Reference, typename Gpu>
void check_same_edges(const Reference& reference, const Gpu& gpu, const std::string& what) {
    INFO(what);
    const graph::WeightedCsr a = reference.to_csr();
    const graph::WeightedCsr b = gpu.to_csr();
    REQUIRE(gpu.num_edges() == reference.num_edges());
    REQUIRE(b.offsets == a.offsets);
    REQUIRE(b.targets == a.targets);
    REQUIRE(b.values == a.values);
}

// ... and GPMA+'s layout keeps the PMA's invariants.
void check_same(const CpuPma& cpu, const GpuPma& gpu, const std::string& what) {
    check_same_edges(cpu, gpu, what);
    test::check_pma_layout(gpu);
}

}  // namespace

TEST_CASE("GPMA+ equals the CPU PMA after every random batch", "[gpu][gpma]") {
    const std::uint64_t seed = GENERATE(1, 2, 3);
    std::mt19937_64 random(seed);
    const Vertex n = seed == 2 ? 50 : 5000;
    CpuPma cpu(n);
    GpuPma gpu(n);
    GpuRebuildCsr rebuild(n);
    std::size_t largest = 0;
    for (int round = 0; round < 80; ++round) {
        const bool growing = round < 40;
        const int kind = static_cast<int>(random() % 10);
        const std::size_t size = 1 + random() % (round % 5 == 0 ? 20000 : 300);
        std::vector<EdgeUpdate> updates;
        const graph::WeightedCsr now = cpu.to_csr();
        for (std::size_t i = 0; i < size; ++i) {
            if (!now.targets.empty() && random() % 2 == 0) {  // an existing edge
                const std::size_t e = random() % now.targets.size();
                const auto src = static_cast<Vertex>(std::upper_bound(now.offsets.begin(), now.offsets.end(), e) - now.offsets.begin() - 1);
                updates.push_back({src, now.targets[e], static_cast<float>(random() % 100)});
            } else {
                updates.push_back({static_cast<Vertex>(random() % n), static_cast<Vertex>(random() % n), static_cast<float>(random() % 100)});
            }
        }
        std::string what = "seed " + std::to_string(seed) + " round " + std::to_string(round);
        BatchResult a;
        BatchResult b;
        BatchResult c;  // the GPU rebuild's
        if ((growing && kind < 7) || (!growing && kind < 2)) {
            a = cpu.insert_edges(updates);
            b = gpu.insert_edges(updates);
            c = rebuild.insert_edges(updates);
            what += " insert";
        } else if (kind < 8 || !growing) {
            std::vector<EdgeRef> refs;
            for (const auto& u : updates) refs.push_back({u.src, u.dst});
            a = cpu.erase_edges(refs);
            b = gpu.erase_edges(refs);
            c = rebuild.erase_edges(refs);
            what += " erase";
        } else {
            a = cpu.update_values(updates);
            b = gpu.update_values(updates);
            c = rebuild.update_values(updates);
            what += " update";
        }
        INFO(what);
        CHECK(b.applied == a.applied);
        CHECK(b.ignored == a.ignored);
        CHECK(c.applied == a.applied);
        CHECK(c.ignored == a.ignored);
        check_same(cpu, gpu, what);
        check_same_edges(cpu, rebuild, what + " (GPU rebuild)");
        largest = std::max(largest, gpu.capacity());
        for (int probe = 0; probe < 10; ++probe) {
            const auto s = static_cast<Vertex>(random() % n);
            const auto d = static_cast<Vertex>(random() % n);
            REQUIRE(gpu.find(s, d) == cpu.find(s, d));
        }
    }
    CHECK(largest >= 8 * CpuPma::kMinCapacity);
    const graph::WeightedCsr rest = cpu.to_csr();
    std::vector<EdgeRef> all;
    for (Vertex v = 0; v < n; ++v) {
        for (std::uint64_t e = rest.offsets[v]; e < rest.offsets[v + 1]; ++e) all.push_back({v, rest.targets[e]});
    }
    CHECK(gpu.erase_edges(all).applied == all.size());
    CHECK(gpu.num_edges() == 0);
    CHECK(gpu.capacity() == CpuPma::kMinCapacity);
    CHECK(gpu.to_csr().targets.empty());
}

TEST_CASE("GPMA+ grows and shrinks through every capacity up to 2^23 slots, equal to the GPU rebuild at each", "[gpu][gpma][large]") {
    // The sizes where a slide once took 200x its neighbours: 3.5 M edges need 2^23 slots.
    // Batches of 1 edge to a third of the graph (captured graphs up to 4096 slots, queued
    // beyond; past the first few, a batch crosses one boundary at most) cross them; at
    // every change of capacity, both ways, the graph is compared.
    const Vertex n = 2048;
    std::vector<EdgeUpdate> edges;
    for (Vertex s = 0; s < n; ++s) {
        for (Vertex d = 0; d < n; ++d) edges.push_back({s, d, static_cast<float>((s * 7 + d) % 100)});
    }
    std::mt19937_64 random(11);
    std::shuffle(edges.begin(), edges.end(), random);
    edges.resize(3'500'000);
    GpuPma gpu(n);
    GpuRebuildCsr rebuild(n);
    const auto size_of = [](int batch, std::size_t edges_now) {
        const std::size_t sizes[] = {1, 4096, 4097, 7, std::max<std::size_t>(1, edges_now / 8), 300, std::max<std::size_t>(1, edges_now / 3)};
        return sizes[batch % 7];
    };
    std::set<std::size_t> reached;  // capacities changed to, growing and then shrinking
    const auto compare_on_change = [&](std::size_t before, const std::string& what) {
        if (gpu.capacity() == before) return;
        reached.insert(gpu.capacity());
        check_same_edges(rebuild, gpu, what + ": capacity " + std::to_string(before) + " -> " + std::to_string(gpu.capacity()));
        test::check_pma_layout(gpu);
    };
    std::size_t at = 0;
    for (int batch = 0; at < edges.size(); ++batch) {
        const std::size_t size = std::min(size_of(batch, at), edges.size() - at);
        const std::span<const EdgeUpdate> part(edges.data() + at, size);
        const std::size_t before = gpu.capacity();
        REQUIRE(gpu.insert_edges(part).applied == size);
        REQUIRE(rebuild.insert_edges(part).applied == size);
        compare_on_change(before, "insert batch " + std::to_string(batch));
        at += size;
    }
    CHECK(gpu.capacity() >= std::size_t{1} << 23);
    // Once past the first batches, none is over a third of the graph, so each doubling is
    // a change of its own.
    for (std::size_t slots = std::size_t{1} << 14; slots <= std::size_t{1} << 23; slots *= 2) CHECK(reached.count(slots) == 1);
    reached.clear();
    for (int batch = 0; at > 0; ++batch) {
        const std::size_t size = std::min(size_of(batch, at), at);
        std::vector<EdgeRef> part;
        for (std::size_t i = at - size; i < at; ++i) part.push_back({edges[i].src, edges[i].dst});
        const std::size_t before = gpu.capacity();
        REQUIRE(gpu.erase_edges(part).applied == size);
        REQUIRE(rebuild.erase_edges(part).applied == size);
        compare_on_change(before, "erase batch " + std::to_string(batch));
        at -= size;
    }
    for (std::size_t slots = std::size_t{1} << 15; slots <= std::size_t{1} << 22; slots *= 2) CHECK(reached.count(slots) == 1);
    CHECK(gpu.num_edges() == 0);
    CHECK(gpu.capacity() == CpuPma::kMinCapacity);
}

TEST_CASE("GPMA+ settles batches that open thousands of windows as the CPU PMA does", "[gpu][gpma]") {
    // Batches far smaller than the graph (no rebuild) but with more windows than the
    // kernels search one by one: each slot finds its window through a map.
    std::mt19937_64 random(5);
    const Vertex n = 100000;
    CpuPma cpu(n);
    GpuPma gpu(n);
    const auto random_edges = [&](std::size_t count) {
        std::vector<EdgeUpdate> out;
        for (std::size_t i = 0; i < count; ++i) {
            out.push_back({static_cast<Vertex>(random() % n), static_cast<Vertex>(random() % n), static_cast<float>(random() % 50)});
        }
        return out;
    };
    const auto fill = random_edges(200000);
    cpu.insert_edges(fill);
    gpu.insert_edges(fill);
    for (int round = 0; round < 6; ++round) {
        const auto in = random_edges(6000 + 1000 * static_cast<std::size_t>(round));
        CHECK(gpu.insert_edges(in).applied == cpu.insert_edges(in).applied);
        std::vector<EdgeRef> out;
        for (std::size_t i = 0; i < 9000; ++i) {  // mostly present edges, some absent ones
            const EdgeUpdate& e = fill[random() % fill.size()];
            out.push_back({e.src, i % 3 == 0 ? static_cast<Vertex>(random() % n) : e.dst});
        }
        const BatchResult erased = cpu.erase_edges(out);
        CHECK(erased.applied > 5000);
        CHECK(gpu.erase_edges(out).applied == erased.applied);
        check_same(cpu, gpu, "round " + std::to_string(round));
    }
}

TEST_CASE("GPMA+ refuses a vertex beyond the declared count, changing nothing", "[gpu][gpma]") {
    GpuPma gpu(10);
    gpu.insert_edges(std::vector<EdgeUpdate>{{1, 2, 1.0F}});
    CHECK_THROWS_WITH(gpu.insert_edges(std::vector<EdgeUpdate>{{3, 4, 1.0F}, {5, 10, 1.0F}, {11, 0, 1.0F}}),
                      test::contains("(5, 10)"));
    CHECK_THROWS_AS(gpu.erase_edges(std::vector<EdgeRef>{{10, 0}}), Error);
    const auto bad = detail::upload(std::vector<EdgeUpdate>{{3, 4, 1.0F}, {0, 12, 1.0F}}, "test data");
    CHECK_THROWS_WITH(gpu.insert_edges_device(bad.get(), 2), test::contains("(0, 12)"));
    CHECK(gpu.num_edges() == 1);
    CHECK(gpu.find(1, 2) == 1.0F);
    CHECK(!gpu.find(3, 4));
    GpuRebuildCsr rebuild(10);
    CHECK_THROWS_AS(rebuild.insert_edges(std::vector<EdgeUpdate>{{3, 4, 1.0F}, {5, 10, 1.0F}}), Error);
    CHECK(rebuild.num_edges() == 0);
}

TEST_CASE("GPMA+ and the GPU rebuild take batches in device memory as host ones", "[gpu][gpma]") {
    std::mt19937_64 random(7);
    const Vertex n = 2000;
    CpuPma cpu(n);
    GpuPma gpu(n);
    GpuRebuildCsr rebuild(n);
    for (int round = 0; round < 12; ++round) {
        std::vector<EdgeUpdate> in;
        std::vector<EdgeRef> out;
        for (int i = 0; i < 4000; ++i) {
            in.push_back({static_cast<Vertex>(random() % n), static_cast<Vertex>(random() % n), static_cast<float>(random() % 9)});
        }
        for (int i = 0; i < 1500; ++i) out.push_back({in[random() % in.size()].src, in[random() % in.size()].dst});
        const auto d_in = detail::upload(in, "test data");
        const auto d_out = detail::upload(out, "test data");
        const BatchResult a = cpu.insert_edges(in);
        CHECK(gpu.insert_edges_device(d_in.get(), in.size()).applied == a.applied);
        CHECK(rebuild.insert_edges_device(d_in.get(), in.size()).applied == a.applied);
        const BatchResult e = cpu.erase_edges(out);
        CHECK(gpu.erase_edges_device(d_out.get(), out.size()).applied == e.applied);
        CHECK(rebuild.erase_edges_device(d_out.get(), out.size()).applied == e.applied);
        const BatchResult u = cpu.update_values(in);
        CHECK(gpu.update_values_device(d_in.get(), in.size()).applied == u.applied);
        CHECK(rebuild.update_values_device(d_in.get(), in.size()).applied == u.applied);
        check_same(cpu, gpu, "round " + std::to_string(round));
        check_same_edges(cpu, rebuild, "round " + std::to_string(round) + " (GPU rebuild)");
    }
}

TEST_CASE("GPMA+ queues batches on a stream as the plain calls apply them; a bad one changes nothing", "[gpu][gpma]") {
    std::mt19937_64 random(11);
    const Vertex n = 3000;
    CpuPma cpu(n);
    GpuPma gpu(n);
    const detail::DeviceStream own;
    BatchResult expected;
    std::vector<detail::DeviceBuffer<EdgeUpdate>> keep_updates;  // alive until the wait
    std::vector<detail::DeviceBuffer<EdgeRef>> keep_refs;
    const auto add = [&](const BatchResult& r) {
        expected.applied += r.applied;
        expected.ignored += r.ignored;
    };
    for (int round = 0; round < 12; ++round) {
        INFO("round " << round);
        // Half the rounds on the caller's own stream, half on the legacy one (where the
        // analytics run, so that they must see the queued batches without a wait).
        cudaStream_t stream = round % 2 == 0 ? own.get() : nullptr;
        std::vector<EdgeUpdate> in;
        for (int i = 0; i < 3000; ++i) {
            in.push_back({static_cast<Vertex>(random() % n), static_cast<Vertex>(random() % n), static_cast<float>(random() % 9)});
        }
        std::vector<EdgeRef> out;
        for (int i = 0; i < 1000; ++i) out.push_back({in[random() % in.size()].src, static_cast<Vertex>(random() % n)});
        std::vector<EdgeUpdate> values(in.begin(), in.begin() + 500);
        for (auto& u : values) u.value += 1.0F;
        const std::vector<EdgeUpdate> bad = {{1, 2, 5.0F}, {n, 0, 1.0F}};
        keep_refs.push_back(detail::upload(out, "test data", stream));
        gpu.erase_edges_async(keep_refs.back().get(), out.size(), stream);
        add(cpu.erase_edges(out));
        keep_updates.push_back(detail::upload(in, "test data", stream));
        gpu.insert_edges_async(keep_updates.back().get(), in.size(), stream);
        add(cpu.insert_edges(in));
        if (round % 4 == 2) {
            keep_updates.push_back(detail::upload(bad, "test data", stream));
            gpu.insert_edges_async(keep_updates.back().get(), bad.size(), stream);
        }
        keep_updates.push_back(detail::upload(values, "test data", stream));
        gpu.update_values_async(keep_updates.back().get(), values.size(), stream);
        add(cpu.update_values(values));
        if (stream == nullptr) {
            const Vertex root = in.front().src;
            CHECK(graph::bfs_levels_gpu(gpu.view(), root) == graph::bfs_levels(cpu, root));
        }
        if (round % 4 == 0) continue;  // two rounds' batches queued before one wait
        if (round % 4 == 2) {
            CHECK_THROWS_WITH(gpu.synchronize(), test::contains("(3000, 0)"));
            CHECK(gpu.synchronize().applied == 0);  // the error was reported once
        } else {
            const BatchResult got = gpu.synchronize();
            CHECK(got.applied == expected.applied);
            CHECK(got.ignored == expected.ignored);
        }
        expected = {};
        keep_updates.clear();
        keep_refs.clear();
        // After a wait any stream may read the view (the analytics use the legacy one),
        // whichever stream the batches came on.
        const Vertex root = in.back().src;
        CHECK(graph::bfs_levels_gpu(gpu.view(), root) == graph::bfs_levels(cpu, root));
        check_same(cpu, gpu, "round " + std::to_string(round));
    }
    CHECK(gpu.capacity() >= 32 * CpuPma::kMinCapacity);  // it grew while batches were queued
    {  // a batch on a stream that is gone by the time the view is read
        const std::vector<EdgeUpdate> last = {{1, 2, 3.0F}, {2, 1, 3.0F}};
        {
            const detail::DeviceStream brief;
            const auto d_last = detail::upload(last, "test data", brief.get());
            gpu.insert_edges_async(d_last.get(), last.size(), brief.get());
            (void)gpu.synchronize();
        }
        cpu.insert_edges(last);
        const Vertex root = 1;
        CHECK(graph::bfs_levels_gpu(gpu.view(), root) == graph::bfs_levels(cpu, root));
    }
}

TEST_CASE("GPMA+ analytics equal the CPU's on the same graph after updates", "[gpu][gpma][analytics]") {
    std::mt19937_64 random(GENERATE(1, 2));
    const Vertex n = 3000;
    CpuPma cpu(n);
    GpuPma gpu(n);
    GpuRebuildCsr rebuild(n);  // its view is the compact CSR the benchmark compares with
    for (int round = 0; round < 6; ++round) {
        std::vector<EdgeUpdate> batch;
        for (int i = 0; i < 3000; ++i) batch.push_back({static_cast<Vertex>(random() % n), static_cast<Vertex>(random() % n), 1.0F});
        cpu.insert_edges(batch);
        gpu.insert_edges(batch);
        rebuild.insert_edges(batch);
        std::vector<EdgeRef> gone;
        for (int i = 0; i < 1000; ++i) gone.push_back({batch[static_cast<std::size_t>(i)].src, batch[static_cast<std::size_t>(i)].dst});
        cpu.erase_edges(gone);
        gpu.erase_edges(gone);
        rebuild.erase_edges(gone);
        for (const graph::GpmaView& view : {gpu.view(), rebuild.view()}) {
            INFO((view.counts != nullptr ? "GPMA+" : "compact CSR"));
            for (const Vertex root : {Vertex{0}, Vertex{1234}}) CHECK(graph::bfs_levels_gpu(view, root) == graph::bfs_levels(cpu, root));
            CHECK(graph::connected_components_gpu(view) == graph::connected_components(cpu));
            // Twenty fixed iterations, and the default mode (until the 1-norm change is
            // under its tolerance), which `dyngraph --backend gpu` runs.
            graph::PageRankOptions twenty;
            twenty.fixed_iterations = 20;
            for (const graph::PageRankOptions& options : {twenty, graph::PageRankOptions{}}) {
                const auto a = graph::pagerank(cpu, options);
                const auto b = graph::pagerank_gpu(view, options);
                REQUIRE(b.rank.size() == a.rank.size());
                CHECK(b.iterations == a.iterations);
                double worst = 0;
                for (std::size_t v = 0; v < a.rank.size(); ++v) worst = std::max(worst, std::abs(a.rank[v] - b.rank[v]));
                CHECK(worst < 1e-12);
            }
        }
    }
}

TEST_CASE("GPU analytics read a view whose segments are full, partly filled and empty", "[gpu][gpma][analytics]") {
    // 6 vertices, segments of 4 slots: [0>1 0>2 0>3 0>4] full, [0>5 1>0 _ _], [5>0 _ _ _].
    // Vertex 0's edges cross a full segment; 2, 3 and 4 have none.
    constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
    const auto key = [](Vertex a, Vertex b) { return graph::edge_key(a, b); };
    const std::vector<std::uint64_t> keys = {key(0, 1), key(0, 2), key(0, 3), key(0, 4), key(0, 5), key(1, 0), kEmpty, kEmpty,
                                             key(5, 0), kEmpty,    kEmpty,    kEmpty};
    const std::vector<float> values(keys.size(), 1.0F);
    const std::vector<std::uint64_t> row_start = {0, 5, 8, 8, 8, 8, 12};
    const std::vector<std::uint32_t> counts = {4, 2, 1};
    const auto d_keys = detail::upload(keys, "test data");
    const auto d_values = detail::upload(values, "test data");
    const auto d_row_start = detail::upload(row_start, "test data");
    const auto d_counts = detail::upload(counts, "test data");
    const graph::GpmaView view{d_keys.get(), d_values.get(), d_row_start.get(), 6, 12, d_counts.get(), 4};
    CHECK(graph::bfs_levels_gpu(view, 0) == std::vector<std::uint32_t>{0, 1, 1, 1, 1, 1});
    CHECK(graph::bfs_levels_gpu(view, 5) == std::vector<std::uint32_t>{1, 2, 2, 2, 2, 0});
    CHECK(graph::connected_components_gpu(view) == std::vector<Vertex>(6, 0));
    graph::WeightedCsr csr;  // the same graph, compact, for the CPU's PageRank
    csr.offsets = {0, 5, 6, 6, 6, 6, 7};
    csr.targets = {1, 2, 3, 4, 5, 0, 0};
    csr.values.assign(7, 1.0F);
    graph::PageRankOptions twenty;
    twenty.fixed_iterations = 20;
    const auto a = graph::pagerank(csr, twenty);
    const auto b = graph::pagerank_gpu(view, twenty);
    REQUIRE(b.rank.size() == 6);
    for (std::size_t v = 0; v < 6; ++v) CHECK(std::abs(a.rank[v] - b.rank[v]) < 1e-12);
}

TEST_CASE("GPMA+ follows a sliding window over an R-MAT stream as the CPU PMA does", "[gpu][gpma]") {
    // What `spikeminer dyngraph --backend gpu` runs: the window's batches (erasures,
    // inserts, summed values of repeated edges) after every slide, then the analytics.
    const auto pairs = graph::rmat_edges(11, 40000, 5);
    std::vector<io::StreamEdge> stream;
    for (std::size_t i = 0; i < pairs.size(); ++i) stream.push_back({pairs[i].first, pairs[i].second, 1.0F, static_cast<double>(i)});
    const Vertex n = Vertex{1} << 11;
    app::SlidingWindow cpu_window(stream, 10000);
    app::SlidingWindow gpu_window(stream, 10000);
    CpuPma cpu(n);
    GpuPma gpu(n);
    app::apply(cpu, cpu_window.fill());
    app::apply(gpu, gpu_window.fill());
    check_same(cpu, gpu, "first window");
    app::WindowBatches a;
    app::WindowBatches b;
    int slide = 0;
    for (const std::size_t k : {1, 7, 100, 1000, 5000}) {
        for (int i = 0; i < 4 && cpu_window.slide(k, a); ++i, ++slide) {
            REQUIRE(gpu_window.slide(k, b));
            app::apply(cpu, a);
            app::apply(gpu, b);
            check_same(cpu, gpu, "slide " + std::to_string(slide) + " of " + std::to_string(k));
        }
        const Vertex root = stream[static_cast<std::size_t>(slide)].src;
        CHECK(graph::bfs_levels_gpu(gpu.view(), root) == graph::bfs_levels(cpu, root));
        CHECK(graph::connected_components_gpu(gpu.view()) == graph::connected_components(cpu));
    }
    CHECK(slide == 20);
}

TEST_CASE("GPU cliques read GPMA+'s graph on the device and find what the CPU finds", "[gpu][gpma][cliques]") {
    const std::uint64_t seed = GENERATE(1, 2);
    std::mt19937_64 random(seed);
    // A sparse graph with planted cliques, inserted both ways; then a tenth of its edges
    // erased (emptied slots inside segments) and a few vertices left without edges.
    const Vertex n = 2000;
    std::vector<test::Edge> edges = test::random_graph(n, 0.004, seed);
    for (int k = 0; k < 30; ++k) {
        std::vector<Vertex> members(8 + random() % 20);
        for (Vertex& m : members) m = static_cast<Vertex>(random() % (n - 10));
        for (std::size_t i = 0; i < members.size(); ++i) {
            for (std::size_t j = i + 1; j < members.size(); ++j) {
                if (members[i] != members[j]) edges.emplace_back(members[i], members[j]);
            }
        }
    }
    for (auto& [a, b] : edges) {
        if (a > b) std::swap(a, b);  // not std::tie = std::minmax, whose references alias
    }
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
    std::vector<EdgeUpdate> inserts;
    for (const auto& [a, b] : edges) {
        inserts.push_back({a, b, 1.0F});
        inserts.push_back({b, a, 1.0F});
    }
    GpuPma gpu(n);
    (void)gpu.insert_edges(inserts);
    std::shuffle(edges.begin(), edges.end(), random);
    std::vector<EdgeRef> erasures;
    for (std::size_t i = 0; i < edges.size() / 10; ++i) {
        erasures.push_back({edges[i].first, edges[i].second});
        erasures.push_back({edges[i].second, edges[i].first});
    }
    (void)gpu.erase_edges(erasures);
    edges.erase(edges.begin(), edges.begin() + static_cast<std::ptrdiff_t>(edges.size() / 10));
    const graph::Graph host = graph::Graph::from_edges(n, edges);
    REQUIRE(gpu.num_edges() == 2 * host.num_edges());

    for (const std::size_t min_size : {std::size_t{1}, std::size_t{5}}) {
        INFO("seed " << seed << ", min size " << min_size);
        graph::CliqueOptions options;
        options.min_size = min_size;
        options.backend = Backend::Cpu;
        test::CliqueSet expected;
        const graph::CliqueSummary cpu =
            graph::enumerate_maximal_cliques(host, options, [&](std::span<const Vertex> c) { expected.emplace(c.begin(), c.end()); });
        options.backend = Backend::Cuda;
        bool copied = false;
        const auto to_host = [&] {
            copied = true;
            return host;
        };
        test::CliqueSet found;
        const graph::CliqueSummary listed = graph::enumerate_maximal_cliques(
            gpu.view(), gpu.num_edges() / 2, to_host, options, [&](std::span<const Vertex> c) { found.emplace(c.begin(), c.end()); });
        CHECK(listed.backend == Backend::Cuda);
        CHECK(found == expected);
        const graph::CliqueSummary counted = graph::enumerate_maximal_cliques(gpu.view(), gpu.num_edges() / 2, to_host, options);
        CHECK(counted.count == cpu.count);
        CHECK(counted.by_size == cpu.by_size);
        CHECK(counted.degeneracy == cpu.degeneracy);
        CHECK_FALSE(copied);  // no host copy on the GPU's path
    }
}
