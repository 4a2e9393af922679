// The output rule every command follows: what a command writes appears all together or
// not at all, and an output that is one of the inputs (by any path: the same name, a hard
// link, a symlink) is refused before the work, the input kept as it was.
#include "catch.hpp"
#include "app_test_helpers.hpp"
#include "cli_runner.hpp"
#include "test_paths.hpp"

#include "spikeminer/app/figures/figure.hpp"
#include "spikeminer/app/io/atomic_output.hpp"
#include "spikeminer/core/error.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

using namespace spikeminer;
namespace fs = std::filesystem;

namespace {

void write(const std::string& path, const std::string& text) {
    io::write_atomically(path, [&](std::ostream& out) { out << text; });
}

// Nothing but these names in the folder.
std::vector<std::string> names_in(const std::string& folder) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(folder)) names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

}  // namespace

TEST_CASE("output set: every file appears at commit, none when the work fails", "[output]") {
    const test::TempDir dir;
    const std::string a = dir.file("a.txt"), b = dir.file("b.txt");
    {
        io::OutputSet outputs({a, b}, {});
        write(a, "one");
        write(b, "two");
        CHECK(!fs::exists(a));  // waiting for the commit
        outputs.commit();
    }
    CHECK(test::read_file(a) == "one");
    CHECK(test::read_file(b) == "two");
    // The work fails after the first file: neither the new a nor any temporary file stays.
    CHECK_THROWS_AS(([&] {
                        io::OutputSet outputs({a, b}, {});
                        write(a, "three");
                        throw std::runtime_error("the work failed");
                    }()),
                    std::runtime_error);
    CHECK(test::read_file(a) == "one");
    CHECK(names_in(dir.path()) == std::vector<std::string>{"a.txt", "b.txt"});
    // Without a set, a write is in place at once.
    write(a, "four");
    CHECK(test::read_file(a) == "four");
}

TEST_CASE("output set: an output that is an input, twice named, a folder or in no folder is refused", "[output]") {
    const test::TempDir dir;
    const std::string input = dir.file("spikes.csv");
    test::write_file(input, "unit,time_s\n0,0.5\n");
    fs::create_hard_link(input, dir.file("hard.csv"));
    fs::create_symlink(input, dir.file("soft.csv"));
    fs::create_directory(dir.file("sub"));
    for (const std::string& output : {input, dir.file("hard.csv"), dir.file("soft.csv"), dir.file("sub/../spikes.csv")}) {
        INFO(output);
        CHECK_THROWS_AS(io::OutputSet({output}, {input}), UsageError);
    }
    CHECK_THROWS_AS(io::OutputSet({dir.file("out.json"), dir.file("out.json")}, {input}), UsageError);
    CHECK_THROWS_AS(io::OutputSet({dir.file("sub")}, {input}), Error);
    CHECK_THROWS_AS(io::OutputSet({dir.file("missing/out.json")}, {input}), Error);
    CHECK_NOTHROW(io::OutputSet({dir.file("out.json"), ""}, {input}));
}

TEST_CASE("cli: every command refuses to write over its input, and keeps it", "[output][cli]") {
    const test::TempDir dir;
    const std::string spikes = dir.file("spikes.csv");
    const std::string edges = dir.file("edges.txt");
    const std::string stream = dir.file("stream.txt");
    std::string spike_text = "unit,time_s\n";
    for (int i = 0; i < 50; ++i) spike_text += std::to_string(i % 3) + "," + std::to_string(0.01 * i) + "\n";
    test::write_file(spikes, spike_text);
    test::write_file(edges, "0 1\n1 2\n0 2\n");
    test::write_file(stream, "0 1 0\n1 2 1\n0 2 2\n2 3 3\n");
    fs::create_hard_link(spikes, dir.file("spikes-link.json"));
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"mine", spikes, "--min-count", "2", "-o", spikes}, spikes},
        {{"cofiring", spikes, "-o", spikes}, spikes},
        {{"convert", spikes, spikes}, spikes},
        {{"assemblies", spikes, "-o", dir.file("spikes-link.json")}, spikes},
        {{"cliques", edges, "-o", edges}, edges},
        {{"cliques", edges, "--graph-out", edges}, edges},
        {{"dyngraph", stream, "--columns", "src,dst,time", "-o", stream}, stream},
    };
    for (const auto& [args, input] : cases) {
        const std::string before = test::read_file(input);
        const test::CliResult result = test::run_cli(args);
        INFO(args.front() << ": " << result.err);
        CHECK(result.status == 2);
        CHECK(test::has(result.err, "is the input"));
        CHECK(test::read_file(input) == before);
    }
}

TEST_CASE("cli: a command with two outputs writes neither when one cannot be written", "[output][cli]") {
    const test::TempDir dir;
    const std::string spikes = dir.file("spikes.csv");
    test::write_file(spikes, "unit,time_s\n0,0.1\n1,0.1\n");
    const std::string json = dir.file("assemblies.json");
    const test::CliResult result = test::run_cli({"assemblies", spikes, "-o", json, "--figure", dir.file("missing/raster.svg")});
    if (figures::figures_available()) {
        CHECK(result.status == 1);
        CHECK(test::has(result.err, "does not exist"));
    } else {  // a build without Cairo refuses the figure first
        CHECK(result.status == 2);
        CHECK(test::has(result.err, "draws no figures"));
    }
    CHECK(!fs::exists(json));
    const std::string graph = dir.file("graph.h5");
    const std::string edges = dir.file("edges.txt");
    test::write_file(edges, "0 1\n");
    CHECK(test::run_cli({"cliques", edges, "--graph-out", graph, "-o", dir.file("missing/cliques.txt")}).status == 1);
    CHECK(!fs::exists(graph));
}
