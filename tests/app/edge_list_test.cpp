// Edge lists (io::read_edge_list) and `spikeminer cliques` end to end: separators,
// comments, gzip, cleanup counts, refusals naming the file and line, and the command's
// outputs checked against a brute-force clique list.
#include "app_test_helpers.hpp"
#include "brute_force_cliques.hpp"
#include "catch.hpp"
#include "cli_runner.hpp"
#include "test_paths.hpp"

#include "spikeminer/app/io/edge_list.hpp"
#include "spikeminer/core/device_query.hpp"
#include "spikeminer/core/error.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace spikeminer;
using graph::Vertex;
using test::CliResult;
using test::contains;
using test::has;
using test::run_cli;

namespace {

std::vector<Vertex> neighbours(const graph::Graph& g, Vertex v) {
    const auto list = g.neighbors(v);
    return {list.begin(), list.end()};
}

std::set<std::vector<Vertex>> parse_cliques(const std::string& text, bool* sorted_lines) {
    std::set<std::vector<Vertex>> cliques;
    std::istringstream lines(text);
    std::string line;
    *sorted_lines = true;
    std::size_t count = 0;
    while (std::getline(lines, line)) {
        std::istringstream fields(line);
        std::vector<Vertex> clique;
        Vertex v = 0;
        while (fields >> v) clique.push_back(v);
        if (!std::is_sorted(clique.begin(), clique.end())) *sorted_lines = false;
        cliques.insert(clique);
        ++count;
    }
    if (count != cliques.size()) *sorted_lines = false;  // a clique written twice
    return cliques;
}

}  // namespace

TEST_CASE("edge list: whitespace and comma separators, comments, extra columns", "[edge-list]") {
    const test::TempDir dir;
    SECTION("spaces, tabs, blank lines and surrounding whitespace") {
        const std::string path = dir.file("spaces.txt");
        test::write_file(path, "0 1\n1\t2\n\n   \n  2   3  \n\t3\t\t0\t\n");
        const io::EdgeListGraph read = io::read_edge_list(path);
        CHECK(read.graph.num_vertices() == 4);
        CHECK(read.graph.num_edges() == 4);
        CHECK(neighbours(read.graph, 0) == std::vector<Vertex>{1, 3});
        CHECK(neighbours(read.graph, 2) == std::vector<Vertex>{1, 3});
    }
    SECTION("commas, with or without spaces") {
        const std::string path = dir.file("commas.csv");
        test::write_file(path, "0,1\n1, 2\n2 ,3\n4,,5\n");
        const io::EdgeListGraph read = io::read_edge_list(path);
        CHECK(read.graph.num_vertices() == 6);
        CHECK(read.graph.num_edges() == 4);
        CHECK(read.graph.adjacent(4, 5));
        CHECK(read.graph.adjacent(2, 3));
    }
    SECTION("'#' and '%' comment lines; CRLF line ends; a last line without newline") {
        const std::string path = dir.file("comments.txt");
        test::write_file(path, "# SNAP style header\r\n% MatrixMarket style\r\n0 7\r\n#7 8\r\n%8 9\r\n7 3");
        const io::EdgeListGraph read = io::read_edge_list(path);
        CHECK(read.graph.num_vertices() == 8);
        CHECK(read.graph.num_edges() == 2);
        CHECK(neighbours(read.graph, 7) == std::vector<Vertex>{0, 3});
    }
    SECTION("further columns (weights, timestamps, text) are ignored") {
        const std::string path = dir.file("weighted.txt");
        test::write_file(path, "0 1 0.5\n1 2 17 1638400000\n2,0,weight=x\n");
        const io::EdgeListGraph read = io::read_edge_list(path);
        CHECK(read.graph.num_vertices() == 3);
        CHECK(read.graph.num_edges() == 3);
    }
    SECTION("the vertex count is the largest id + 1; unused ids are isolated vertices") {
        const std::string path = dir.file("sparse_ids.txt");
        test::write_file(path, "5 2\n");
        const io::EdgeListGraph read = io::read_edge_list(path);
        CHECK(read.graph.num_vertices() == 6);
        CHECK(read.graph.num_edges() == 1);
        CHECK(read.graph.degree(0) == 0);
    }
}

TEST_CASE("edge list: gzip input reads like the plain file", "[edge-list]") {
    const test::TempDir dir;
    const std::string text = "# gz\n0 1\n1 2\n2 0\n2 3\n3 3\n1 0\n";
    const std::string plain = dir.file("g.txt");
    const std::string packed = dir.file("g.txt.gz");
    test::write_file(plain, text);
    test::write_gzip(packed, text);
    const io::EdgeListGraph a = io::read_edge_list(plain);
    const io::EdgeListGraph b = io::read_edge_list(packed);
    CHECK(b.graph.num_vertices() == 4);
    CHECK(b.graph.num_edges() == 4);
    CHECK(b.cleanup.self_loops == 1);
    CHECK(b.cleanup.duplicates == 1);
    for (Vertex v = 0; v < 4; ++v) CHECK(neighbours(a.graph, v) == neighbours(b.graph, v));
}

TEST_CASE("edge list: self loops and repeated edges are dropped and counted", "[edge-list]") {
    const test::TempDir dir;
    const std::string path = dir.file("dirty.txt");
    test::write_file(path, "0 1\n1 0\n0 1\n2 2\n1 2\n4 4\n2 1\n0,1\n");
    const io::EdgeListGraph read = io::read_edge_list(path);
    CHECK(read.graph.num_edges() + read.cleanup.self_loops + read.cleanup.duplicates == 8);  // every line accounted for
    CHECK(read.cleanup.self_loops == 2);
    CHECK(read.cleanup.duplicates == 4);
    CHECK(read.graph.num_vertices() == 5);
    CHECK(read.graph.num_edges() == 2);
}

TEST_CASE("edge list: refusals name the file and the line", "[edge-list]") {
    const test::TempDir dir;
    const auto refused = [&](const std::string& name, const std::string& text, const std::string& where,
                             const std::string& what) {
        const std::string path = dir.file(name);
        test::write_file(path, text);
        INFO(name);
        REQUIRE_THROWS_AS(io::read_edge_list(path), Error);
        REQUIRE_THROWS_WITH(io::read_edge_list(path), contains(path + " line " + where) && contains(what));
    };
    SECTION("a non-numeric token") {
        refused("alpha.txt", "# c\n0 1\na 3\n", "3", "'a'");
        refused("alpha2.txt", "0 1\n3 b\n", "2", "'b'");
        refused("suffix.txt", "0 1\n2 3x\n", "2", "'3x'");
        refused("decimal.txt", "1.5 2\n", "1", "'1.5'");
    }
    SECTION("a negative id") {
        refused("negative.txt", "0 1\n1 2\n-1 2\n", "3", "'-1'");
        refused("negative2.txt", "0 -7\n", "1", "'-7'");
    }
    SECTION("an id of 2^32 or more") {
        refused("big.txt", "0 1\n4294967296 1\n", "2", "4294967296");
        refused("big2.txt", "0 4294967297\n", "1", "4294967297");
        refused("huge.txt", "99999999999999999999999 0\n", "1", "99999999999999999999999");
        // 2^32 - 1 would make the vertex count 2^32, which a Vertex cannot hold.
        refused("max.txt", "4294967295 0\n", "1", "4294967295");
    }
    SECTION("a largest id far beyond the ids the lines name") {
        // 777,777,778 vertices (12 GiB of tables) for 3 ids: found by the fuzzers, where a
        // 73-byte file took 9 GB and seconds, and ids near 2^32 all of the machine's memory.
        for (const std::string text : {"0 1\n5 000000777777777 2\n", "4294967294 0\n"}) {
            const std::string path = dir.file("sparse.txt");
            test::write_file(path, text);
            REQUIRE_THROWS_WITH(io::read_edge_list(path), contains(path) && contains("far beyond") && contains("renumber the ids"));
        }
    }
    SECTION("a line with one field") {
        refused("one.txt", "0 1\n1 2\n7\n", "3", "two vertex ids");
        refused("one_comma.txt", "0 1\n7,\n", "2", "two vertex ids");
    }
}

TEST_CASE("edge list: a file without edges is refused", "[edge-list]") {
    const test::TempDir dir;
    SECTION("empty") {
        const std::string path = dir.file("empty.txt");
        test::write_file(path, "");
        REQUIRE_THROWS_AS(io::read_edge_list(path), Error);
        REQUIRE_THROWS_WITH(io::read_edge_list(path), contains(path) && contains("no edges"));
    }
    SECTION("comments and blank lines only") {
        const std::string path = dir.file("comments.txt");
        test::write_file(path, "# nothing\n\n% here\n  \n");
        REQUIRE_THROWS_WITH(io::read_edge_list(path), contains(path) && contains("no edges"));
    }
    SECTION("gzip of an empty text") {
        const std::string path = dir.file("empty.txt.gz");
        test::write_gzip(path, "");
        REQUIRE_THROWS_WITH(io::read_edge_list(path), contains(path) && contains("no edges"));
    }
    SECTION("missing file") {
        REQUIRE_THROWS_WITH(io::read_edge_list(dir.file("absent.txt")), contains(dir.file("absent.txt")));
    }
}

TEST_CASE("cli: cliques --count-only, --histogram, --min-size", "[edge-list][cli]") {
    const test::TempDir dir;
    const std::string path = dir.file("g.txt");
    // Triangle 0-1-2 with a pendant 3, an isolated edge 4-5 and a K4 on 6..9: maximal
    // cliques {0,1,2} {2,3} {4,5} {6,7,8,9}.
    test::write_file(path, "0 1\n1 2\n2 0\n2 3\n4 5\n6 7\n6 8\n6 9\n7 8\n7 9\n8 9\n");
    SECTION("count only") {
        const CliResult result = run_cli({"cliques", path, "--count-only"});
        INFO("stderr: " << result.err);
        REQUIRE(result.status == 0);
        CHECK(has(result.out, "4 maximal cliques"));
        CHECK(has(result.err, "10 vertices"));
    }
    SECTION("histogram") {
        const CliResult result = run_cli({"cliques", path, "--count-only", "--histogram"});
        INFO("stdout: " << result.out << "\nstderr: " << result.err);
        REQUIRE(result.status == 0);
        CHECK(has(result.out, "size"));
        CHECK(has(result.out, "     2              2\n"));
        CHECK(has(result.out, "     3              1\n"));
        CHECK(has(result.out, "     4              1\n"));
        CHECK(!(has(result.out, "     1 ")));
    }
    SECTION("min size") {
        const CliResult result = run_cli({"cliques", path, "--count-only", "--min-size", "3", "--threads", "1"});
        INFO("stderr: " << result.err);
        REQUIRE(result.status == 0);
        CHECK(has(result.out, "2 maximal cliques of at least 3 vertices"));
    }
    SECTION("limit") {
        const CliResult result = run_cli({"cliques", path, "--count-only", "--limit", "3"});
        INFO("stderr: " << result.err);
        REQUIRE(result.status == 0);
        CHECK(has(result.out, "3 maximal cliques"));
        CHECK(has(result.out, "stopped at --limit"));
    }
}

TEST_CASE("cli: cliques -o writes every maximal clique once, sorted, one per line", "[edge-list][cli]") {
    const test::TempDir dir;
    const std::uint64_t seed = GENERATE(11, 12, 13);
    const std::size_t n = 14;
    std::mt19937_64 random(seed);
    std::vector<std::pair<Vertex, Vertex>> edges;
    std::string text = "# random graph\n";
    for (Vertex a = 0; a < n; ++a) {
        for (Vertex b = a + 1; b < n; ++b) {
            if (random() % 2 == 0) {
                edges.emplace_back(a, b);
                // Both directions now and then, which the reader must fold together.
                text += (random() % 3 == 0 ? std::to_string(b) + "," + std::to_string(a) : std::to_string(a) + " " + std::to_string(b)) + "\n";
            }
        }
    }
    text += std::to_string(n - 1) + " " + std::to_string(n - 1) + "\n";  // a self loop keeps vertex n-1 in the graph
    const std::string path = dir.file("random.txt");
    const std::string out = dir.file("out.txt");
    test::write_file(path, text);
    const auto expected = test::brute_force_maximal_cliques(n, edges);
    const CliResult result = run_cli({"cliques", path, "-o", out});
    INFO("stderr: " << result.err);
    REQUIRE(result.status == 0);
    CHECK(has(result.out, std::to_string(expected.size()) + " maximal cliques"));
    CHECK(has(result.out, "wrote " + out));
    bool sorted_lines = false;
    const auto written = parse_cliques(test::read_file(out), &sorted_lines);
    CHECK(sorted_lines);
    CHECK(written == expected);
    CHECK(test::partial_files(dir.path()).empty());
}

TEST_CASE("cli: cliques of an edge list count the ids its lines name, not those between them", "[edge-list][cli][bad-input]") {
    const test::TempDir dir;
    const std::string out = dir.file("out.txt");
    // Ids 2..4 and 8.. appear nowhere: they are not vertices (each was a clique of one).
    const std::string gaps = dir.file("gaps.txt");
    test::write_file(gaps, "0 1\n5 6\n6 7\n5 7\n");
    const CliResult listed = run_cli({"cliques", gaps, "-o", out, "--histogram"});
    REQUIRE(listed.status == 0);
    CHECK(has(listed.out, "2 maximal cliques"));
    CHECK(has(listed.err, "5 vertices, 4 edges"));
    bool sorted_lines = false;
    CHECK(parse_cliques(test::read_file(out), &sorted_lines) == test::CliqueSet{{0, 1}, {5, 6, 7}});
    CHECK(sorted_lines);
    // A file whose one line is a self loop names one vertex: one clique, {9}.
    const std::string loop = dir.file("loop.txt");
    test::write_file(loop, "9 9\n");
    const CliResult single = run_cli({"cliques", loop, "-o", out});
    REQUIRE(single.status == 0);
    CHECK(has(single.out, "1 maximal cliques"));
    CHECK(test::read_file(out) == "9\n");
    // Counted, not listed: the same.
    CHECK(has(run_cli({"cliques", gaps, "--count-only"}).out, "2 maximal cliques"));
}

TEST_CASE("cli: cliques refusals and their exit codes", "[edge-list][cli]") {
    const test::TempDir dir;
    const std::string path = dir.file("g.txt");
    test::write_file(path, "0 1\n");
    SECTION("--backend gpu runs on the GPU, or exits 1 saying why there is none") {
        const CliResult result = run_cli({"cliques", path, "--backend", "gpu", "--count-only"});
        INFO("stdout: " << result.out << "\nstderr: " << result.err);
        if (query_devices().devices.empty()) {
            CHECK(result.status == 1);
            CHECK(has(result.err, "GPU backend was asked for"));
        } else {
            CHECK(result.status == 0);
            CHECK(has(result.out, "1 maximal cliques (gpu"));
        }
    }
    SECTION("an unknown backend is a usage error") {
        CHECK(run_cli({"cliques", path, "--backend", "tpu"}).status == 2);
    }
    SECTION("a bad file exits 1 naming the file and line") {
        const std::string bad = dir.file("bad.txt");
        test::write_file(bad, "0 1\nx 2\n");
        const CliResult result = run_cli({"cliques", bad});
        CHECK(result.status == 1);
        CHECK(has(result.err, bad + " line 2"));
    }
    SECTION("a missing file exits 1") {
        const CliResult result = run_cli({"cliques", dir.file("absent.txt")});
        CHECK(result.status == 1);
        CHECK(has(result.err, "absent.txt"));
    }
    SECTION("no FILE exits 2") {
        CHECK(run_cli({"cliques"}).status == 2);
    }
    SECTION("a failed run leaves no output file") {
        const std::string bad = dir.file("bad.txt");
        test::write_file(bad, "0 1\n1\n");
        const std::string out = dir.file("out.txt");
        CHECK(run_cli({"cliques", bad, "-o", out}).status == 1);
        CHECK(!(std::filesystem::exists(out)));
    }
}
