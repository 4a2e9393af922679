// Maximal clique enumeration against oracles written from the definition: every graph of
// up to 6 vertices one by one and of 7 vertices as one disjoint union, random graphs of 7..30 vertices, bitsets of more than one word, and
// the options (min_size, limit, threads); the degeneracy order; Graph::from_edges.
#include "brute_force_cliques.hpp"
#include "catch.hpp"
#include "every_small_graph.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/progress.hpp"
#include "spikeminer/graph/cliques.hpp"
#include "spikeminer/graph/graph.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace spikeminer;
using graph::CliqueOptions;
using graph::CliqueSummary;
using graph::Graph;
using graph::Vertex;
using test::CliqueSet;
using test::Edge;

namespace {

Graph build(std::size_t vertices, const std::vector<Edge>& edges, graph::EdgeListCleanup* cleanup = nullptr) {
    return Graph::from_edges(static_cast<Vertex>(vertices), edges, cleanup);
}

std::string describe(std::size_t vertices, const std::vector<Edge>& edges) {
    std::ostringstream text;
    text << vertices << " vertices, edges:";
    for (const auto& [a, b] : edges) text << " " << a << "-" << b;
    return text.str();
}

// What one enumeration produced: the cliques as the sink saw them, and the summary.
struct Run {
    std::vector<std::vector<Vertex>> list;
    CliqueSummary summary;
    bool sorted_and_distinct = true;       // each clique sorted, no clique twice
    bool summary_matches_list = true;      // count and by_size agree with the list
    [[nodiscard]] CliqueSet set() const { return {list.begin(), list.end()}; }
};

Run enumerate(const Graph& g, std::size_t min_size, unsigned threads, std::uint64_t limit = 0) {
    CliqueOptions options;
    options.min_size = min_size;
    options.threads = threads;
    options.limit = limit;
    Run run;
    run.summary = graph::enumerate_maximal_cliques(g, options, [&run](std::span<const Vertex> clique) {
        run.list.emplace_back(clique.begin(), clique.end());
    });
    for (const auto& clique : run.list) {
        if (!std::is_sorted(clique.begin(), clique.end())) run.sorted_and_distinct = false;
    }
    if (run.set().size() != run.list.size()) run.sorted_and_distinct = false;
    std::vector<std::uint64_t> by_size;
    for (const auto& clique : run.list) {
        if (by_size.size() <= clique.size()) by_size.resize(clique.size() + 1, 0);
        ++by_size[clique.size()];
    }
    // Trailing zeros in summary.by_size are allowed.
    std::vector<std::uint64_t> reported = run.summary.by_size;
    while (!reported.empty() && reported.back() == 0) reported.pop_back();
    run.summary_matches_list = run.summary.count == run.list.size() && reported == by_size;
    return run;
}

// Checks one enumeration against the expected set; only a failure makes assertions, so
// the exhaustive loops stay fast and the first failing graph is the one reported.
void check_against(std::size_t vertices, const std::vector<Edge>& edges, const CliqueSet& expected, std::size_t min_size,
                   unsigned threads) {
    const Graph g = build(vertices, edges);
    const Run run = enumerate(g, min_size, threads);
    if (run.set() == expected && run.sorted_and_distinct && run.summary_matches_list && !run.summary.stopped_at_limit) {
        return;
    }
    INFO(describe(vertices, edges));
    CAPTURE(min_size, threads);
    CHECK(run.sorted_and_distinct);
    CHECK(run.summary_matches_list);
    CHECK(!run.summary.stopped_at_limit);
    REQUIRE(run.set() == expected);
}

bool is_permutation_of_vertices(const std::vector<Vertex>& order, std::size_t n) {
    std::vector<Vertex> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t i = 0; i < sorted.size(); ++i) {
        if (sorted[i] != i) return false;
    }
    return sorted.size() == n;
}

}  // namespace

TEST_CASE("oracles: subset brute force and clique listing agree", "[graph][cliques][oracle]") {
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        const std::size_t n = 1 + seed % 14;
        const double density = 0.1 * static_cast<double>(1 + seed % 9);
        const auto edges = test::random_graph(n, density, seed);
        INFO(describe(n, edges));
        REQUIRE(test::brute_force_maximal_cliques(n, edges) == test::listed_maximal_cliques(n, edges));
    }
    // Hand-checked: a triangle with a pendant vertex, and a 4-cycle.
    REQUIRE(test::brute_force_maximal_cliques(4, {{0, 1}, {1, 2}, {0, 2}, {2, 3}}) == CliqueSet{{0, 1, 2}, {2, 3}});
    REQUIRE(test::brute_force_maximal_cliques(4, {{0, 1}, {1, 2}, {2, 3}, {3, 0}}) ==
            CliqueSet{{0, 1}, {1, 2}, {2, 3}, {0, 3}});
    REQUIRE(test::naive_degeneracy(4, {{0, 1}, {1, 2}, {0, 2}, {2, 3}}) == 2);
}

// A team of threads; 0 would let the engine run small graphs on one thread.
constexpr unsigned kTeam = 4;

// One graph with its expected cliques of at least min_size vertices.
struct Case {
    std::size_t vertices;
    std::vector<Edge> edges;
    CliqueSet expected;
    std::size_t min_size;
    bool all_threads = false;  // also run on all threads
};

// Runs every case on one thread, then the marked ones on all threads. All-thread runs are
// kept few and together: each call opens a parallel region, and on a machine with more
// runnable threads than cores libgomp's spinning barriers make that cost milliseconds
// (about 12 ms a call measured at load 4 on 2 cores). Graphs of up to 16 vertices give a
// team too little to share to be worth the call.
void check_cases(const std::vector<Case>& cases) {
    for (const Case& c : cases) check_against(c.vertices, c.edges, c.expected, c.min_size, 1);
    for (const Case& c : cases) {
        if (c.all_threads) check_against(c.vertices, c.edges, c.expected, c.min_size, kTeam);
    }
}

TEST_CASE("maximal cliques: every graph of 1..5 vertices", "[graph][cliques]") {
    std::vector<Case> cases;
    for (std::size_t n = 1; n <= 5; ++n) {
        const std::uint64_t graphs = std::uint64_t{1} << (n * (n - 1) / 2);
        for (std::uint64_t mask = 0; mask < graphs; ++mask) {
            const auto edges = test::graph_from_mask(n, mask);
            const CliqueSet expected = test::brute_force_maximal_cliques(n, edges);
            const std::size_t min_size = 1 + mask % 5;
            cases.push_back({n, edges, expected, 1, mask % 8 == 0});
            cases.push_back({n, edges, test::at_least(expected, min_size), min_size, mask % 8 == 4});
        }
    }
    check_cases(cases);
}

TEST_CASE("maximal cliques: every graph of 6 vertices (all 2^15 edge sets)", "[graph][cliques]") {
    const std::size_t n = 6;
    std::vector<Case> cases;
    for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << 15); ++mask) {
        const auto edges = test::graph_from_mask(n, mask);
        const CliqueSet expected = test::brute_force_maximal_cliques(n, edges);
        const std::size_t min_size = 2 + mask % 4;
        cases.push_back({n, edges, expected, 1, mask % 128 == 0});
        cases.push_back({n, edges, test::at_least(expected, min_size), min_size, mask % 128 == 67});
    }
    check_cases(cases);
}

TEST_CASE("maximal cliques: every graph of 7 vertices at once (their disjoint union)", "[graph][cliques]") {
    const test::EverySmallGraph family = test::every_small_graph(7);
    test::ComponentCliques got(family.components);
    bool within_components = true;
    CliqueOptions options;
    options.backend = Backend::Cpu;
    const CliqueSummary summary = graph::enumerate_maximal_cliques(family.graph, options, [&](std::span<const Vertex> c) {
        within_components = test::add_union_clique(family, got, c) && within_components;
    });
    CHECK(within_components);
    std::size_t wrong = 0;
    for (std::size_t k = 0; k < family.components; ++k) {
        wrong += got.count[k] != family.expected.count[k] || got.digest[k] != family.expected.digest[k];
    }
    CHECK(wrong == 0);
    std::uint64_t total = 0;
    for (const std::uint64_t c : family.expected.count) total += c;
    CHECK(summary.count == total);
}

TEST_CASE("maximal cliques: 300 random graphs of 7..30 vertices at densities 0.1..0.9", "[graph][cliques]") {
    std::vector<Case> cases;
    for (std::uint64_t i = 0; i < 300; ++i) {
        const std::size_t n = 7 + i % 24;
        const double density = 0.1 * static_cast<double>(1 + (i / 3) % 9);
        const auto edges = test::random_graph(n, density, 1000 + i);
        const CliqueSet expected =
            n <= 16 ? test::brute_force_maximal_cliques(n, edges) : test::listed_maximal_cliques(n, edges);
        for (std::size_t min_size = 1; min_size <= 5; ++min_size) {
            const bool all_threads = n > 16 && (min_size == 1 || min_size == 1 + i % 5);
            cases.push_back({n, edges, test::at_least(expected, min_size), min_size, all_threads});
        }
    }
    check_cases(cases);
}

TEST_CASE("maximal cliques: subproblems wider than one 64-bit word", "[graph][cliques]") {
    SECTION("complete graphs K_n: one clique of all n vertices") {
        const std::size_t n = GENERATE(63, 64, 65, 66, 100, 128, 129, 130);
        std::vector<Edge> edges;
        for (Vertex a = 0; a < n; ++a) {
            for (Vertex b = a + 1; b < n; ++b) edges.emplace_back(a, b);
        }
        std::vector<Vertex> all(n);
        for (Vertex v = 0; v < n; ++v) all[v] = v;
        check_against(n, edges, CliqueSet{all}, 1, 1);
        check_against(n, edges, CliqueSet{all}, 1, kTeam);
        check_against(n, edges, CliqueSet{all}, n, kTeam);
        check_against(n, edges, CliqueSet{}, n + 1, kTeam);
    }
    SECTION("complete multipartite graphs: one clique per choice of a vertex from each part") {
        // 70 singleton parts and parts of sizes 3, 2, 3: 18 maximal cliques of 73 vertices.
        std::vector<std::size_t> part_of;
        for (std::size_t p = 0; p < 70; ++p) part_of.push_back(p);
        for (const auto& [part, size] : std::vector<std::pair<std::size_t, std::size_t>>{{70, 3}, {71, 2}, {72, 3}}) {
            for (std::size_t k = 0; k < size; ++k) part_of.push_back(part);
        }
        const std::size_t n = part_of.size();
        std::vector<Edge> edges;
        for (std::size_t a = 0; a < n; ++a) {
            for (std::size_t b = a + 1; b < n; ++b) {
                if (part_of[a] != part_of[b]) edges.emplace_back(static_cast<Vertex>(a), static_cast<Vertex>(b));
            }
        }
        CliqueSet expected;
        std::vector<Vertex> base(70);
        for (Vertex v = 0; v < 70; ++v) base[v] = v;
        for (Vertex a = 70; a < 73; ++a) {
            for (Vertex b = 73; b < 75; ++b) {
                for (Vertex c = 75; c < 78; ++c) {
                    auto clique = base;
                    clique.insert(clique.end(), {a, b, c});
                    expected.insert(clique);
                }
            }
        }
        REQUIRE(expected.size() == 18);
        check_against(n, edges, expected, 1, 1);
        check_against(n, edges, expected, 73, kTeam);
    }
    SECTION("a near-complete core with many earlier neighbours: P over two words, rows over three") {
        // Core 0..89: complete but for the pairs (0,1), (2,3), ..., (8,9). Outer 90..189:
        // each adjacent to a random 60% of the core, not to each other. The outer vertices
        // come first in the degeneracy order, so a core vertex's subproblem has up to 89
        // candidates (P over 2 words) and about 148 members (3 words): the excluded rows are
        // narrower than the candidates'. The maximal cliques, by construction: the core
        // with one end of each missing pair (32), and for each outer vertex o, o with its
        // core neighbours, one end of each missing pair inside them.
        const std::uint64_t seed = GENERATE(1, 2);
        std::mt19937_64 random(seed);
        const Vertex core = 90;
        const Vertex n = 190;
        const auto missing = [](Vertex a, Vertex b) { return a < 10 && b < 10 && a / 2 == b / 2; };
        std::vector<Edge> edges;
        for (Vertex a = 0; a < core; ++a) {
            for (Vertex b = a + 1; b < core; ++b) {
                if (!missing(a, b)) edges.emplace_back(a, b);
            }
        }
        std::vector<std::vector<Vertex>> core_neighbors(n);
        for (Vertex o = core; o < n; ++o) {
            for (Vertex c = 0; c < core; ++c) {
                if (random() % 10 < 6) {
                    edges.emplace_back(c, o);
                    core_neighbors[o].push_back(c);
                }
            }
        }
        // Every way of keeping one end of each missing pair that lies inside `members`.
        const auto choices = [&](const std::vector<Vertex>& members, CliqueSet& out, std::vector<Vertex> extra) {
            std::vector<Vertex> pairs;  // first ends of the pairs fully inside
            for (Vertex a = 0; a < 10; a += 2) {
                const bool has_a = std::find(members.begin(), members.end(), a) != members.end();
                const bool has_b = std::find(members.begin(), members.end(), a + 1) != members.end();
                if (has_a && has_b) pairs.push_back(a);
            }
            for (std::uint32_t pick = 0; pick < (1U << pairs.size()); ++pick) {
                std::vector<Vertex> clique = extra;
                for (const Vertex v : members) {
                    const auto at = std::find(pairs.begin(), pairs.end(), v - v % 2);
                    if (at == pairs.end() || v % 2 == ((pick >> (at - pairs.begin())) & 1U)) clique.push_back(v);
                }
                std::sort(clique.begin(), clique.end());
                out.insert(clique);
            }
        };
        CliqueSet expected;
        std::vector<Vertex> all_core(core);
        for (Vertex v = 0; v < core; ++v) all_core[v] = v;
        choices(all_core, expected, {});
        for (Vertex o = core; o < n; ++o) choices(core_neighbors[o], expected, {o});
        REQUIRE(expected.size() > 100 + 32);
        check_against(n, edges, expected, 1, 1);
        check_against(n, edges, expected, 1, kTeam);
        check_against(n, edges, test::at_least(expected, 70), 70, kTeam);
    }
    SECTION("random near-bipartite graphs of 150 vertices (degrees above 64)") {
        const std::uint64_t seed = GENERATE(1, 2, 3);
        const std::size_t n = 150;
        std::mt19937_64 random(seed);
        std::uniform_real_distribution<double> uniform(0.0, 1.0);
        std::vector<Edge> edges;
        for (Vertex a = 0; a < n; ++a) {
            for (Vertex b = a + 1; b < n; ++b) {
                const bool across = (a < 75) != (b < 75);
                if (uniform(random) < (across ? 0.9 : 0.08)) edges.emplace_back(a, b);
            }
        }
        const CliqueSet expected = test::listed_maximal_cliques(n, edges);
        for (std::size_t min_size = 1; min_size <= 4; ++min_size) {
            check_against(n, edges, test::at_least(expected, min_size), min_size, 1);
            check_against(n, edges, test::at_least(expected, min_size), min_size, kTeam);
        }
    }
}

TEST_CASE("maximal cliques: isolated vertices and graphs without edges", "[graph][cliques]") {
    SECTION("isolated vertices are maximal cliques of one vertex") {
        const std::vector<Edge> edges{{0, 1}, {1, 2}, {0, 2}, {4, 5}};
        const Graph g = build(7, edges);
        const Run run = enumerate(g, 1, 0);
        CHECK(run.set() == CliqueSet{{0, 1, 2}, {3}, {4, 5}, {6}});
        CHECK(run.summary.count == 4);
        REQUIRE(run.summary.by_size.size() >= 4);
        CHECK(run.summary.by_size[1] == 2);
        CHECK(run.summary.by_size[2] == 1);
        CHECK(run.summary.by_size[3] == 1);
        CHECK(enumerate(g, 2, 1).set() == CliqueSet{{0, 1, 2}, {4, 5}});
    }
    SECTION("n vertices and no edges: n cliques of one vertex") {
        const std::size_t n = GENERATE(1, 2, 5, 64, 65, 200);
        const Graph g = build(n, {});
        CHECK(g.num_vertices() == n);
        CHECK(g.num_edges() == 0);
        const Run run = enumerate(g, 1, 0);
        CHECK(run.summary.count == n);
        CHECK(run.list.size() == n);
        CHECK(run.set().size() == n);
        CHECK(run.summary_matches_list);
        for (const auto& clique : run.list) CHECK(clique.size() == 1);
        CHECK(enumerate(g, 2, 0).list.empty());
    }
    SECTION("no vertices at all") {
        const Run built = enumerate(build(0, {}), 1, 0);
        CHECK(built.list.empty());
        CHECK(built.summary.count == 0);
        CHECK(!built.summary.stopped_at_limit);
        const Run defaulted = enumerate(Graph{}, 1, 1);
        CHECK(defaulted.list.empty());
        CHECK(defaulted.summary.count == 0);
    }
}

TEST_CASE("maximal cliques: the sink may be empty; the summary still counts", "[graph][cliques]") {
    const auto edges = test::random_graph(20, 0.5, 77);
    const CliqueSet expected = test::listed_maximal_cliques(20, edges);
    CliqueOptions options;
    const CliqueSummary summary = graph::enumerate_maximal_cliques(build(20, edges), options);
    CHECK(summary.count == expected.size());
    std::vector<std::uint64_t> by_size;
    for (const auto& clique : expected) {
        if (by_size.size() <= clique.size()) by_size.resize(clique.size() + 1, 0);
        ++by_size[clique.size()];
    }
    std::vector<std::uint64_t> reported = summary.by_size;
    while (!reported.empty() && reported.back() == 0) reported.pop_back();
    CHECK(reported == by_size);
}

TEST_CASE("maximal cliques: limit stops after exactly N cliques when more exist", "[graph][cliques][limit]") {
    const unsigned threads = GENERATE(1U, kTeam);
    CAPTURE(threads);
    SECTION("disjoint triangles and random graphs") {
        std::vector<std::pair<std::size_t, std::vector<Edge>>> graphs;
        std::vector<Edge> triangles;
        for (Vertex t = 0; t < 40; ++t) {
            triangles.insert(triangles.end(), {{3 * t, 3 * t + 1}, {3 * t + 1, 3 * t + 2}, {3 * t, 3 * t + 2}});
        }
        graphs.emplace_back(120, triangles);
        graphs.emplace_back(25, test::random_graph(25, 0.5, 5));
        graphs.emplace_back(30, test::random_graph(30, 0.3, 6));
        for (const auto& [n, edges] : graphs) {
            INFO(describe(n, edges));
            const CliqueSet all = test::listed_maximal_cliques(n, edges);
            const auto total = static_cast<std::uint64_t>(all.size());
            REQUIRE(total > 20);
            const Graph g = build(n, edges);
            for (const std::uint64_t limit : {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{7}, total / 2, total - 1}) {
                CAPTURE(limit, total);
                const Run run = enumerate(g, 1, threads, limit);
                CHECK(run.list.size() == limit);
                CHECK(run.summary.count == limit);
                CHECK(run.summary.stopped_at_limit);
                CHECK(run.sorted_and_distinct);
                CHECK(run.summary_matches_list);
                const CliqueSet got = run.set();
                CHECK(std::includes(all.begin(), all.end(), got.begin(), got.end()));
            }
            for (const std::uint64_t limit : {total, total + 1, total * 10}) {
                CAPTURE(limit, total);
                const Run run = enumerate(g, 1, threads, limit);
                CHECK(run.set() == all);
                CHECK(run.summary.count == total);
                CHECK(!run.summary.stopped_at_limit);
            }
        }
    }
    SECTION("limit with min_size counts only the cliques reported") {
        const auto edges = test::random_graph(24, 0.6, 9);
        const CliqueSet big = test::at_least(test::listed_maximal_cliques(24, edges), 4);
        const auto total = static_cast<std::uint64_t>(big.size());
        REQUIRE(total > 5);
        const Graph g = build(24, edges);
        const Run under = enumerate(g, 4, threads, 5);
        CHECK(under.list.size() == 5);
        CHECK(under.summary.stopped_at_limit);
        for (const auto& clique : under.list) CHECK(big.count(clique) == 1);
        const Run exact = enumerate(g, 4, threads, total);
        CHECK(exact.set() == big);
        CHECK(!exact.summary.stopped_at_limit);
    }
}

TEST_CASE("degeneracy order: a permutation in which no vertex has more later neighbours than the degeneracy",
          "[graph][degeneracy]") {
    for (std::uint64_t i = 0; i < 200; ++i) {
        const std::size_t n = 1 + i % 40;
        const double density = 0.05 + 0.1 * static_cast<double>(i % 10);
        const auto edges = test::random_graph(n, density, 5000 + i);
        const Graph g = build(n, edges);
        const graph::DegeneracyOrder order = graph::degeneracy_order(g);
        INFO(describe(n, edges));
        REQUIRE(order.order.size() == n);
        REQUIRE(order.position.size() == n);
        REQUIRE(is_permutation_of_vertices(order.order, n));
        for (std::size_t k = 0; k < n; ++k) REQUIRE(order.position[order.order[k]] == k);
        // The naive peeling's degeneracy (least remaining degree removed each step), and no
        // vertex with more neighbours after it than that: the bound the clique search uses.
        REQUIRE(order.degeneracy == test::naive_degeneracy(n, edges));
        CliqueOptions cpu;  // and the clique summary reports it
        cpu.backend = Backend::Cpu;
        REQUIRE(graph::enumerate_maximal_cliques(g, cpu).degeneracy == order.degeneracy);
        std::size_t largest = 0;
        for (Vertex v = 0; v < n; ++v) {
            std::size_t later = 0;
            for (const Vertex u : g.neighbors(v)) later += order.position[u] > order.position[v] ? 1U : 0U;
            REQUIRE(later <= order.degeneracy);
            largest = std::max(largest, later);
        }
        REQUIRE(largest == order.degeneracy);
    }
}

TEST_CASE("degeneracy order: known values", "[graph][degeneracy]") {
    SECTION("complete graph K_n has degeneracy n - 1") {
        const std::size_t n = GENERATE(1, 2, 3, 10, 70);
        std::vector<Edge> edges;
        for (Vertex a = 0; a < n; ++a) {
            for (Vertex b = a + 1; b < n; ++b) edges.emplace_back(a, b);
        }
        CHECK(graph::degeneracy_order(build(n, edges)).degeneracy == n - 1);
    }
    SECTION("trees have degeneracy 1") {
        const std::size_t n = GENERATE(2, 3, 10, 100);
        std::vector<Edge> path;
        std::vector<Edge> star;
        std::vector<Edge> random_tree;
        std::mt19937_64 random(n);
        for (Vertex v = 1; v < n; ++v) {
            path.emplace_back(v - 1, v);
            star.emplace_back(0, v);
            random_tree.emplace_back(static_cast<Vertex>(random() % v), v);
        }
        CHECK(graph::degeneracy_order(build(n, path)).degeneracy == 1);
        CHECK(graph::degeneracy_order(build(n, star)).degeneracy == 1);
        CHECK(graph::degeneracy_order(build(n, random_tree)).degeneracy == 1);
    }
    SECTION("cycles have degeneracy 2") {
        const std::size_t n = GENERATE(3, 4, 5, 50);
        std::vector<Edge> cycle;
        for (Vertex v = 0; v < n; ++v) cycle.emplace_back(v, static_cast<Vertex>((v + 1) % n));
        CHECK(graph::degeneracy_order(build(n, cycle)).degeneracy == 2);
    }
    SECTION("no edges: degeneracy 0; no vertices: empty order") {
        CHECK(graph::degeneracy_order(build(5, {})).degeneracy == 0);
        const graph::DegeneracyOrder empty = graph::degeneracy_order(build(0, {}));
        CHECK(empty.order.empty());
        CHECK(empty.degeneracy == 0);
    }
}

TEST_CASE("Graph::from_edges drops and counts self loops and repeated edges", "[graph][from-edges]") {
    SECTION("duplicates in both directions and self loops") {
        const std::vector<Edge> edges{{0, 1}, {1, 0}, {0, 1}, {2, 2}, {1, 2}, {3, 3}, {3, 3}, {2, 1}, {0, 3}};
        graph::EdgeListCleanup cleanup;
        const Graph g = build(5, edges, &cleanup);
        CHECK(cleanup.self_loops == 3);
        CHECK(cleanup.duplicates == 3);
        CHECK(g.num_vertices() == 5);
        CHECK(g.num_edges() == 3);
        CHECK(g.degree(0) == 2);
        CHECK(g.degree(1) == 2);
        CHECK(g.degree(2) == 1);
        CHECK(g.degree(3) == 1);
        CHECK(g.degree(4) == 0);
        const auto n0 = g.neighbors(0);
        CHECK(std::vector<Vertex>(n0.begin(), n0.end()) == std::vector<Vertex>{1, 3});
        CHECK(g.adjacent(0, 1));
        CHECK(g.adjacent(1, 0));
        CHECK(g.adjacent(2, 1));
        CHECK(!(g.adjacent(2, 2)));
        CHECK(!(g.adjacent(3, 3)));
        CHECK(!(g.adjacent(0, 2)));
        CHECK(!(g.adjacent(4, 0)));
    }
    SECTION("neighbour lists are sorted and symmetric on a random multigraph") {
        std::mt19937_64 random(42);
        std::vector<Edge> edges;
        for (int k = 0; k < 2000; ++k) edges.emplace_back(static_cast<Vertex>(random() % 50), static_cast<Vertex>(random() % 50));
        std::set<Edge> distinct;
        std::size_t loops = 0;
        for (const auto& [a, b] : edges) {
            if (a == b) {
                ++loops;
            } else {
                distinct.insert({std::min(a, b), std::max(a, b)});
            }
        }
        graph::EdgeListCleanup cleanup;
        const Graph g = build(50, edges, &cleanup);
        CHECK(cleanup.self_loops == loops);
        CHECK(cleanup.duplicates == edges.size() - loops - distinct.size());
        CHECK(g.num_edges() == distinct.size());
        for (Vertex v = 0; v < 50; ++v) {
            const auto list = g.neighbors(v);
            CHECK(std::adjacent_find(list.begin(), list.end(), [](Vertex a, Vertex b) { return a >= b; }) == list.end());
            for (const Vertex u : list) CHECK(distinct.count({std::min(u, v), std::max(u, v)}) == 1);
        }
    }
    SECTION("without a cleanup record") {
        const std::vector<Edge> edges{{0, 1}, {1, 0}, {1, 1}};
        const Graph g = build(2, edges);
        CHECK(g.num_edges() == 1);
    }
    SECTION("an endpoint out of range throws Error") {
        const std::vector<Edge> first{{0, 1}, {3, 1}};
        REQUIRE_THROWS_AS(build(3, first), Error);
        REQUIRE_THROWS_WITH(build(3, first), test::contains("(3, 1)"));
        const std::vector<Edge> second{{0, 5}};
        REQUIRE_THROWS_AS(build(5, second), Error);
        const std::vector<Edge> loop{{4, 4}};
        REQUIRE_THROWS_AS(build(4, loop), Error);
        const std::vector<Edge> any{{0, 0}};
        REQUIRE_THROWS_AS(build(0, any), Error);
        const std::vector<Edge> huge{{0, 0xFFFFFFFFU}};
        REQUIRE_THROWS_AS(build(10, huge), Error);
    }
}

TEST_CASE("maximal cliques: all threads on larger sparse graphs; sink calls never overlap", "[graph][cliques][threads]") {
    const std::size_t n = GENERATE(60, 200, 500);
    const double density = n == 60 ? 0.3 : (n == 200 ? 0.08 : 0.03);
    const auto edges = test::random_graph(n, density, 31 + n);
    const CliqueSet expected = test::listed_maximal_cliques(n, edges);
    const Graph g = build(n, edges);
    CAPTURE(n, expected.size());
    std::atomic<int> inside{0};
    std::atomic<bool> overlapped{false};
    std::vector<std::vector<Vertex>> list;
    CliqueOptions options;
    options.threads = kTeam;
    const CliqueSummary summary = graph::enumerate_maximal_cliques(g, options, [&](std::span<const Vertex> clique) {
        if (inside.fetch_add(1) != 0) overlapped = true;
        list.emplace_back(clique.begin(), clique.end());
        inside.fetch_sub(1);
    });
    CHECK(!(overlapped.load()));
    CHECK(summary.count == list.size());
    CHECK(CliqueSet(list.begin(), list.end()) == expected);
    CHECK(list.size() == expected.size());
    for (std::size_t min_size = 2; min_size <= 4; ++min_size) {
        check_against(n, edges, test::at_least(expected, min_size), min_size, kTeam);
    }
}

TEST_CASE("maximal cliques: a failing sink stops every thread and its error comes out", "[graph][cliques][threads]") {
    const auto edges = test::random_graph(500, 0.03, 7);
    const Graph g = build(500, edges);
    CliqueOptions options;
    options.threads = kTeam;
    std::size_t calls = 0;  // the sink's calls never overlap
    REQUIRE_THROWS_WITH(graph::enumerate_maximal_cliques(g, options,
                                                         [&](std::span<const Vertex>) {
                                                             if (++calls == 10) throw Error("disk full");
                                                         }),
                        "disk full");
    CHECK(calls == 10);  // no clique handed over after the failure
}

TEST_CASE("maximal cliques: Cancel and a failing progress display end the search with their exception", "[graph][cliques]") {
    const auto edges = test::random_graph(500, 0.03, 8);
    const Graph g = build(500, edges);
    CliqueOptions options;
    options.threads = kTeam;
    SECTION("cancelled") {
        CancelToken cancel;
        cancel.request();
        Progress progress([](const std::string&, std::uint64_t, std::uint64_t) {}, &cancel);
        options.progress = &progress;
        REQUIRE_THROWS_AS(graph::enumerate_maximal_cliques(g, options), Cancelled);
    }
    SECTION("the display fails") {
        Progress progress([](const std::string&, std::uint64_t done, std::uint64_t) {
            if (done > 0) throw Error("display gone");
        }, nullptr);
        options.progress = &progress;
        REQUIRE_THROWS_WITH(graph::enumerate_maximal_cliques(g, options), "display gone");
    }
}
