// Edge streams (io::read_edge_stream), the sliding window over them (checked against the
// window's edges summed by brute force after every slide) and `spikeminer dyngraph`.
#include "app_test_helpers.hpp"
#include "catch.hpp"
#include "cli_runner.hpp"
#include "test_paths.hpp"

#include "spikeminer/app/io/edge_stream.hpp"
#include "spikeminer/app/sliding_window.hpp"
#include "spikeminer/core/device_query.hpp"
#include "spikeminer/core/error.hpp"
#include "spikeminer/graph/adjacency_sets.hpp"
#include "spikeminer/graph/cpu_pma.hpp"

#include <map>
#include <random>
#include <sstream>

using namespace spikeminer;
using graph::Vertex;
using test::contains;

TEST_CASE("edge stream: columns, comments, weights, times sorted stably", "[edge-stream]") {
    const test::TempDir dir;
    const std::string path = dir.file("s.txt");
    test::write_file(path, "% konect header\n# comment\n1 2 0.5 30\n\n2,3,1.5,10\n3\t1 2 10\n4 4 1 20 extra\n");
    io::EdgeStreamOptions options;
    options.columns = io::parse_stream_columns("src,dst,weight,time");
    const io::EdgeStream s = io::read_edge_stream(path, options);
    REQUIRE(s.edges.size() == 4);
    CHECK(s.vertices == 5);
    CHECK(s.out_of_order == 1);  // 10 after 30
    // Times 10, 10, 20, 30; the two at 10 keep their file order.
    CHECK((s.edges[0].src == 2 && s.edges[0].dst == 3 && s.edges[0].weight == 1.5F));
    CHECK((s.edges[1].src == 3 && s.edges[1].dst == 1 && s.edges[1].weight == 2.0F));
    CHECK((s.edges[2].src == 4 && s.edges[2].time == 20));
    CHECK((s.edges[3].src == 1 && s.edges[3].time == 30));
    SECTION("another column order, skipped fields, unit weights") {
        test::write_file(path, "100 x 7 8\n200 y 9 8\n");
        options.columns = io::parse_stream_columns("time,_,dst,src");
        const io::EdgeStream t = io::read_edge_stream(path, options);
        REQUIRE(t.edges.size() == 2);
        CHECK((t.edges[0].src == 8 && t.edges[0].dst == 7 && t.edges[0].weight == 1.0F && t.edges[0].time == 100));
        CHECK(t.out_of_order == 0);
    }
}

TEST_CASE("edge stream: refusals name the file and the line", "[edge-stream]") {
    const test::TempDir dir;
    const std::string path = dir.file("bad.txt");
    io::EdgeStreamOptions options;
    options.columns = io::parse_stream_columns("src,dst,weight,time");
    const auto refused = [&](const std::string& text, const std::string& what) {
        test::write_file(path, text);
        REQUIRE_THROWS_AS(io::read_edge_stream(path, options), Error);
        REQUIRE_THROWS_WITH(io::read_edge_stream(path, options), contains(path) && contains(what));
    };
    refused("1 2 1 5\n3 4 1\n", "line 2: expected 4 fields");
    refused("1 2 one 5\n", "line 1: weight 'one'");
    refused("1 2 nan 5\n", "not a finite number");
    refused("1 2 1 later\n", "time 'later'");
    refused("1 2 -3 5\n", "line 1: negative weight '-3'");
    refused("a 2 1 5\n", "vertex id 'a'");
    refused("# nothing\n", "holds no edges");
    options.vertices = 4;
    refused("1 2 1 5\n1 4 1 6\n", "line 2: vertex id 4 is beyond the 4 vertices declared");
    options.vertices = 0;
    options.signed_weights = true;
    test::write_file(path, "1 2 -3 5\n");
    CHECK(io::read_edge_stream(path, options).edges[0].weight == -3.0F);
    CHECK_THROWS_AS(io::parse_stream_columns("src,weight"), UsageError);
    CHECK_THROWS_AS(io::parse_stream_columns("src,dst,src"), UsageError);
    CHECK_THROWS_AS(io::parse_stream_columns("src,dst,colour"), UsageError);
}

TEST_CASE("sliding window: the graph equals the window's edges summed, after every slide", "[edge-stream][window]") {
    const std::uint64_t seed = GENERATE(1, 2, 3);
    std::mt19937_64 random(seed);
    const Vertex n = 12;  // few vertices: edges repeat often
    std::vector<io::StreamEdge> stream(3000);
    for (auto& e : stream) e = {static_cast<Vertex>(random() % n), static_cast<Vertex>(random() % n), static_cast<float>(1 + random() % 3), 0};
    const std::size_t size = 1 + random() % 500;
    const std::size_t step = 1 + random() % 200;
    app::SlidingWindow window(stream, size);
    graph::AdjacencySets sets(n);
    graph::CpuPma pma(n);
    const auto expect = [&](std::size_t begin, std::size_t end) {
        std::map<std::pair<Vertex, Vertex>, double> sum;
        for (std::size_t i = begin; i < end; ++i) sum[{stream[i].src, stream[i].dst}] += stream[i].weight;
        return sum;
    };
    const auto check = [&](std::size_t begin, std::size_t end) {
        INFO("seed " << seed << ", window " << size << ", step " << step << ", at " << begin);
        const auto want = expect(begin, end);
        REQUIRE(sets.num_edges() == want.size());
        REQUIRE(pma.num_edges() == want.size());
        for (const auto& [key, w] : want) {
            REQUIRE(sets.find(key.first, key.second) == static_cast<float>(w));
            REQUIRE(pma.find(key.first, key.second) == static_cast<float>(w));
        }
    };
    const app::WindowBatches first = window.fill();
    CHECK(first.erase.empty());
    CHECK(first.update.empty());
    apply(sets, first);
    apply(pma, first);
    check(0, size);
    std::size_t begin = 0;
    app::WindowBatches batches;
    while (window.slide(step, batches)) {
        const std::size_t k = std::min(step, stream.size() - (begin + size));
        begin += k;
        apply(sets, batches);
        apply(pma, batches);
        check(begin, begin + size);
    }
    CHECK(begin + size == stream.size());
    CHECK(!window.slide(step, batches));
}

TEST_CASE("cli: dyngraph slides over a stream, both structures alike, one CSV row per slide", "[edge-stream][cli]") {
    const test::TempDir dir;
    const std::string path = dir.file("s.txt");
    std::ostringstream text;
    std::mt19937_64 random(4);
    for (int i = 0; i < 400; ++i) text << random() % 30 << ' ' << random() % 30 << ' ' << i << '\n';
    test::write_file(path, text.str());
    // The CPU structures, and GPMA+ on the GPU where there is one: the same graph each time.
    std::vector<std::pair<std::string, std::string>> runs = {{"pma", "cpu"}, {"sets", "cpu"}};
    if (!query_devices().devices.empty()) runs.emplace_back("pma", "gpu");
    std::vector<std::string> csv;
    for (const auto& [structure, backend] : runs) {
        const std::string out = dir.file(structure + "-" + backend + ".csv");
        const test::CliResult r = test::run_cli({"dyngraph", path, "--columns", "src,dst,time", "--window", "100", "--batch", "30",
                                                 "--structure", structure, "--backend", backend, "--analytics", "bfs,cc,pagerank",
                                                 "-o", out});
        INFO("stdout: " << r.out << "\nstderr: " << r.err);
        REQUIRE(r.status == 0);
        CHECK(test::has(r.out, "10 slides of 30 stream edges"));  // (400 - 100) / 30
        if (backend == "gpu") CHECK(test::has(r.out, "GPMA+ on the GPU"));  // not a fallback to the CPU
        csv.push_back(test::read_file(out));
    }
    // The same graph after every slide: the columns up to the timings agree.
    const auto shape = [](const std::string& table) {
        std::istringstream in(table);
        std::string line;
        std::string kept;
        while (std::getline(in, line)) {
            std::istringstream fields(line);
            std::string f;
            for (int col = 0; std::getline(fields, f, ','); ++col) {
                if (col <= 4 || col == 7 || col == 9 || col == 11) kept += f + ",";
            }
            kept += "\n";
        }
        return kept;
    };
    CHECK(std::count(csv[0].begin(), csv[0].end(), '\n') == 11);
    for (std::size_t i = 1; i < csv.size(); ++i) CHECK(shape(csv[0]) == shape(csv[i]));
    CHECK(test::run_cli({"dyngraph", path, "--batch", "0"}).status == 2);
    CHECK(test::run_cli({"dyngraph", path, "--structure", "sets", "--backend", "gpu"}).status == 2);  // sets: CPU only
    CHECK(test::run_cli({"dyngraph", path, "--analytics", "diameter"}).status == 2);
    // Several GPUs share GPMA+ only.
    for (const char* other : {"--backend=cpu", "--structure=sets"}) {
        const test::CliResult r = test::run_cli({"dyngraph", path, "--devices", "0,1", other});
        CHECK(r.status == 2);
        CHECK(test::has(r.err, "--devices shares GPMA+"));
    }
    CHECK(test::run_cli({"dyngraph", dir.file("none.txt")}).status == 1);
}
