// The assemblies figure: every spike of the excerpt drawn once, in its row's colour
// (members of an assembly in that assembly's, others grey), members labelled at the top;
// a wrong extension or an empty excerpt refused before any file appears.
#include "catch.hpp"
#include "app_test_helpers.hpp"
#include "cli_runner.hpp"

#include "spikeminer/app/io/assembly_figure.hpp"
#include "spikeminer/core/error.hpp"

#include <filesystem>
#include <regex>

using namespace spikeminer;

namespace {

// The path of each row in drawing order: its stroke colour and how many spikes it draws.
std::vector<std::pair<std::string, std::size_t>> rows_of(const std::string& svg) {
    std::vector<std::pair<std::string, std::size_t>> rows;
    const std::regex path("<path stroke=\"([^\"]+)\" stroke-width=\"1\" d=\"([^\"]*)\"/>");
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), path); it != std::sregex_iterator(); ++it) {
        const std::string d = (*it)[2];
        rows.emplace_back((*it)[1], static_cast<std::size_t>(std::count(d.begin(), d.end(), 'M')));
    }
    return rows;
}

}  // namespace

TEST_CASE("assembly figure: rows, colours and the spikes of the excerpt", "[assemblies][figure]") {
    // Neurons a..e; spikes in ticks of 1 us; the excerpt is [100, 1000).
    const SpikeTrains trains = test::make_trains({"a", "b", "c", "d", "e"}, {{0, 50},    {0, 150}, {1, 200}, {1, 300}, {1, 999},
                                                                             {2, 1000}, {3, 400}, {4, 500}, {4, 600}, {2, 700}});
    const std::vector<std::vector<NeuronId>> assemblies = {{1, 4}, {0, 4}};  // e is in both: drawn with the first
    const test::TempDir dir;
    const std::string path = dir.file("raster.svg");
    io::write_assembly_figure(path, trains, assemblies, {100, 1000});
    const std::string svg = test::read_file(path);
    const auto rows = rows_of(svg);
    REQUIRE(rows.size() == 5);
    // b and e (first assembly, red), a (second, blue), then c and d in grey.
    CHECK(rows[0] == std::pair<std::string, std::size_t>{"#d62728", 3});  // b: 200, 300, 999
    CHECK(rows[1] == std::pair<std::string, std::size_t>{"#d62728", 2});  // e: 500, 600
    CHECK(rows[2] == std::pair<std::string, std::size_t>{"#1f77b4", 1});  // a: 150 (50 is before the excerpt)
    CHECK(rows[3] == std::pair<std::string, std::size_t>{"#b0b0b0", 1});  // c: 700 (1000 is its end)
    CHECK(rows[4] == std::pair<std::string, std::size_t>{"#b0b0b0", 1});  // d: 400
    CHECK(svg.find(">b</text>") != std::string::npos);
    CHECK(svg.find(">a</text>") != std::string::npos);
    CHECK(svg.find(">c</text>") == std::string::npos);  // only members are labelled
}

TEST_CASE("assembly figure: a wrong extension or an empty excerpt writes nothing", "[assemblies][figure]") {
    const SpikeTrains trains = test::make_trains({"a"}, {{0, 5}});
    const test::TempDir dir;
    CHECK_THROWS_AS(io::write_assembly_figure(dir.file("raster.png"), trains, {}, {0, 10}), UsageError);
    CHECK_THROWS_AS(io::write_assembly_figure(dir.file("raster.svg"), trains, {}, {10, 10}), UsageError);
    CHECK(std::filesystem::is_empty(dir.path()));
}
