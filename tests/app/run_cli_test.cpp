// `spikeminer demo` and `spikeminer run` end to end: the demo finds what it embedded and can
// run again over its own results; run takes settings from a JSON file with the command line
// winning; wrong settings and folders are usage errors (exit 2) that write nothing; a real
// recording goes through the whole pipeline.
#include "catch.hpp"
#include "cli_runner.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>

using namespace spikeminer;
using test::CliResult;
using test::has;
using test::run_cli;

TEST_CASE("demo: the whole pipeline on its simulation, again over its own results", "[cli][pipeline]") {
    const test::TempDir dir;
    const std::string out = dir.file("demo");
    for (int run = 0; run < 2; ++run) {
        const CliResult result = run_cli({"demo", "-o", out, "--backend", "cpu"});
        INFO("stdout: " << result.out << "\nstderr: " << result.err);
        REQUIRE(result.status == 0);
        CHECK(has(result.out, "10 of 10 links found"));
        CHECK(has(result.out, "7 of 7 active stretches found"));
    }
    const auto summary = nlohmann::json::parse(test::read_file(out + "/summary.json"));
    CHECK(summary["recovery"]["assembly_recall"] == 1.0);
    CHECK(test::partial_files(dir.path()).empty());
}

TEST_CASE("run: settings from a file, the command line winning", "[cli][pipeline]") {
    const test::TempDir dir;
    const std::string config = dir.file("run.json");
    test::write_file(config, R"({"simulate": {"scenario": "demo", "duration_s": 60}, "cofiring": {"window_s": 20, "step_s": 2}})");
    const std::string out = dir.file("results");
    const CliResult result = run_cli({"run", "--config", config, "--window", "30", "--step", "5", "--backend", "cpu", "-o", out});
    INFO("stdout: " << result.out << "\nstderr: " << result.err);
    REQUIRE(result.status == 0);
    const auto summary = nlohmann::json::parse(test::read_file(out + "/summary.json"));
    CHECK(summary["config"]["cofiring"]["window_s"] == 30.0);
    CHECK(summary["config"]["cofiring"]["step_s"] == 5.0);
    CHECK(summary["config"]["simulate"]["duration_s"] == 60.0);
    CHECK(summary["windows"] == 7);
}

TEST_CASE("run: wrong settings and folders exit 2 and write nothing", "[cli][pipeline][bad-input]") {
    const test::TempDir dir;
    const std::string bad_key = dir.file("bad.json");
    test::write_file(bad_key, R"({"cofiring": {"windw_s": 20}})");
    const std::string full = dir.file("full");
    std::filesystem::create_directory(full);
    test::write_file(full + "/notes.txt", "mine");
    const std::string out = dir.file("never");
    const std::vector<std::vector<std::string>> refused = {
        {"run", "--simulate", "demo", "--config", bad_key, "-o", out},
        {"run", "--simulate", "demo", "--window", "10", "--step", "3", "-o", out},
        {"run", "--simulate", "demo", "--q", "0", "-o", out},
        {"run", "-o", out},
        {"run", test::data_file("songbird_spikes.txt"), "--simulate", "demo", "-o", out},
        {"run", "--simulate", "nowhere", "-o", out},
        {"run", "--simulate", "demo", "-o", full},
        {"demo", "-o", full},
    };
    for (const auto& args : refused) {
        const CliResult result = run_cli(args);
        INFO(args.back() << ": " << result.err);
        CHECK(result.status == 2);
        CHECK(!result.err.empty());
        CHECK(!std::filesystem::exists(out));
    }
    CHECK(test::read_file(full + "/notes.txt") == "mine");
    CHECK(test::partial_files(dir.path()).empty());
}

TEST_CASE("run: a real recording through the whole pipeline, at lags its 30 Hz time grid resolves", "[cli][pipeline]") {
    const test::TempDir dir;
    const std::string out = dir.file("songbird");
    const CliResult result = run_cli({"run", test::data_file("songbird_spikes.txt"), "--backend", "cpu", "-o", out});
    INFO("stdout: " << result.out << "\nstderr: " << result.err);
    REQUIRE(result.status == 0);
    CHECK(has(result.out, "songbird_spikes.txt: 74 neurons, 3336 spikes"));
    CHECK(!has(result.out, "recovered"));
    CHECK(has(result.err, "spikes lie on a grid of 33.33 ms, coarser than 1 ms"));
    const auto summary = nlohmann::json::parse(test::read_file(out + "/summary.json"));
    CHECK(summary["input_checksum"].get<std::string>().starts_with("crc32:"));
    // The median neuron fires at about 1.3 Hz: 50 spikes take 38 s, more than the recording,
    // which is then one window.
    CHECK(summary["windows"] == 1);
    CHECK(summary["config"]["cofiring"]["window_s"] == 40.0);
    CHECK(summary["config"]["cofiring"]["step_s"] == 4.0);
    // The delays the grid resolves: one and two frames; the calcium events of songbird HVC
    // hold sequences that beat chance there.
    CHECK(summary["config"]["mining"]["intervals_ms"] == "16.667-50,50-83.333");
    CHECK(summary["config"]["cofiring"]["baseline_ms"] == "183.333-350");
    CHECK(summary["episode_levels"][1]["beat_chance"].get<std::size_t>() > 0);
    // Delays finer than the grid are refused, naming it.
    const CliResult fine = run_cli({"run", test::data_file("songbird_spikes.txt"), "--mining-intervals", "0-5,5-10", "-o", dir.file("fine")});
    CHECK(fine.status == 2);
    CHECK(has(fine.err, "holds no lag of the recording's time grid"));
}
