// The `spikeminer` command line: exit codes (0 ok, 1 runtime error, 2 usage error),
// what it prints, and `convert` end to end. Runs the built program through the shell.
#include "catch.hpp"
#include "cli_runner.hpp"

#include "spikeminer/app/io/read_spikes.hpp"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <string>
#include <vector>

using namespace spikeminer;
using test::CliResult;
using test::has;
using test::run_cli;

TEST_CASE("cli: info --json on the NWB file reports 3 neurons and 21354 spikes", "[cli]") {
    const std::string path = test::data_file("A8604-211122.nwb");
    const CliResult result = run_cli({"info", path, "--json"});
    INFO("stderr: " << result.err);
    REQUIRE(result.status == 0);
    const nlohmann::json json = nlohmann::json::parse(result.out);
    REQUIRE(json.contains("recording"));
    const nlohmann::json& recording = json["recording"];
    CHECK(recording["neurons"] == 3);
    CHECK(recording["spikes"] == 21354);
    CHECK(recording["active_neurons"] == 3);
    CHECK(recording["format"] == "nwb");
    CHECK(recording["ticks_per_second"] == 1000000);
    CHECK(recording["file"] == path);
    CHECK(recording["duplicates"].is_number_integer());
}

TEST_CASE("cli: info --json --neurons lists each unit with the counts of spike_times_index", "[cli]") {
    const CliResult result = run_cli({"info", test::data_file("A8604-211122.nwb"), "--json", "--neurons"});
    REQUIRE(result.status == 0);
    const nlohmann::json json = nlohmann::json::parse(result.out);
    const nlohmann::json& units = json["recording"]["per_neuron"];
    REQUIRE(units.size() == 3);
    // `h5dump -d /units/spike_times_index`: 11020, 15710, 21354; ids 6, 191, 206.
    CHECK(units[0]["label"] == "6");
    CHECK(units[0]["spikes"] == 11020);
    CHECK(units[1]["label"] == "191");
    CHECK(units[1]["spikes"] == 4690);
    CHECK(units[2]["label"] == "206");
    CHECK(units[2]["spikes"] == 5644);
}

TEST_CASE("cli: info in text on the songbird file", "[cli]") {
    const CliResult result = run_cli({"info", test::data_file("songbird_spikes.txt")});
    INFO("stderr: " << result.err);
    REQUIRE(result.status == 0);
    CHECK(has(result.out, "74"));
    CHECK(has(result.out, "3336"));
    CHECK(has(result.out, "text"));
    CHECK(has(result.out, "sorted on load"));
}

TEST_CASE("cli: info options --format, --tick and --duplicates", "[cli]") {
    const test::TempDir dir;
    const std::string path = dir.file("dups.txt");
    test::write_file(path, "1 0.5\n1 0.5\n2 0.0014\n");
    SECTION("--duplicates merge removes the duplicate") {
        const CliResult result = run_cli({"info", path, "--json", "--duplicates", "merge"});
        REQUIRE(result.status == 0);
        const nlohmann::json json = nlohmann::json::parse(result.out);
        CHECK(json["recording"]["spikes"] == 2);
        CHECK(json["recording"]["duplicates"] == 1);
    }
    SECTION("--duplicates keep (default) keeps it") {
        const CliResult result = run_cli({"info", path, "--json"});
        REQUIRE(result.status == 0);
        CHECK(nlohmann::json::parse(result.out)["recording"]["spikes"] == 3);
    }
    SECTION("--tick 1ms") {
        const CliResult result = run_cli({"info", path, "--json", "--tick", "1ms"});
        REQUIRE(result.status == 0);
        CHECK(nlohmann::json::parse(result.out)["recording"]["ticks_per_second"] == 1000);
    }
    SECTION("--format nwb on a text file is a runtime error naming the file") {
        const CliResult result = run_cli({"info", path, "--format", "nwb"});
        CHECK(result.status == 1);
        CHECK(has(result.err, path));
    }
    SECTION("bad values are usage errors") {
        CHECK(run_cli({"info", path, "--duplicates", "drop"}).status == 2);
        CHECK(run_cli({"info", path, "--tick", "7 parsecs"}).status == 2);
        CHECK(run_cli({"info", path, "--format", "matlab"}).status == 2);
    }
}

TEST_CASE("cli: info on a missing file exits 1 and names it", "[cli]") {
    const test::TempDir dir;
    const std::string path = dir.file("no-such-recording.nwb");
    const CliResult result = run_cli({"info", path});
    CHECK(result.status == 1);
    CHECK(has(result.err, path));
    CHECK(result.out.empty());
}

TEST_CASE("cli: info on a damaged file exits 1 and names it", "[cli]") {
    const test::TempDir dir;
    const std::string path = dir.file("bad.csv");
    test::write_file(path, "unit,time_s\n1,0.5\n2,abc\n");
    const CliResult result = run_cli({"info", path});
    CHECK(result.status == 1);
    CHECK(has(result.err, path + " line 3"));
}

TEST_CASE("cli: usage errors exit 2", "[cli]") {
    SECTION("an unknown option") {
        const CliResult result = run_cli({"info", "--bogus"});
        CHECK(result.status == 2);
        CHECK(has(result.err, "--bogus"));
    }
    SECTION("info without FILE and without --devices") {
        const CliResult result = run_cli({"info"});
        CHECK(result.status == 2);
        CHECK_FALSE(result.err.empty());
    }
    SECTION("no subcommand") { CHECK(run_cli({}).status == 2); }
    SECTION("an unknown subcommand") { CHECK(run_cli({"bogus"}).status == 2); }
    SECTION("convert without OUT") { CHECK(run_cli({"convert", test::data_file("songbird_spikes.txt")}).status == 2); }
    SECTION("convert to an unknown extension without --to") {
        const test::TempDir dir;
        const std::string out = dir.file("spikes.xyz");
        const CliResult result = run_cli({"convert", test::data_file("songbird_spikes.txt"), out});
        CHECK(result.status == 2);
        CHECK(has(result.err, "--to"));
        CHECK_FALSE(std::filesystem::exists(out));
    }
    SECTION("convert with an unknown --to") {
        const test::TempDir dir;
        const CliResult result =
            run_cli({"convert", test::data_file("songbird_spikes.txt"), dir.file("o.csv"), "--to", "matlab"});
        CHECK(result.status == 2);
        CHECK(test::entry_count(dir.path()) == 0);
    }
}

TEST_CASE("cli: info --devices exits 0 and reports the CUDA devices", "[cli]") {
    const CliResult result = run_cli({"info", "--devices"});
    INFO("stderr: " << result.err);
    CHECK(result.status == 0);
    CHECK(has(result.out, "CUDA devices"));
}

TEST_CASE("cli: info --devices --json is JSON with a device list", "[cli]") {
    const CliResult result = run_cli({"info", "--devices", "--json"});
    REQUIRE(result.status == 0);
    const nlohmann::json json = nlohmann::json::parse(result.out);
    CHECK(json["devices"]["devices"].is_array());
    CHECK(json["devices"]["status"].is_string());
}

TEST_CASE("cli: --help exits 0 for the program and each subcommand", "[cli]") {
    const std::vector<std::string> args = GENERATE(std::vector<std::string>{"--help"},
                                                   std::vector<std::string>{"info", "--help"},
                                                   std::vector<std::string>{"convert", "--help"});
    CAPTURE(args);
    const CliResult result = run_cli(args);
    CHECK(result.status == 0);
    CHECK(has(result.out + result.err, "Usage"));
}

TEST_CASE("cli: convert writes the format its extension or --to asks for", "[cli]") {
    const test::TempDir dir;
    const std::string in = test::data_file("songbird_spikes.txt");
    SECTION("by extension") {
        const std::string out = dir.file("songbird.h5");
        const CliResult result = run_cli({"convert", in, out});
        INFO("stderr: " << result.err);
        REQUIRE(result.status == 0);
        const SpikeTrains trains = io::read_spikes(out);
        CHECK(trains.metadata().at("source.format") == "spikeminer");
        CHECK(trains.num_neurons() == 74);
        CHECK(trains.num_spikes() == 3336);
        CHECK(trains.times().front() == 33333);
        CHECK(trains.times().back() == 22200000);
    }
    SECTION("by --to, whatever the extension") {
        const std::string out = dir.file("songbird.data");
        const CliResult result = run_cli({"convert", in, out, "--to", "waverepo"});
        REQUIRE(result.status == 0);
        const SpikeTrains trains = io::read_spikes(out);
        CHECK(trains.metadata().at("source.format") == "waverepo");
        CHECK(trains.num_neurons() == 74);
        CHECK(trains.num_spikes() == 3336);
    }
    CHECK(test::partial_files(dir.path()).empty());
}

TEST_CASE("cli: convert from a bad input exits 1 and leaves an existing output untouched", "[cli]") {
    const test::TempDir dir;
    const std::string in = dir.file("bad.csv");
    test::write_file(in, "unit,time_s\n1,0.5\n1,nan\n");
    const std::string out = dir.file("out.csv");
    test::write_file(out, "previous result\n");
    const CliResult result = run_cli({"convert", in, out});
    CHECK(result.status == 1);
    CHECK(has(result.err, in));
    CHECK(test::read_file(out) == "previous result\n");
    CHECK(test::partial_files(dir.path()).empty());
}

TEST_CASE("cli: convert into a missing folder exits 1 and creates nothing", "[cli]") {
    const test::TempDir dir;
    const std::string out = (dir.path() / "missing" / "out.csv").string();
    const CliResult result = run_cli({"convert", test::data_file("songbird_spikes.txt"), out});
    CHECK(result.status == 1);
    CHECK(has(result.err, out));
    CHECK(test::entry_count(dir.path()) == 0);
}
