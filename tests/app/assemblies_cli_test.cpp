// `spikeminer assemblies` end to end on a text recording with two synchronous groups in
// independent background firing: the groups are the assemblies it prints and writes;
// bad options are usage errors (exit 2) and leave no file.
#include "catch.hpp"
#include "cli_runner.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>

using namespace spikeminer;
using test::CliResult;
using test::run_cli;

namespace {

// Text spikes ("neuron<TAB>seconds"): 20 neurons at 5 Hz for 100 s, and groups {1,4,9}
// and {2,6,12,15} firing together (within 1 ms) 60 times each.
void write_recording(const std::string& path) {
    std::mt19937_64 random(3);
    std::ofstream out(path);
    std::uniform_real_distribution<double> second(0.0, 100.0);
    for (int n = 0; n < 20; ++n) {
        for (int s = 0; s < 500; ++s) out << n << '\t' << second(random) << '\n';
    }
    for (const std::vector<int>& group : {std::vector<int>{1, 4, 9}, std::vector<int>{2, 6, 12, 15}}) {
        for (int a = 0; a < 60; ++a) {
            const double at = second(random);
            for (const int n : group) out << n << '\t' << at + 0.001 * static_cast<double>(random() % 2) << '\n';
        }
    }
}

}  // namespace

TEST_CASE("assemblies cli: two synchronous groups are found, printed and written", "[cli][assemblies]") {
    const test::TempDir dir;
    const std::string spikes = dir.file("groups.txt");
    write_recording(spikes);
    const std::string out = dir.file("assemblies.json");
    const CliResult result = run_cli({"assemblies", spikes, "-o", out, "--backend", "cpu"});
    INFO("stdout: " << result.out << "\nstderr: " << result.err);
    REQUIRE(result.status == 0);
    CHECK(result.out.find("2 assemblies of at least 3 neurons") != std::string::npos);
    CHECK(result.out.find("4 neurons: 2 6 12 15") != std::string::npos);
    CHECK(result.out.find("3 neurons: 1 4 9") != std::string::npos);
    std::ifstream file(out);
    const nlohmann::json json = nlohmann::json::parse(file);
    REQUIRE(json["assemblies"].size() == 2);
    CHECK(json["assemblies"][0]["neurons"] == nlohmann::json({"2", "6", "12", "15"}));
    CHECK(json["assemblies"][1]["neurons"] == nlohmann::json({"1", "4", "9"}));
    CHECK(json["cofiring_edges"].size() == 3 + 6);
    for (const nlohmann::json& edge : json["cofiring_edges"]) {
        CHECK(edge["lags"] == "sync");
        CHECK(edge["p_adjusted"].get<double>() <= 0.01);
        CHECK(edge["count"].get<double>() > 2 * edge["expected"].get<double>());
    }
    CHECK(json["sync"] == "2");
    CHECK(json["baseline"] == "20-40");
}

TEST_CASE("assemblies cli: bad options exit 2 and write nothing", "[cli][assemblies]") {
    const test::TempDir dir;
    const std::string spikes = dir.file("groups.txt");
    write_recording(spikes);
    const std::string out = dir.file("never.json");
    // (A figure that cannot be written is refused before the JSON is.)
    for (const std::vector<std::string>& bad :
         {std::vector<std::string>{"--sync", "-1"}, {"--baseline", "1"}, {"--baseline", "1-2"}, {"--min-size", "1"}, {"--sync", "two"},
          {"--q", "0"}, {"--intervals", "0-5,3-8"}, {"--chance", "maybe"}, {"--figure", dir.file("raster.pdf")}}) {
        std::vector<std::string> args = {"assemblies", spikes, "-o", out};
        args.insert(args.end(), bad.begin(), bad.end());
        const CliResult result = run_cli(args);
        INFO(bad.front() << " " << bad.back() << ": " << result.err);
        CHECK(result.status == 2);
        CHECK(!std::filesystem::exists(out));
    }
    CHECK(run_cli({"assemblies", spikes, "-o", dir.file("assemblies.csv")}).status == 2);
}
