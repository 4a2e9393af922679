// The GPU clique engine against oracles written from the definition (tiny graphs, and
// every graph of up to 7 vertices as one disjoint union) and
// against the CPU engine (larger ones), for every option combination: L1/L2 subtrees x
// IP/IPX induced subgraphs x worker list on/off x lanes per worker x min size; the GPU's
// peeling (a degeneracy order, in one block and over the grid); hand-overs; auto; limits,
// several devices, cancellation and the fallback when the memory budget is too small;
// listing in batches through a ring that wraps, drained by one host thread or many.
#include "brute_force_cliques.hpp"
#include "catch.hpp"
#include "every_small_graph.hpp"

#include "spikeminer/core/device_query.hpp"
#include "spikeminer/core/error.hpp"
#include "spikeminer/graph/cliques.hpp"

#include <algorithm>
#include <mutex>
#include <random>
#include <set>
#include <sstream>

using namespace spikeminer;
using graph::CliqueOptions;
using graph::CliqueSummary;
using graph::Graph;
using graph::InducedSubgraph;
using graph::SubtreeLevel;
using graph::Vertex;
using test::CliqueSet;
using test::Edge;

namespace {

struct Combo {
    SubtreeLevel level;
    InducedSubgraph induced;
    bool worker_list;
    unsigned lanes;
    std::size_t l2_from = graph::GpuCliqueOptions{}.l2_from;  // 1: every vertex split per edge
};

std::string describe(const Combo& c) {
    std::ostringstream text;
    text << (c.level == SubtreeLevel::L1 ? "L1" : "L2") << " " << (c.induced == InducedSubgraph::Full ? "IPX" : "IP")
         << " worker list " << (c.worker_list ? "on" : "off") << ", lanes " << (c.lanes == 0 ? "auto" : std::to_string(c.lanes))
         << ", L2 from " << c.l2_from;
    return text.str();
}

std::vector<Combo> every_combo() {
    std::vector<Combo> combos;
    for (const auto level : {SubtreeLevel::L1, SubtreeLevel::L2}) {
        for (const auto induced : {InducedSubgraph::Partial, InducedSubgraph::Full}) {
            for (const bool worker_list : {false, true}) {
                // 0: the engine's choice (bitsets of a fixed width up to 8 words); 4: any width.
                for (const unsigned lanes : {0U, 4U}) {
                    combos.push_back({level, induced, worker_list, lanes});
                    // Small graphs have no vertex with 32 later neighbours: edge subtrees too.
                    if (level == SubtreeLevel::L2) combos.push_back({level, induced, worker_list, lanes, 1});
                }
            }
        }
    }
    return combos;
}

struct Run {
    CliqueSet cliques;
    std::size_t listed = 0;
    bool sorted = true;
    CliqueSummary summary;
};

// `listing` false: count only (no sink, so the kernel writes no cliques out).
Run run_gpu(const Graph& g, const Combo& combo, std::size_t min_size, Backend backend = Backend::Cuda, bool listing = true) {
    CliqueOptions options;
    options.backend = backend;
    options.min_size = min_size;
    options.gpu.level = combo.level;
    options.gpu.induced = combo.induced;
    options.gpu.worker_list = combo.worker_list;
    options.gpu.lanes = combo.lanes;
    options.gpu.l2_from = combo.l2_from;
    Run run;
    if (!listing) {
        run.summary = graph::enumerate_maximal_cliques(g, options);
        return run;
    }
    run.summary = graph::enumerate_maximal_cliques(g, options, [&run](std::span<const Vertex> clique) {
        run.cliques.emplace(clique.begin(), clique.end());
        run.sorted = run.sorted && std::is_sorted(clique.begin(), clique.end());
        ++run.listed;
    });
    return run;
}

// The GPU listed exactly `expected`, each clique once and sorted, and its summary agrees;
// counting alone (no listing) gives the same summary. Returns the counting run's note
// (what ran: kernel shape, where the hot state was).
std::string check_gpu(const Graph& g, const CliqueSet& expected, const Combo& combo, std::size_t min_size, const std::string& what) {
    const Run run = run_gpu(g, combo, min_size);
    const Run counted = run_gpu(g, combo, min_size, Backend::Cuda, false);
    std::vector<std::uint64_t> by_size;
    for (const auto& c : expected) {
        if (by_size.size() <= c.size()) by_size.resize(c.size() + 1, 0);
        ++by_size[c.size()];
    }
    const bool ok = run.summary.backend == Backend::Cuda && run.cliques == expected && run.listed == expected.size() &&
                    run.sorted && run.summary.count == expected.size() && run.summary.by_size == by_size &&
                    counted.summary.backend == Backend::Cuda && counted.summary.count == expected.size() &&
                    counted.summary.by_size == by_size;
    if (!ok) {
        INFO(what << "; " << describe(combo) << ", min size " << min_size << "; note: " << run.summary.note);
        CHECK(run.summary.backend == Backend::Cuda);
        CHECK(run.listed == expected.size());
        CHECK(run.cliques.size() == expected.size());
        CHECK(run.cliques == expected);
        CHECK(run.sorted);
        CHECK(run.summary.count == expected.size());
        CHECK(run.summary.by_size == by_size);
        CHECK(counted.summary.backend == Backend::Cuda);
        CHECK(counted.summary.count == expected.size());
        CHECK(counted.summary.by_size == by_size);
    }
    return counted.summary.note;
}

Graph build(std::size_t n, const std::vector<Edge>& edges) { return Graph::from_edges(static_cast<Vertex>(n), edges); }

// Two halves joined densely, sparse inside: degrees over 64, many mid-sized cliques.
std::vector<Edge> near_bipartite(std::size_t n, double across, double inside, std::uint64_t seed) {
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    std::vector<Edge> edges;
    for (Vertex a = 0; a < n; ++a) {
        for (Vertex b = a + 1; b < n; ++b) {
            if (uniform(random) < ((a < n / 2) != (b < n / 2) ? across : inside)) edges.emplace_back(a, b);
        }
    }
    return edges;
}

}  // namespace

TEST_CASE("GPU cliques: a sample of single graphs of up to 5 vertices equals brute force", "[gpu][cliques]") {
    // Whole lists, sizes and sortedness one graph at a time; every graph of up to 7
    // vertices is covered below, a union per launch.
    const Combo combo = GENERATE(Combo{SubtreeLevel::L1, InducedSubgraph::Full, true, 4},
                                 Combo{SubtreeLevel::L2, InducedSubgraph::Partial, false, 8, 1});
    for (std::size_t n = 1; n <= 5; ++n) {
        const std::uint64_t graphs = std::uint64_t{1} << (n * (n - 1) / 2);
        for (std::uint64_t mask = 0; mask < graphs; mask += 1 + graphs / 16) {
            const auto edges = test::graph_from_mask(n, mask);
            check_gpu(build(n, edges), test::brute_force_maximal_cliques(n, edges), combo, 1,
                      std::to_string(n) + " vertices, mask " + std::to_string(mask));
        }
    }
}

TEST_CASE("GPU cliques: every graph of 1..7 vertices, a disjoint union per launch", "[gpu][cliques]") {
    for (const std::size_t n : {1, 2, 3, 4, 5, 6, 7}) {
        const test::EverySmallGraph family = test::every_small_graph(n);
        // Every combination up to 6 vertices (32,768 graphs); two on the 2,097,152 of 7.
        std::vector<Combo> combos = every_combo();
        if (n == 7) combos = {{SubtreeLevel::L1, InducedSubgraph::Full, true, 0}, {SubtreeLevel::L2, InducedSubgraph::Partial, false, 4, 1}};
        for (const Combo& combo : combos) {
            CliqueOptions options;
            options.backend = Backend::Cuda;
            options.gpu.level = combo.level;
            options.gpu.induced = combo.induced;
            options.gpu.worker_list = combo.worker_list;
            options.gpu.lanes = combo.lanes;
            options.gpu.l2_from = combo.l2_from;
            test::ComponentCliques got(family.components);
            bool within_components = true;
            const CliqueSummary summary = graph::enumerate_maximal_cliques(family.graph, options, [&](std::span<const Vertex> c) {
                within_components = test::add_union_clique(family, got, c) && within_components;
            });
            std::size_t wrong = 0;
            for (std::size_t k = 0; k < family.components; ++k) {
                wrong += got.count[k] != family.expected.count[k] || got.digest[k] != family.expected.digest[k];
            }
            INFO(n << " vertices, " << describe(combo) << "; note: " << summary.note);
            CHECK(summary.backend == Backend::Cuda);
            CHECK(within_components);
            CHECK(wrong == 0);
        }
    }
}

TEST_CASE("GPU cliques: random graphs of 6..30 vertices equal brute force, every option combination", "[gpu][cliques]") {
    std::mt19937_64 random(2026);
    for (int trial = 0; trial < 24; ++trial) {
        const std::size_t n = 6 + random() % 25;
        const double density = 0.1 + 0.1 * static_cast<double>(random() % 9);
        const auto edges = test::random_graph(n, density, random());
        const Graph g = build(n, edges);
        const CliqueSet all = n <= 20 ? test::brute_force_maximal_cliques(n, edges) : test::listed_maximal_cliques(n, edges);
        for (const Combo& combo : every_combo()) {
            for (const std::size_t min_size : {1, 3}) {
                check_gpu(g, test::at_least(all, min_size), combo, min_size,
                          std::to_string(n) + " vertices at density " + std::to_string(density));
            }
        }
    }
}

TEST_CASE("GPU cliques: bitsets of several words, fewer lanes than words", "[gpu][cliques]") {
    // Degeneracy above 128: 5+ words per bitset, walked by 4 lanes, 32 lanes and the
    // fixed 8-word width.
    const auto edges = near_bipartite(300, 0.95, 0.05, 7);
    const Graph g = build(300, edges);
    const CliqueSet all = test::listed_maximal_cliques(300, edges);
    REQUIRE(all.size() > 1000);
    for (const Combo& combo : every_combo()) {
        const std::string note = check_gpu(g, all, combo, 1, "near-bipartite 300");
        // 32 workers of 4 lanes with 5+-word bitsets need over 300 KiB of hot state a
        // block: it stays in global memory, and that placement is compared with the CPU
        // here (the small graphs below keep it in shared memory).
        if (combo.lanes == 4) CHECK(note.find("shared memory") == std::string::npos);
    }
    check_gpu(g, all, {SubtreeLevel::L1, InducedSubgraph::Partial, true, 32}, 1, "near-bipartite 300");
    check_gpu(g, all, {SubtreeLevel::L2, InducedSubgraph::Full, true, 16}, 1, "near-bipartite 300");
    check_gpu(g, test::at_least(all, 150), {SubtreeLevel::L1, InducedSubgraph::Full, true, 8}, 150, "near-bipartite 300");
}

TEST_CASE("GPU cliques: complete graphs and graphs without edges", "[gpu][cliques]") {
    const Combo combo{SubtreeLevel::L2, InducedSubgraph::Full, true, 32};
    for (const std::size_t n : {1, 2, 31, 32, 33, 64, 65, 200}) {
        std::vector<Edge> edges;
        for (Vertex a = 0; a < n; ++a) {
            for (Vertex b = a + 1; b < n; ++b) edges.emplace_back(a, b);
        }
        std::vector<Vertex> all(n);
        for (Vertex v = 0; v < n; ++v) all[v] = v;
        const std::string note = check_gpu(build(n, edges), CliqueSet{all}, combo, 1, "K" + std::to_string(n));
        // Up to 65 vertices (bitsets of up to 2 words) the hot state fits in shared memory;
        // K200's (8-word bitsets for 201 depths, 27 KiB a worker) does not and stays in
        // global memory: both placements are compared with the expected clique.
        CHECK((note.find("hot state in shared memory") != std::string::npos) == (n <= 65));
        CliqueSet singles;
        for (Vertex v = 0; v < n; ++v) singles.insert({v});
        check_gpu(build(n, {}), singles, combo, 1, std::to_string(n) + " isolated vertices");
    }
    CHECK(run_gpu(Graph::from_edges(0, {}), combo, 1).summary.count == 0);
}

TEST_CASE("GPU cliques: larger random graphs with planted cliques equal the CPU", "[gpu][cliques]") {
    const std::uint64_t seed = GENERATE(1, 2, 3);
    std::mt19937_64 random(seed);
    // A sparse graph of 3000 vertices with 40 planted cliques of 10..40 vertices.
    std::vector<Edge> edges = test::random_graph(3000, 0.004, seed);
    for (int k = 0; k < 40; ++k) {
        std::vector<Vertex> members(10 + random() % 31);
        for (Vertex& m : members) m = static_cast<Vertex>(random() % 3000);
        for (std::size_t i = 0; i < members.size(); ++i) {
            for (std::size_t j = i + 1; j < members.size(); ++j) edges.emplace_back(members[i], members[j]);
        }
    }
    const Graph g = build(3000, edges);
    CliqueOptions cpu_options;
    cpu_options.backend = Backend::Cpu;
    CliqueSet expected;
    graph::enumerate_maximal_cliques(g, cpu_options, [&](std::span<const Vertex> c) { expected.emplace(c.begin(), c.end()); });
    for (const Combo& combo : every_combo()) check_gpu(g, expected, combo, 1, "planted cliques, seed " + std::to_string(seed));
    check_gpu(g, test::at_least(expected, 12), {SubtreeLevel::L2, InducedSubgraph::Partial, true, 8}, 12, "planted, min 12");
}

TEST_CASE("GPU cliques: peeling on the GPU gives a degeneracy order, in one block and over the whole grid",
          "[gpu][cliques][degeneracy]") {
    // 3,000 vertices peel in one block with degrees and order in shared memory; 40,000 in
    // one block with the order in global memory (shared memory holds both for up to about
    // 29,000 vertices on the H200); 100,000 (more degrees than one block's shared memory
    // holds: about 58,000) in a cooperative launch of one block per multiprocessor. Sparse
    // random edges with cliques of 5..44 planted.
    const std::size_t n = GENERATE(3000, 40000, 100000);
    std::mt19937_64 random(n);
    std::vector<Edge> edges;
    for (std::size_t i = 0; i < 5 * n; ++i) edges.emplace_back(static_cast<Vertex>(random() % n), static_cast<Vertex>(random() % n));
    for (int k = 0; k < 30; ++k) {
        std::vector<Vertex> members(5 + random() % 40);
        for (Vertex& m : members) m = static_cast<Vertex>(random() % n);
        for (std::size_t i = 0; i < members.size(); ++i) {
            for (std::size_t j = i + 1; j < members.size(); ++j) edges.emplace_back(members[i], members[j]);
        }
    }
    std::erase_if(edges, [](const Edge& e) { return e.first == e.second; });
    const Graph g = build(n, edges);
    CliqueOptions cpu_options;
    cpu_options.backend = Backend::Cpu;
    const CliqueSummary cpu = graph::enumerate_maximal_cliques(g, cpu_options);
    const Run gpu = run_gpu(g, {SubtreeLevel::L2, InducedSubgraph::Auto, true, 0}, 1, Backend::Cuda, false);
    INFO(n << " vertices; note: " << gpu.summary.note);
    REQUIRE(gpu.summary.backend == Backend::Cuda);
    CHECK(gpu.summary.degeneracy == cpu.degeneracy);
    CHECK(gpu.summary.count == cpu.count);
    CHECK(gpu.summary.by_size == cpu.by_size);
}

TEST_CASE("GPU cliques: branches handed to idle workers still give every clique once", "[gpu][cliques][worker-list]") {
    // L1 has 300 subtrees for thousands of workers, so most wait from the start; handing
    // over from |P| >= 1 or 8 (the default is 16 to 32) makes the busy ones share often.
    // L2 (edge subtrees for the vertices with 32 later neighbours or more, vertex subtrees
    // for the others) may keep every worker busy, so it is held only to the cliques.
    const auto edges = near_bipartite(300, 0.6, 0.05, 11);
    const Graph g = build(300, edges);
    CliqueOptions cpu_options;
    cpu_options.backend = Backend::Cpu;
    CliqueSet expected;
    graph::enumerate_maximal_cliques(g, cpu_options, [&](std::span<const Vertex> c) { expected.emplace(c.begin(), c.end()); });
    const auto level = GENERATE(SubtreeLevel::L1, SubtreeLevel::L2);
    const std::size_t from = GENERATE(1, 8);
    const auto induced = GENERATE(InducedSubgraph::Partial, InducedSubgraph::Full);
    const unsigned lanes = GENERATE(0U, 4U);
    CliqueOptions options;
    options.backend = Backend::Cuda;
    options.gpu.level = level;
    options.gpu.induced = induced;
    options.gpu.lanes = lanes;
    options.gpu.hand_over_from = from;
    CliqueSet listed;
    std::size_t calls = 0;
    const CliqueSummary summary = graph::enumerate_maximal_cliques(g, options, [&](std::span<const Vertex> c) {
        listed.emplace(c.begin(), c.end());
        ++calls;
    });
    INFO("from " << from << ", lanes " << lanes << "; note: " << summary.note);
    if (level == SubtreeLevel::L1) CHECK(summary.hand_overs > 0);
    CHECK(listed == expected);
    CHECK(calls == expected.size());
    CHECK(summary.count == expected.size());
}

TEST_CASE("GPU cliques: a limit stops after exactly N cliques", "[gpu][cliques][limit]") {
    const auto edges = near_bipartite(120, 0.9, 0.1, 3);
    const Graph g = build(120, edges);
    const CliqueSet all = test::listed_maximal_cliques(120, edges);
    REQUIRE(all.size() > 200);
    for (const std::uint64_t limit : {1ULL, 17ULL, 200ULL, static_cast<unsigned long long>(all.size()),
                                      static_cast<unsigned long long>(all.size() + 5)}) {
        CliqueOptions options;
        options.backend = Backend::Cuda;
        options.limit = limit;
        CliqueSet got;
        const CliqueSummary summary =
            graph::enumerate_maximal_cliques(g, options, [&](std::span<const Vertex> c) { got.emplace(c.begin(), c.end()); });
        INFO("limit " << limit << " of " << all.size() << "; " << summary.note);
        CHECK(summary.backend == Backend::Cuda);
        CHECK(summary.count == std::min<std::uint64_t>(limit, all.size()));
        CHECK(got.size() == summary.count);
        CHECK(std::includes(all.begin(), all.end(), got.begin(), got.end()));
        CHECK(summary.stopped_at_limit == (limit < all.size()));
    }
}

TEST_CASE("GPU cliques: items shared round robin over devices (device 0 twice)", "[gpu][cliques][devices]") {
    const auto edges = near_bipartite(200, 0.9, 0.08, 11);
    const Graph g = build(200, edges);
    const CliqueSet all = test::listed_maximal_cliques(200, edges);
    for (const auto level : {SubtreeLevel::L1, SubtreeLevel::L2}) {
        CliqueOptions options;
        options.backend = Backend::Cuda;
        options.gpu.level = level;
        options.gpu.devices = {0, 0};
        CliqueSet got;
        std::size_t listed = 0;
        const CliqueSummary summary = graph::enumerate_maximal_cliques(g, options, [&](std::span<const Vertex> c) {
            got.emplace(c.begin(), c.end());
            ++listed;
        });
        CHECK(summary.backend == Backend::Cuda);
        CHECK(got == all);
        CHECK(listed == all.size());
        CHECK(summary.count == all.size());
    }
    CliqueOptions bad;
    bad.backend = Backend::Cuda;
    bad.gpu.devices = {0, 4096};
    CHECK_THROWS_AS(graph::enumerate_maximal_cliques(g, bad), UsageError);
}

TEST_CASE("GPU cliques: every visible device shares the work (two on the two-GPU machine)", "[gpu][cliques][devices]") {
    const auto edges = near_bipartite(300, 0.95, 0.05, 17);
    const Graph g = build(300, edges);
    const CliqueSet all = test::listed_maximal_cliques(300, edges);
    CliqueOptions options;
    options.backend = Backend::Cuda;
    for (std::size_t d = 0; d < query_devices().devices.size(); ++d) options.gpu.devices.push_back(static_cast<int>(d));
    INFO(options.gpu.devices.size() << " devices");
    for (const auto level : {SubtreeLevel::L1, SubtreeLevel::L2}) {
        options.gpu.level = level;
        CliqueSet got;
        const CliqueSummary summary = graph::enumerate_maximal_cliques(
            g, options, [&](std::span<const Vertex> c) { got.emplace(c.begin(), c.end()); });
        CHECK(summary.backend == Backend::Cuda);
        CHECK(got == all);
        CHECK(summary.count == all.size());
    }
}

TEST_CASE("GPU cliques: auto counts and lists batches on the GPU from 75,000 edges, cliques one at a time on the CPU",
          "[gpu][cliques]") {
    const auto edges = near_bipartite(800, 0.5, 0.02, 5);  // about 83,000 edges
    const Graph g = build(800, edges);
    REQUIRE(g.num_edges() >= graph::kGpuEdges);
    CliqueOptions cpu_options;
    cpu_options.backend = Backend::Cpu;
    CliqueSet all;
    graph::enumerate_maximal_cliques(g, cpu_options, [&](std::span<const Vertex> c) { all.emplace(c.begin(), c.end()); });
    const Combo defaults{SubtreeLevel::L2, InducedSubgraph::Auto, true, 0};
    const Run counted = run_gpu(g, defaults, 1, Backend::Auto, false);
    CHECK(counted.summary.backend == Backend::Cuda);
    CHECK(counted.summary.count == all.size());
    CliqueOptions auto_options;
    std::mutex mutex;
    CliqueSet batched;
    const CliqueSummary in_batches = graph::list_maximal_cliques(g, auto_options, [&](const graph::CliqueBatch& batch) {
        const std::lock_guard lock(mutex);
        for (std::size_t i = 0; i < batch.size(); ++i) batched.emplace(batch[i].begin(), batch[i].end());
    });
    CHECK(in_batches.backend == Backend::Cuda);
    CHECK(batched == all);
    const Run one_by_one = run_gpu(g, defaults, 1, Backend::Auto, true);
    CHECK(one_by_one.summary.backend == Backend::Cpu);
    CHECK(one_by_one.summary.note.find("one at a time") != std::string::npos);
    CHECK(one_by_one.cliques == all);
    const Run small = run_gpu(build(30, test::random_graph(30, 0.3, 1)), {SubtreeLevel::L1, InducedSubgraph::Auto, true, 0}, 1,
                              Backend::Auto);
    CHECK(small.summary.backend == Backend::Cpu);
    CHECK(small.summary.note.find("edges") != std::string::npos);
}

TEST_CASE("GPU cliques: batches through a ring that wraps, drained by one thread or many, equal the CPU's", "[gpu][cliques][batches]") {
    // About 6.7 M maximal cliques of 3 to 7 vertices: some 35 M words, twice the ring on an
    // H200 (4,096 slots of 4,096 words; fewer on a GPU with fewer workers), so the kernel
    // waits for slots the host threads give back out of order.
    const Vertex n = 2600;
    const auto edges = test::random_graph(n, 0.135, 21);
    const Graph g = build(n, edges);
    // Each clique's hash, sorted: equal lists mean equal cliques (as multisets).
    const auto hash = [](std::span<const Vertex> clique) {
        std::uint64_t h = 1469598103934665603ULL;
        for (const Vertex v : clique) h = (h ^ v) * 1099511628211ULL;
        return h;
    };
    CliqueOptions cpu_options;
    cpu_options.backend = Backend::Cpu;
    std::vector<std::uint64_t> expected;
    graph::enumerate_maximal_cliques(g, cpu_options, [&](std::span<const Vertex> c) { expected.push_back(hash(c)); });
    std::sort(expected.begin(), expected.end());
    REQUIRE(expected.size() > 5'000'000);
    const unsigned threads = GENERATE(1U, 16U);
    CAPTURE(threads);
    CliqueOptions options;
    options.backend = Backend::Cuda;
    options.threads = threads;
    std::mutex mutex;
    std::vector<std::uint64_t> got;
    bool well_formed = true;
    const CliqueSummary summary = graph::list_maximal_cliques(g, options, [&](const graph::CliqueBatch& batch) {
        std::vector<std::uint64_t> mine;
        bool ok = batch.offsets.size() >= 2 && batch.offsets.front() == 0 && batch.offsets.back() == batch.vertices.size();
        for (std::size_t i = 0; ok && i < batch.size(); ++i) {
            const auto clique = batch[i];
            ok = !clique.empty() && std::adjacent_find(clique.begin(), clique.end(), std::greater_equal<>()) == clique.end();
            mine.push_back(hash(clique));
        }
        const std::lock_guard lock(mutex);
        well_formed = well_formed && ok;
        got.insert(got.end(), mine.begin(), mine.end());
    });
    CHECK(summary.backend == Backend::Cuda);
    CHECK(well_formed);
    std::sort(got.begin(), got.end());
    CHECK(got.size() == expected.size());
    CHECK(got == expected);
}

TEST_CASE("GPU cliques: ids past 16 bits listed as they are, either side of 65,536 vertices", "[gpu][cliques][batches]") {
    // The ring carries 16-bit ids below 65,536 vertices and 32-bit ones from there. A cycle
    // with chords to the second neighbour has exactly the n triangles {v, v+1, v+2} mod n.
    const Vertex n = GENERATE(Vertex{65535}, Vertex{65536}, Vertex{70001});
    CAPTURE(n);
    std::vector<Edge> edges;
    for (Vertex v = 0; v < n; ++v) {
        edges.emplace_back(v, (v + 1) % n);
        edges.emplace_back(v, (v + 2) % n);
    }
    std::set<std::vector<Vertex>> expected;
    for (Vertex v = 0; v < n; ++v) {
        std::vector<Vertex> triangle{v, (v + 1) % n, (v + 2) % n};
        std::sort(triangle.begin(), triangle.end());
        expected.insert(triangle);
    }
    CliqueOptions options;
    options.backend = Backend::Cuda;
    std::mutex mutex;
    std::set<std::vector<Vertex>> got;
    std::size_t listed = 0;
    const CliqueSummary summary = graph::list_maximal_cliques(build(n, edges), options, [&](const graph::CliqueBatch& batch) {
        const std::lock_guard lock(mutex);
        for (std::size_t i = 0; i < batch.size(); ++i, ++listed) got.emplace(batch[i].begin(), batch[i].end());
    });
    CHECK(summary.backend == Backend::Cuda);
    CHECK(listed == n);
    CHECK(got == expected);
}

TEST_CASE("GPU cliques: a budget too small for one block falls back to the CPU", "[gpu][cliques][memory]") {
    const auto edges = near_bipartite(200, 0.9, 0.08, 2);
    const Graph g = build(200, edges);
    CliqueOptions options;
    options.backend = Backend::Cuda;
    options.gpu.memory_budget = 1024;
    CliqueSet got;
    const CliqueSummary summary =
        graph::enumerate_maximal_cliques(g, options, [&](std::span<const Vertex> c) { got.emplace(c.begin(), c.end()); });
    CHECK(summary.backend == Backend::Cpu);
    CHECK(summary.note.find("GPU ran out of memory") != std::string::npos);
    CHECK(got == test::listed_maximal_cliques(200, edges));
}

TEST_CASE("GPU cliques: cancellation stops the search and throws Cancelled", "[gpu][cliques][cancel]") {
    const auto edges = near_bipartite(400, 0.95, 0.1, 9);
    const Graph g = build(400, edges);
    // Cancelled from the sink at the first clique: the kernel is running by then.
    CancelToken cancel;
    Progress progress([](const std::string&, std::uint64_t, std::uint64_t) {}, &cancel);
    CliqueOptions options;
    options.backend = Backend::Cuda;
    options.progress = &progress;
    std::uint64_t delivered = 0;
    CHECK_THROWS_AS(graph::enumerate_maximal_cliques(g, options,
                                                     [&](std::span<const Vertex>) {
                                                         ++delivered;
                                                         cancel.request();
                                                     }),
                    Cancelled);
    CHECK(delivered > 0);
    CliqueOptions count_only;
    count_only.backend = Backend::Cpu;
    CHECK(delivered < graph::enumerate_maximal_cliques(g, count_only).count);
}

TEST_CASE("GPU cliques: a failing sink stops the search and its error comes out", "[gpu][cliques]") {
    const auto edges = near_bipartite(200, 0.9, 0.08, 4);
    const Graph g = build(200, edges);
    CliqueOptions options;
    options.backend = Backend::Cuda;
    std::size_t calls = 0;
    CHECK_THROWS_AS(graph::enumerate_maximal_cliques(g, options,
                                                     [&](std::span<const Vertex>) {
                                                         if (++calls == 10) throw Error("disk full");
                                                     }),
                    Error);
    CHECK(calls == 10);
}

TEST_CASE("GPU cliques: a clique larger than one output chunk (4,100 vertices)", "[gpu][cliques]") {
    const Vertex n = 4100;
    std::vector<Edge> edges;
    edges.reserve(static_cast<std::size_t>(n) * (n - 1) / 2);
    for (Vertex a = 0; a < n; ++a) {
        for (Vertex b = a + 1; b < n; ++b) edges.emplace_back(a, b);
    }
    const Graph g = build(n, edges);
    CliqueOptions options;
    options.backend = Backend::Cuda;
    options.gpu.memory_budget = std::size_t{8} << 30;  // a few thousand workers of 2 MiB each
    options.gpu.level = SubtreeLevel::L1;  // L2 would rebuild a 4,099-vertex subgraph for each of 8.4 M edges
    std::vector<std::vector<Vertex>> got;
    const CliqueSummary summary =
        graph::enumerate_maximal_cliques(g, options, [&](std::span<const Vertex> c) { got.emplace_back(c.begin(), c.end()); });
    INFO(summary.note);
    CHECK(summary.backend == Backend::Cuda);
    REQUIRE(got.size() == 1);
    CHECK(got[0].size() == n);
    CHECK(got[0].front() == 0);
    CHECK(got[0].back() == n - 1);
}
