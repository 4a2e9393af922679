// Mining results written as JSON, CSV and HDF5 hold every frequent episode and count.
#include "catch.hpp"
#include "cli_runner.hpp"

#include "spikeminer/app/io/mining_output.hpp"
#include "spikeminer/app/io/write_spikes.hpp"
#include "spikeminer/core/error.hpp"
#include "spikeminer/simulator/simulate.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

using namespace spikeminer;

namespace {

struct Mined {
    SpikeTrains trains;
    mining::MiningResult result;
};

Mined mine_small() {
    simulator::NetworkConfig config = simulator::scenario("paper");
    config.neurons = 12;
    config.chains.resize(1);  // neurons 0..8
    config.duration_s = 30.0;
    config.rest_rate_hz = 5.0;
    Mined mined{simulator::simulate(config).trains, {}};
    mining::MiningOptions options;
    options.intervals = {{0, 3000}, {3000, 8000}};
    options.min_counts = {40};
    options.max_level = 4;
    options.count.backend = Backend::Cpu;
    mined.result = mining::mine(mined.trains, options);
    return mined;
}

}  // namespace

TEST_CASE("mining results round-trip through HDF5", "[mining-output]") {
    const Mined mined = mine_small();
    REQUIRE(mined.result.episodes.size() > 12);  // more than the neurons alone
    const test::TempDir dir;
    const std::string path = dir.file("episodes.h5");
    io::write_mining_results(path, mined.trains, mined.result, "ms", false);
    const mining::MiningResult back = io::read_mining_results(path);
    REQUIRE(back.episodes.size() == mined.result.episodes.size());
    for (std::size_t i = 0; i < back.episodes.size(); ++i) {
        CHECK(back.episodes[i].episode == mined.result.episodes[i].episode);
        CHECK(back.episodes[i].count == mined.result.episodes[i].count);
    }
    REQUIRE(back.levels.size() == mined.result.levels.size());
    for (std::size_t l = 0; l < back.levels.size(); ++l) {
        CHECK(back.levels[l].candidates == mined.result.levels[l].candidates);
        CHECK(back.levels[l].frequent == mined.result.levels[l].frequent);
        CHECK(back.levels[l].threshold == mined.result.levels[l].threshold);
    }
}

TEST_CASE("mining results as JSON and CSV list every frequent episode", "[mining-output]") {
    const Mined mined = mine_small();
    const test::TempDir dir;
    io::write_mining_results(dir.file("e.json"), mined.trains, mined.result, "ms", true);
    const auto json = nlohmann::json::parse(test::read_file(dir.file("e.json")));
    REQUIRE(json["episodes"].size() == mined.result.episodes.size());
    for (std::size_t i = 0; i < mined.result.episodes.size(); ++i) {
        const auto& entry = json["episodes"][i];
        CHECK(entry["count"].get<std::uint64_t>() == mined.result.episodes[i].count);
        CHECK(entry["episode"].get<std::string>() == mining::format_episode(mined.result.episodes[i].episode, mined.trains));
        // The occurrences listed are the counted ones.
        CHECK(entry["occurrences_s"].size() == mined.result.episodes[i].count);
    }
    io::write_mining_results(dir.file("e.csv"), mined.trains, mined.result, "ms", false);
    const std::string csv = test::read_file(dir.file("e.csv"));
    CHECK(static_cast<std::size_t>(std::count(csv.begin(), csv.end(), '\n')) == mined.result.episodes.size() + 1);
    CHECK(csv.starts_with("level,count,episode\n"));
}

TEST_CASE("significance results are written in every format and read back from HDF5", "[mining-output]") {
    Mined mined = mine_small();
    // Made-up test results on the episodes of two neurons or more: the writers' round trip.
    std::size_t tested = 0;
    for (auto& found : mined.result.episodes) {
        if (found.episode.size() < 2) continue;
        found.significance = mining::SurrogateSignificance{found.count, 2.5, 1.25, 100 + tested, 0, 0.001 * double(tested + 1), 0.01, true};
        ++tested;
    }
    REQUIRE(tested > 0);
    const test::TempDir dir;
    io::write_mining_results(dir.file("e.h5"), mined.trains, mined.result, "ms", false);
    const mining::MiningResult back = io::read_mining_results(dir.file("e.h5"));
    REQUIRE(back.episodes.size() == mined.result.episodes.size());
    for (std::size_t i = 0; i < back.episodes.size(); ++i) {
        const auto& want = mined.result.episodes[i].significance;
        const auto& got = back.episodes[i].significance;
        REQUIRE(got.has_value() == want.has_value());
        if (!want) continue;
        CHECK(got->p == want->p);
        CHECK(got->p_adjusted == want->p_adjusted);
        CHECK(got->surrogate_mean == want->surrogate_mean);
        CHECK(got->surrogate_sd == want->surrogate_sd);
        CHECK(got->surrogates_used == want->surrogates_used);
    }
    io::write_mining_results(dir.file("e.json"), mined.trains, mined.result, "ms", false);
    const auto json = nlohmann::json::parse(test::read_file(dir.file("e.json")));
    for (std::size_t i = 0; i < mined.result.episodes.size(); ++i) {
        const auto& want = mined.result.episodes[i].significance;
        CHECK(json["episodes"][i].contains("significance") == want.has_value());
        if (want) CHECK(json["episodes"][i]["significance"]["surrogates"].get<std::size_t>() == want->surrogates_used);
    }
    io::write_mining_results(dir.file("e.csv"), mined.trains, mined.result, "ms", false);
    const std::string csv = test::read_file(dir.file("e.csv"));
    CHECK(csv.starts_with("level,count,episode,p,p_adjusted,surrogate_mean,surrogate_sd,surrogates\n"));
    CHECK(test::has(csv, ",0.001,0.01,2.5,1.25,100\n"));
}

TEST_CASE("mining results refuse other extensions and other files", "[mining-output]") {
    const Mined mined = mine_small();
    const test::TempDir dir;
    CHECK_THROWS_AS(io::write_mining_results(dir.file("e.txt"), mined.trains, mined.result, "ms", false), UsageError);
    io::write_spikes(dir.file("spikes.h5"), mined.trains, io::SpikeFormat::Spikeminer);
    CHECK_THROWS_WITH(io::read_mining_results(dir.file("spikes.h5")), test::contains("not a spikeminer mining-results file"));
}

TEST_CASE("cli: mine and count on a simulated recording", "[mining-output][cli]") {
    const test::TempDir dir;
    const std::string spikes = dir.file("sim.h5");
    REQUIRE(test::run_cli({"simulate", "--rate", "5", "--duration", "60", "--seed", "3", "-o", spikes}).status == 0);
    const test::CliResult mined = test::run_cli({"mine", spikes, "--intervals", "1-2,2-3,3-4,4-5,5-6,6-7", "--min-count",
                                                 "90,90,3", "--max-level", "3", "--backend", "cpu", "-o",
                                                 dir.file("e.h5")});
    INFO(mined.err);
    CHECK(mined.status == 0);
    CHECK(test::has(mined.out, "embedded chains (ground truth) recovered"));
    CHECK(io::read_mining_results(dir.file("e.h5")).episodes.size() > 0);
    // The first link of chain 0 (delay 2 ms) counted by `count`, against the mined count.
    const test::CliResult counted = test::run_cli({"count", spikes, "--episode", "0 -(1,2]-> 1", "--json", "--backend", "cpu"});
    CHECK(counted.status == 0);
    const auto json = nlohmann::json::parse(counted.out);
    const auto episodes = io::read_mining_results(dir.file("e.h5")).episodes;
    const auto found = std::find_if(episodes.begin(), episodes.end(), [](const auto& f) {
        return f.episode == mining::Episode{{0, 1}, {mining::Interval{1000, 2000}}};
    });
    REQUIRE(found != episodes.end());
    CHECK(json[0]["count"].get<std::uint64_t>() == found->count);
    CHECK(test::run_cli({"count", spikes, "--episode", "0 -(2,1]-> 1"}).status == 2);
    CHECK(test::run_cli({"count", spikes, "--episode", "0 -(1,2]-> nobody"}).status == 2);
    CHECK(test::run_cli({"mine", spikes, "--min-count", "0"}).status == 2);
    CHECK(test::run_cli({"mine", spikes, "--intervals", "1-2,1-2"}).status == 2);
    CHECK(test::run_cli({"mine", spikes, "--min-rate", "1e300"}).status == 2);
}

TEST_CASE("cli: mine under a memory budget small enough to chunk writes the same episodes, byte for byte", "[mining-output][cli][memory]") {
    const test::TempDir dir;
    const std::string spikes = dir.file("sim.h5");
    REQUIRE(test::run_cli({"simulate", "--scenario", "paper", "--neurons", "40", "--duration", "60", "--seed", "9031", "-o", spikes}).status == 0);
    const test::CliResult whole = test::run_cli({"mine", spikes, "--backend", "cpu", "-o", dir.file("whole.csv")});
    REQUIRE(whole.status == 0);
    // 4 MiB: the pair counts of 40 neurons and the lists kept fit; the lists are extended
    // some twenty episodes a call (a list may hold an entry per spike of its neuron, 1,500
    // here) and prefix ends read 65,536 at a time.
    const test::CliResult chunked = test::run_cli({"mine", spikes, "--backend", "cpu", "--memory-budget", "4M", "-o", dir.file("chunked.csv")});
    INFO(chunked.err);
    REQUIRE(chunked.status == 0);
    CHECK(!test::has(chunked.err, "not mined"));
    const std::string csv = test::read_file(dir.file("whole.csv"));
    CHECK(std::count(csv.begin(), csv.end(), '\n') > 100);
    CHECK(test::read_file(dir.file("chunked.csv")) == csv);
    // A budget too small for level 2's pair counts stops mining there, keeping level 1.
    const test::CliResult small = test::run_cli({"mine", spikes, "--backend", "cpu", "--memory-budget", "64K", "-o", dir.file("small.csv")});
    CHECK(small.status == 0);
    CHECK(test::has(small.err, "level 2 was not mined: its test against chance of 40 neurons needs"));
    CHECK(test::run_cli({"mine", spikes, "--memory-budget", "lots", "-o", dir.file("bad.csv")}).status == 2);
}
