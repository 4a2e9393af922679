// `spikeminer simulate` end to end: what it writes and prints, determinism by seed, and
// bad configurations refused as usage errors (exit 2) before any file is written.
#include "catch.hpp"
#include "cli_runner.hpp"

#include "spikeminer/app/io/read_spikes.hpp"
#include "spikeminer/app/io/simulation_io.hpp"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

using namespace spikeminer;
using test::CliResult;
using test::has;
using test::run_cli;

namespace {

std::vector<Tick> times(const SpikeTrains& trains) { return {trains.times().begin(), trains.times().end()}; }
std::vector<NeuronId> neurons(const SpikeTrains& trains) { return {trains.neurons().begin(), trains.neurons().end()}; }

}  // namespace

TEST_CASE("simulate cli: the paper scenario for 5 s", "[simulate-cli]") {
    const test::TempDir dir;
    const std::string out = dir.file("paper.h5");
    const CliResult result = run_cli({"simulate", "-o", out, "--duration", "5", "--seed", "3"});
    INFO("stdout: " << result.out << "\nstderr: " << result.err);
    REQUIRE(result.status == 0);
    CHECK(has(result.out, "simulated 64 neurons for 5 s"));
    CHECK(has(result.out, "seed 3"));
    CHECK(has(result.out, "chain 0: 9 neurons from 0, strength 0.8"));
    CHECK(has(result.out, "chain 1: 9 neurons from 9, strength 0.7"));
    CHECK(has(result.out, "chain 2: 9 neurons from 18, strength 0.6"));
    CHECK(has(result.out, "chain 3: 9 neurons from 27, strength 0.6"));
    CHECK(has(result.out, "with ground truth"));
    CHECK(test::partial_files(dir.path()).empty());

    const CliResult info = run_cli({"info", out, "--json"});
    INFO("info stderr: " << info.err);
    REQUIRE(info.status == 0);
    const nlohmann::json recording = nlohmann::json::parse(info.out)["recording"];
    CHECK(recording["neurons"] == 64);
    CHECK(recording["duration_s"] == 5.0);
    CHECK(recording["format"] == "spikeminer");
    CHECK(recording["spikes"].get<std::size_t>() > 0);

    const auto truth = io::read_ground_truth(out);
    REQUIRE(truth.has_value());
    CHECK(truth->chains.size() == 4);
    CHECK(truth->assemblies.empty());
    const nlohmann::json config = nlohmann::json::parse(truth->config_json);
    CHECK(config["seed"] == 3);
    CHECK(config["duration_s"] == 5.0);
}

TEST_CASE("simulate cli: --rate and --neurons apply to a scenario with per-neuron resting rates", "[simulate-cli]") {
    // The large scenario rests its assembly members (the first 6-10 of each ten from 200) at
    // 5 Hz, the others at 20 Hz.
    const test::TempDir dir;
    const auto config_of = [&](const std::vector<std::string>& flags) {
        std::vector<std::string> args = {"simulate", "-o", dir.file("large.h5"), "--scenario", "large", "--duration", "0.1"};
        args.insert(args.end(), flags.begin(), flags.end());
        std::filesystem::remove(dir.file("large.h5"));
        const CliResult result = run_cli(args);
        INFO("stdout: " << result.out << "\nstderr: " << result.err);
        REQUIRE(result.status == 0);
        return nlohmann::json::parse(io::read_ground_truth(dir.file("large.h5"))->config_json);
    };
    const nlohmann::json scenario = config_of({});
    REQUIRE(scenario["rest_rates_hz"].size() == 1000);
    CHECK(scenario["rest_rates_hz"][0] == 20.0);
    CHECK(scenario["rest_rates_hz"][200] == 5.0);

    const nlohmann::json rated = config_of({"--rate", "8"});
    CHECK(rated["rest_rates_hz"].empty());
    CHECK(rated["rest_rate_hz"] == 8.0);

    const nlohmann::json more = config_of({"--neurons", "1200"});
    REQUIRE(more["rest_rates_hz"].size() == 1200);
    CHECK(more["rest_rates_hz"][200] == 5.0);
    CHECK(more["rest_rates_hz"][1100] == 20.0);
}

TEST_CASE("simulate cli: --duration scales a scenario's active stretches, as run --simulate does", "[simulate-cli]") {
    const test::TempDir dir;
    const CliResult result = run_cli({"simulate", "-o", dir.file("demo.h5"), "--scenario", "demo", "--duration", "60"});
    INFO("stdout: " << result.out << "\nstderr: " << result.err);
    REQUIRE(result.status == 0);
    const auto truth = io::read_ground_truth(dir.file("demo.h5"));
    REQUIRE(truth.has_value());
    REQUIRE(truth->assemblies.size() == 6);
    // The demo's first assembly is active throughout, its second in the first half (of 240 s).
    const Tick second = 1'000'000;
    REQUIRE(truth->assemblies[0].active.size() == 1);
    CHECK(truth->assemblies[0].active[0] == TimeSpan{0, 60 * second});
    REQUIRE(truth->assemblies[1].active.size() == 1);
    CHECK(truth->assemblies[1].active[0] == TimeSpan{0, 30 * second});
}

TEST_CASE("simulate cli: the same seed gives the same spikes, another seed others", "[simulate-cli]") {
    const test::TempDir dir;
    const auto simulate = [&](const std::string& name, const std::string& seed) {
        const std::string out = dir.file(name);
        const CliResult result = run_cli({"simulate", "-o", out, "--duration", "5", "--seed", seed, "--chain",
                                          "40>41>42@0.7:2-4+loop", "--assembly", "50,51,52@1:2:0.9"});
        INFO("stderr: " << result.err);
        REQUIRE(result.status == 0);
        return out;
    };
    const std::string a = simulate("a.h5", "3");
    const std::string b = simulate("b.h5", "3");
    const std::string c = simulate("c.h5", "4");
    const SpikeTrains first = io::read_spikes(a);
    const SpikeTrains again = io::read_spikes(b);
    const SpikeTrains other = io::read_spikes(c);
    REQUIRE(first.num_spikes() > 0);
    CHECK(times(first) == times(again));
    CHECK(neurons(first) == neurons(again));
    CHECK(first.span() == again.span());
    CHECK(io::read_ground_truth(a) == io::read_ground_truth(b));
    CHECK(times(first) != times(other));
    CHECK(io::read_ground_truth(a) != io::read_ground_truth(c));
}

TEST_CASE("simulate cli: the given chain, link and assembly are embedded", "[simulate-cli]") {
    const test::TempDir dir;
    const std::string out = dir.file("custom.h5");
    const CliResult result =
        run_cli({"simulate", "-o", out, "--scenario", "none", "--neurons", "20", "--duration", "3", "--step-ms", "0.5",
                 "--chain", "0>1>2@0.8:2.5", "--link", "5>6@0.4:1-2", "--assembly", "10,11,12@2:1"});
    INFO("stdout: " << result.out << "\nstderr: " << result.err);
    REQUIRE(result.status == 0);
    CHECK(has(result.out, "chain 0: 3 neurons from 0, strength 0.8, first delay 2.5 ms"));
    CHECK(has(result.out, "assembly 0: 3 members from 10"));
    const auto truth = io::read_ground_truth(out);
    REQUIRE(truth.has_value());
    REQUIRE(truth->chains.size() == 1);
    CHECK(truth->chains[0].delays == std::vector<TimeSpan>(2, TimeSpan{2500, 2500}));
    REQUIRE(truth->assemblies.size() == 1);
    CHECK(truth->assemblies[0].jitter == 1000);
    const nlohmann::json config = nlohmann::json::parse(truth->config_json);
    CHECK(config["links"].size() == 1);
    CHECK(config["links"][0]["delay_steps"] == nlohmann::json::array({2, 4}));
    CHECK(io::read_spikes(out).num_neurons() == 20);
}

TEST_CASE("simulate cli: a csv output keeps no ground truth and says so", "[simulate-cli]") {
    const test::TempDir dir;
    const std::string out = dir.file("paper.csv");
    const CliResult result = run_cli({"simulate", "-o", out, "--duration", "2"});
    INFO("stderr: " << result.err);
    REQUIRE(result.status == 0);
    CHECK(has(result.out, "ground truth is kept only in the spikeminer HDF5 format"));
    CHECK_FALSE(io::read_ground_truth(out).has_value());
    CHECK(io::read_spikes(out).num_spikes() > 0);
}

TEST_CASE("simulate cli: a bad configuration exits 2, names the problem and writes nothing", "[simulate-cli]") {
    struct Case {
        std::vector<std::string> args;
        std::string message;
    };
    const Case bad = GENERATE(values<Case>({
        {{"--rate", "-5"}, "rate -5 Hz must be positive"},
        {{"--chain", "0>1@1.0:5"}, "probability 1 must lie in (0, 1)"},
        {{"--chain", "0>1@0.5:9000"}, "longer than the run"},
        {{"--chain", "0>70@0.5:5"}, "neuron 70 is out of range"},
        {{"--link", "3>64@0.5:5"}, "neuron 64 is out of range"},
        {{"--assembly", "1,2@0:2"}, "activation rate must be positive"},
        {{"--step-ms", "0"}, "step"},
        {{"--chain", "0>1@0.5"}, "'0>1@0.5'"},
        {{"--chain", "0>1@0.5:2.5", "--step-ms", "1"}, "'0>1@0.5:2.5'"},
        {{"--modulation", "square:1:2"}, "'square:1:2'"},
        {{"--modulation", "sine:10:1.5"}, "depth"},
        {{"--neurons", "0"}, "neurons"},
    }));
    const test::TempDir dir;
    const std::string out = dir.file("bad.h5");
    std::vector<std::string> args{"simulate", "-o", out, "--duration", "5"};
    args.insert(args.end(), bad.args.begin(), bad.args.end());
    CAPTURE(bad.args);
    const CliResult result = run_cli(args);
    INFO("stderr: " << result.err);
    CHECK(result.status == 2);
    CHECK(has(result.err, bad.message));
    CHECK(result.out.empty());
    CHECK(test::entry_count(dir.path()) == 0);
}

TEST_CASE("simulate cli: an unknown scenario exits 2 and writes nothing", "[simulate-cli]") {
    const test::TempDir dir;
    const std::string out = dir.file("bogus.h5");
    const CliResult result = run_cli({"simulate", "-o", out, "--scenario", "bogus"});
    CHECK(result.status == 2);
    CHECK(has(result.err, "bogus"));
    CHECK(test::entry_count(dir.path()) == 0);
}

TEST_CASE("simulate cli: without -o it exits 2", "[simulate-cli]") {
    const CliResult result = run_cli({"simulate", "--duration", "1"});
    CHECK(result.status == 2);
    CHECK(has(result.err, "--output"));
}

TEST_CASE("simulate cli: output into a missing folder exits 1 and creates nothing", "[simulate-cli]") {
    const test::TempDir dir;
    const std::string out = (dir.path() / "missing" / "sim.h5").string();
    const CliResult result = run_cli({"simulate", "-o", out, "--duration", "1"});
    CHECK(result.status == 1);
    CHECK(has(result.err, out));
    CHECK(test::entry_count(dir.path()) == 0);
}

TEST_CASE("simulate cli: --help exits 0", "[simulate-cli]") {
    const CliResult result = run_cli({"simulate", "--help"});
    CHECK(result.status == 0);
    CHECK(has(result.out + result.err, "Usage"));
    CHECK(has(result.out, "--chain"));
}
