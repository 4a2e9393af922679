// The HDF5 graph group (io::write_graph_h5, io::read_graph): round trips, cleanup of self
// loops and repeated rows, refusals naming the file and the dataset, and `spikeminer
// cliques` reading it like the edge list it came from.
#include "app_test_helpers.hpp"
#include "catch.hpp"
#include "cli_runner.hpp"
#include "hdf5_fixtures.hpp"
#include "test_paths.hpp"

#include "spikeminer/app/io/edge_list.hpp"
#include "spikeminer/core/error.hpp"

#include <random>
#include <string>
#include <vector>

using namespace spikeminer;
using graph::Vertex;
using test::contains;
using test::H5Fixture;

namespace {

// A fixture with the graph group's attributes; `vertices` < 0 leaves that attribute out.
void graph_group(H5Fixture& file, std::int64_t vertices, const std::string& format = "graph", std::int64_t version = 1) {
    file.group("/graph");
    file.string_attribute("/graph", "spikeminer_format", format);
    file.int_attribute("/graph", "spikeminer_format_version", version);
    if (vertices >= 0) file.int_attribute("/graph", "vertices", vertices);
}

std::vector<std::vector<Vertex>> adjacency(const graph::Graph& g) {
    std::vector<std::vector<Vertex>> lists;
    for (Vertex v = 0; v < g.num_vertices(); ++v) lists.emplace_back(g.neighbors(v).begin(), g.neighbors(v).end());
    return lists;
}

}  // namespace

TEST_CASE("graph h5: write then read gives the same graph", "[graph-h5]") {
    const test::TempDir dir;
    std::mt19937_64 random(GENERATE(1, 2, 3));
    const auto n = static_cast<Vertex>(5 + random() % 200);
    std::vector<std::pair<Vertex, Vertex>> edges;
    for (int k = 0; k < 600; ++k) edges.emplace_back(static_cast<Vertex>(random() % n), static_cast<Vertex>(random() % n));
    const graph::Graph original = graph::Graph::from_edges(n, edges);
    const std::string path = dir.file("g.h5");
    io::write_graph_h5(path, original);
    const io::EdgeListGraph read = io::read_graph(path);
    CHECK(read.graph.num_vertices() == n);
    CHECK(read.graph.num_edges() == original.num_edges());
    CHECK(adjacency(read.graph) == adjacency(original));
    CHECK(read.cleanup.self_loops == 0);
    CHECK(read.cleanup.duplicates == 0);
    CHECK(test::partial_files(dir.path()).empty());
}

TEST_CASE("graph h5: self loops and repeated rows are dropped and counted; isolated vertices kept", "[graph-h5]") {
    const test::TempDir dir;
    const std::string path = dir.file("g.h5");
    {
        H5Fixture file(path);
        graph_group(file, 6);
        file.int64_pairs("/graph/edges", {0, 1, 1, 0, 2, 2, 1, 2, 0, 1});
    }
    const io::EdgeListGraph read = io::read_graph(path);
    CHECK(read.graph.num_vertices() == 6);
    CHECK(read.graph.num_edges() == 2);
    CHECK(read.cleanup.self_loops == 1);
    CHECK(read.cleanup.duplicates == 2);
    CHECK(read.graph.degree(5) == 0);
}

TEST_CASE("graph h5: refusals name the file and what is wrong", "[graph-h5]") {
    const test::TempDir dir;
    const std::string path = dir.file("bad.h5");
    const auto refused = [&path](const std::string& what) {
        REQUIRE_THROWS_AS(io::read_graph(path), Error);
        REQUIRE_THROWS_WITH(io::read_graph(path), contains(path) && contains(what));
    };
    SECTION("no graph group") {
        {
            H5Fixture file(path);
            file.int64s("/other", {1});
        }
        refused("without a '/graph' group");
    }
    SECTION("not marked as a graph") {
        {
            H5Fixture file(path);
            graph_group(file, 3, "mining-results");
            file.int64_pairs("/graph/edges", {0, 1});
        }
        refused("spikeminer_format = \"graph\"");
    }
    SECTION("a newer version") {
        {
            H5Fixture file(path);
            graph_group(file, 3, "graph", 2);
            file.int64_pairs("/graph/edges", {0, 1});
        }
        refused("spikeminer_format_version 2");
    }
    SECTION("no vertex count, or zero") {
        {
            H5Fixture file(path);
            graph_group(file, GENERATE(-1, 0));
            file.int64_pairs("/graph/edges", {0, 1});
        }
        refused("'vertices'");
    }
    SECTION("a vertex beyond the count, or negative") {
        const std::int64_t bad = GENERATE(3, -1);
        {
            H5Fixture file(path);
            graph_group(file, 3);
            file.int64_pairs("/graph/edges", {0, 1, 1, bad});
        }
        refused("row 1");
    }
    SECTION("edges not a table of pairs") {
        {
            H5Fixture file(path);
            graph_group(file, 3);
            file.int64s("/graph/edges", {0, 1, 1, 2});
        }
        refused("/graph/edges");
    }
    SECTION("edges missing") {
        {
            H5Fixture file(path);
            graph_group(file, 3);
        }
        refused("/graph/edges");
    }
}

TEST_CASE("cli: cliques reads the HDF5 graph it wrote with --graph-out", "[graph-h5][cli]") {
    const test::TempDir dir;
    const std::string text = dir.file("g.txt");
    const std::string h5 = dir.file("g.h5");
    // Maximal cliques {0,1,2} {2,3} {4,5} {6,7,8,9}.
    test::write_file(text, "0 1\n1 2\n2 0\n2 3\n4 5\n6 7\n6 8\n6 9\n7 8\n7 9\n8 9\n");
    const test::CliResult first = test::run_cli({"cliques", text, "--count-only", "--graph-out", h5});
    INFO("stderr: " << first.err);
    REQUIRE(first.status == 0);
    CHECK(test::has(first.out, "4 maximal cliques"));
    const test::CliResult second = test::run_cli({"cliques", h5, "--count-only", "--histogram"});
    INFO("stderr: " << second.err);
    REQUIRE(second.status == 0);
    CHECK(test::has(second.out, "4 maximal cliques"));
    CHECK(test::has(second.out, "     4              1\n"));
    const test::CliResult broken = test::run_cli({"cliques", dir.file("missing.h5"), "--count-only"});
    CHECK(broken.status == 1);
}
