// The test against chance on the GPU: the lag counts counted on the device from its end
// lists (runs of 256 ends a thread, summed) equal the host's, and mining with the test finds the CPU's episodes, counts and
// p-values on one device, on device 0 standing in for two, through a GPU counter that
// keeps no lists, and under a budget small enough to chunk every call.
#include "catch.hpp"
#include "mining_test_helpers.hpp"
#include "random_streams.hpp"

#include "spikeminer/mining/mine.hpp"
#include "spikeminer/simulator/simulate.hpp"

using namespace spikeminer;
using mining::Counter;
using mining::Episode;
using mining::Interval;

namespace {

// A minute of the paper scenario (four chains), mined at 0-5,5-10 ms with the test on.
struct ChainsMining {
    simulator::Simulation sim;
    mining::MiningOptions options;

    ChainsMining() {
        simulator::NetworkConfig config = simulator::scenario("paper");
        config.duration_s = 60.0;
        config.seed = 9021;
        sim = simulator::simulate(config);
        options.intervals = {{0, 5000}, {5000, 10000}};
        options.min_counts = {5};
        options.max_level = 5;
        options.chance = mining::ChanceTest{{20000, 40000}};
    }
};

void check_same(const mining::MiningResult& got, const mining::MiningResult& want) {
    REQUIRE(got.episodes.size() == want.episodes.size());
    for (std::size_t e = 0; e < want.episodes.size(); ++e) {
        INFO(test::describe(want.episodes[e].episode));
        CHECK(got.episodes[e].episode == want.episodes[e].episode);
        CHECK(got.episodes[e].count == want.episodes[e].count);
        CHECK(got.episodes[e].chance == want.episodes[e].chance);
    }
    REQUIRE(got.levels.size() == want.levels.size());
    for (std::size_t l = 0; l < want.levels.size(); ++l) {
        CHECK(got.levels[l].beat_chance == want.levels[l].beat_chance);
        CHECK(got.levels[l].chance_tests == want.levels[l].chance_tests);
    }
}

}  // namespace

TEST_CASE("GPU lag counts counted on the device equal the host's", "[gpu][mining][chance]") {
    const auto seed = GENERATE(range(std::uint64_t{1}, std::uint64_t{41}));
    const SpikeTrains trains = test::random_stream(seed, 5, 3000, 20000, seed % 2 == 0);
    const std::vector<Episode> episodes = test::random_episodes(seed, 5, 40);
    std::vector<Episode> tested;
    for (const Episode& e : episodes) {
        if (e.size() >= 2) tested.push_back(e);
    }
    const Interval baseline{12, 30};
    mining::EpisodeCounter cpu(trains, mining::CountOptions{.counter = Counter::Prefix, .backend = Backend::Cpu});
    mining::EpisodeCounter gpu(trains, mining::CountOptions{.counter = Counter::Prefix, .backend = Backend::Cuda});
    INFO("seed " << seed);
    CHECK(gpu.lag_counts(tested, baseline) == cpu.lag_counts(tested, baseline));
    // The device's lists made for the test serve the counting that follows.
    const mining::CountResult counted = gpu.count(tested, 2);
    CHECK(counted.backend == Backend::Cuda);
    CHECK(counted.counts == cpu.count(tested, 2).counts);
}

TEST_CASE("Mining with the test against chance on the GPU finds the CPU's episodes and p-values", "[gpu][mining][chance][simulated]") {
    const ChainsMining chains;
    mining::MiningOptions options = chains.options;
    options.count.backend = Backend::Cpu;
    const mining::MiningResult cpu = mining::mine(chains.sim.trains, options);
    REQUIRE(cpu.levels.size() >= 4);
    REQUIRE(cpu.episodes.size() > 100);
    SECTION("one device") {
        options.count.backend = Backend::Cuda;
        const mining::MiningResult gpu = mining::mine(chains.sim.trains, options);
        for (const auto& level : gpu.levels) CHECK(level.backend == Backend::Cuda);
        check_same(gpu, cpu);
    }
    SECTION("device 0 standing in for two") {
        options.count.backend = Backend::Cuda;
        options.count.devices = {0, 0};
        check_same(mining::mine(chains.sim.trains, options), cpu);
    }
    SECTION("a GPU counter that keeps no lists") {
        options.count.backend = Backend::Cuda;
        options.count.counter = Counter::AtomicCompact;
        check_same(mining::mine(chains.sim.trains, options), cpu);
    }
    SECTION("a budget small enough to chunk every call") {
        options.count.backend = Backend::Cuda;
        options.count.memory_budget = 1 << 20;  // ends read a few prefixes at a time
        options.count.gpu_memory_budget = 1 << 20;
        const mining::MiningResult chunked = mining::mine(chains.sim.trains, options);
        CHECK(chunked.stopped.empty());
        check_same(chunked, cpu);
    }
}
