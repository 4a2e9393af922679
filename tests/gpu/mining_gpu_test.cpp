// The GPU counters (CountScanWrite, AtomicCompact, prefix, one thread per episode) against the CPU two-step counter:
// tiny random streams batched per seed (mixed lengths), bursty streams, simulated data
// with every level-2 candidate, and a tiny memory budget that forces chunk splitting.
// Surrogates made on the device against the CPU's, spike for spike, and the p-values
// counted over them.
#include "catch.hpp"
#include "mining_test_helpers.hpp"
#include "random_streams.hpp"

#include "spikeminer/core/device_query.hpp"
#include "spikeminer/core/error.hpp"
#include "spikeminer/mining/count.hpp"
#include "spikeminer/mining/mine.hpp"
#include "spikeminer/mining/significance.hpp"
#include "spikeminer/mining/surrogates.hpp"
#include "spikeminer/simulator/simulate.hpp"

#include <algorithm>
#include <string>

using namespace spikeminer;
using mining::Counter;
using mining::Episode;
using mining::Interval;

namespace {

mining::CountResult on_gpu(const SpikeTrains& trains, const std::vector<Episode>& episodes, Counter counter,
                           std::size_t budget = 0) {
    mining::CountOptions options;
    options.counter = counter;
    options.backend = Backend::Cuda;
    options.gpu_memory_budget = budget;
    return mining::count_episodes(trains, episodes, options);
}

// Every GPU count equals the CPU two-step count; `fallback_ok` allows the documented
// fallback to the CPU when one end event needs more than the memory budget.
void check_gpu_equals_cpu(const SpikeTrains& trains, const std::vector<Episode>& episodes, std::size_t budget = 0,
                          bool fallback_ok = false) {
    const auto expected = test::cpu_counts(trains, episodes, Counter::TwoStep);
    for (const Counter counter : {Counter::CountScanWrite, Counter::AtomicCompact, Counter::Prefix, Counter::GpuFsm}) {
        const mining::CountResult result = on_gpu(trains, episodes, counter, budget);
        INFO("counter " << mining::counter_name(counter) << ", budget " << budget << ", note '" << result.note << "'");
        REQUIRE(result.counts.size() == episodes.size());
        if (!fallback_ok) {
            CHECK(result.backend == Backend::Cuda);
            CHECK(result.counter == counter);
            CHECK(result.note.empty());
        }
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < episodes.size(); ++i) {
            if (result.counts[i] == expected[i]) continue;
            if (++wrong <= 5) {  // the first few, in detail
                INFO("episode " << i << ": " << test::describe(episodes[i]));
                CHECK(result.counts[i] == expected[i]);
            }
        }
        CHECK(wrong == 0);
    }
}

}  // namespace

TEST_CASE("GPU counters equal two-step on tiny random streams, batched", "[gpu][mining]") {
    const auto seed = GENERATE(range(std::uint64_t{1}, std::uint64_t{201}));
    const test::TinyStream stream = test::tiny_stream(seed);
    // All the seed's episodes in one call: lengths 1 to 4 mixed.
    const std::vector<Episode> episodes = test::random_episodes(seed, stream.neurons, 40);
    CAPTURE(seed);
    check_gpu_equals_cpu(stream.trains, episodes);
}

TEST_CASE("GPU counters equal two-step on empty and one-spike streams", "[gpu][mining]") {
    const std::vector<Episode> episodes{Episode{{0}, {}}, Episode{{0, 1}, {Interval{0, 5}}},
                                        Episode{{1, 0, 1}, {Interval{0, 2}, Interval{2, 4}}}};
    check_gpu_equals_cpu(test::make_trains({}, 2), episodes);
    check_gpu_equals_cpu(test::make_trains({{3, 1}}, 2), episodes);
}

TEST_CASE("GPU counters equal two-step on bursty streams", "[gpu][mining]") {
    const auto seed = GENERATE(range(std::uint64_t{1}, std::uint64_t{6}));
    // 20,000 spikes of 8 neurons in 0..20,000 ticks with bursts of up to 20 spikes.
    const SpikeTrains trains = test::random_stream(seed, 8, 20'000, 20'000, true);
    test::Rng rng(seed * 7);
    std::vector<Episode> episodes;
    for (int i = 0; i < 300; ++i) {
        Episode episode = test::random_episode(rng, 8, 5);
        for (Interval& gap : episode.gaps) {
            gap.lo *= 3;
            gap.hi *= 3;
        }
        episodes.push_back(std::move(episode));
    }
    CAPTURE(seed);
    check_gpu_equals_cpu(trains, episodes);
    // A tiny budget: chunks of a few ends; a burst may need more than the budget for one
    // end, and then the documented fallback to the CPU must still give the same counts.
    check_gpu_equals_cpu(trains, episodes, 64 * 1024, true);
}

TEST_CASE("GPU counters equal two-step at both ends of the time range", "[gpu][mining]") {
    const auto seed = GENERATE(range(std::uint64_t{1}, std::uint64_t{4}));
    const SpikeTrains near_zero = test::random_stream(seed, 6, 2000, 4000, true);
    test::Rng rng(seed * 7);
    std::vector<Episode> episodes;
    for (int i = 0; i < 100; ++i) episodes.push_back(test::random_episode(rng, 6, 4));
    episodes.push_back(Episode{{0, 1}, {Interval{0, Tick{1} << 62}}});  // the widest bound an interval may have
    CAPTURE(seed);
    check_gpu_equals_cpu(test::shifted(near_zero, kMaxRecordingTick - near_zero.span().end + 1), episodes);
    check_gpu_equals_cpu(test::shifted(near_zero, -kMaxRecordingTick - near_zero.span().start), episodes);
}

TEST_CASE("GPU counters on one huge burst", "[gpu][mining]") {
    // A@0..999 (every tick), B@1..1000: each B end reaches hundreds of A.
    std::vector<Spike> spikes;
    for (Tick t = 0; t < 1000; ++t) {
        spikes.push_back(Spike{t, 0});
        spikes.push_back(Spike{t + 1, 1});
    }
    const SpikeTrains trains = test::make_trains(spikes, 2);
    const std::vector<Episode> episodes{
        Episode{{0, 1}, {Interval{0, 500}}}, Episode{{0, 0, 1}, {Interval{0, 300}, Interval{0, 300}}},
        Episode{{0, 1, 0, 1}, {Interval{0, 50}, Interval{0, 50}, Interval{0, 50}}}, Episode{{1}, {}},
        // Longer than a GPU thread's finite-state counter holds (16 nodes): counted on the CPU.
        Episode{{0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0}, std::vector<Interval>(16, Interval{0, 2})}};
    check_gpu_equals_cpu(trains, episodes);
    check_gpu_equals_cpu(trains, episodes, 64 * 1024, true);
}

TEST_CASE("GPU counters equal two-step on simulated data, all level-2 candidates", "[gpu][mining][simulated]") {
    simulator::NetworkConfig config = simulator::scenario("paper");
    config.duration_s = 20.0;
    const simulator::Simulation sim = simulator::simulate(config);
    REQUIRE(sim.trains.num_neurons() >= 16);
    // 1 us tick: (0,5] and (5,10] ms.
    const Tick ms = sim.trains.time_base().ticks_per_second / 1000;
    const std::vector<Interval> intervals{{0, 5 * ms}, {5 * ms, 10 * ms}};
    std::vector<Episode> episodes;
    for (NeuronId a = 0; a < 16; ++a) {
        for (NeuronId b = 0; b < 16; ++b) {
            for (const Interval& gap : intervals) episodes.push_back(Episode{{a, b}, {gap}});
        }
    }
    // Some of the embedded chains' level-3 and level-4 episodes too, in the same batch.
    for (NeuronId a = 0; a + 3 < 16; ++a) {
        episodes.push_back(Episode{{a, NeuronId(a + 1), NeuronId(a + 2)}, {intervals[0], intervals[1]}});
        episodes.push_back(
            Episode{{a, NeuronId(a + 1), NeuronId(a + 2), NeuronId(a + 3)}, {intervals[1], intervals[0], intervals[1]}});
    }
    SECTION("default budget") { check_gpu_equals_cpu(sim.trains, episodes); }
    SECTION("a 64 KiB budget splits the ends into many chunks") {
        check_gpu_equals_cpu(sim.trains, episodes, 64 * 1024);
    }
}

TEST_CASE("GPU counters equal two-step on a wide batch (one thread per episode for the greedy)", "[gpu][mining][simulated]") {
    simulator::NetworkConfig config = simulator::scenario("paper");
    config.duration_s = 10.0;
    const simulator::Simulation sim = simulator::simulate(config);
    const Tick ms = sim.trains.time_base().ticks_per_second / 1000;
    // 40 x 40 x 2 = 3,200 level-2 episodes: above the 2,048 at which the greedy walks.
    std::vector<Episode> episodes;
    for (NeuronId a = 0; a < 40; ++a) {
        for (NeuronId b = 0; b < 40; ++b) {
            episodes.push_back(Episode{{a, b}, {Interval{0, 3 * ms}}});
            episodes.push_back(Episode{{a, b}, {Interval{3 * ms, 8 * ms}}});
        }
    }
    check_gpu_equals_cpu(sim.trains, episodes);
}

namespace {

// 30 s of the paper scenario and five levels of mining over it: about 16,000 candidates at
// levels 3 and 4, 7,000 at 5.
struct PaperMining {
    simulator::Simulation sim;
    mining::MiningOptions options;

    PaperMining() {
        simulator::NetworkConfig config = simulator::scenario("paper");
        config.duration_s = 30.0;
        sim = simulator::simulate(config);
        const Tick ms = sim.trains.time_base().ticks_per_second / 1000;
        options.intervals = {{ms, 2 * ms}, {2 * ms, 3 * ms}, {3 * ms, 4 * ms}, {4 * ms, 5 * ms}, {5 * ms, 6 * ms}};
        options.min_counts = {100, 100, 25};
        options.max_level = 5;
    }
};

}  // namespace

TEST_CASE("Whole mining on the GPU equals mining on the CPU (one counter reused level after level)", "[gpu][mining][simulated]") {
    const PaperMining paper;
    const simulator::Simulation& sim = paper.sim;
    mining::MiningOptions options = paper.options;
    options.count.backend = Backend::Cpu;
    options.count.counter = Counter::TwoStep;
    const mining::MiningResult cpu = mining::mine(sim.trains, options);
    REQUIRE(cpu.levels.size() >= 3);
    const auto as_list = [](const mining::MiningResult& r) {
        std::vector<std::pair<std::string, std::uint64_t>> list;
        for (const auto& f : r.episodes) list.emplace_back(test::describe(f.episode), f.count);
        std::sort(list.begin(), list.end());
        return list;
    };
    for (const Counter counter : {Counter::Auto, Counter::CountScanWrite, Counter::AtomicCompact, Counter::Prefix, Counter::GpuFsm}) {
        mining::MiningOptions gpu = options;
        gpu.count.backend = Backend::Cuda;
        gpu.count.counter = counter;
        const mining::MiningResult result = mining::mine(sim.trains, gpu);
        INFO("counter " << mining::counter_name(counter));
        CHECK(as_list(result) == as_list(cpu));
        REQUIRE(result.levels.size() == cpu.levels.size());
        bool any_on_gpu = false;
        for (const auto& level : result.levels) any_on_gpu = any_on_gpu || level.backend == Backend::Cuda;
        CHECK(any_on_gpu);
    }
}

TEST_CASE("Mining with the prefix counter shared over devices equals one device (device 0 twice, and every visible device)",
          "[gpu][mining][simulated][devices]") {
    const PaperMining paper;
    const simulator::Simulation& sim = paper.sim;
    mining::MiningOptions options = paper.options;
    options.count.backend = Backend::Cuda;
    options.count.counter = Counter::Prefix;
    const mining::MiningResult one = mining::mine(sim.trains, options);
    REQUIRE(one.levels.size() >= 3);
    std::vector<int> every;
    for (std::size_t d = 0; d < query_devices().devices.size(); ++d) every.push_back(static_cast<int>(d));
    for (const std::vector<int>& devices : {std::vector<int>{0, 0}, std::vector<int>{0, 0, 0}, every}) {
        mining::MiningOptions shared = options;
        shared.count.devices = devices;
        const mining::MiningResult result = mining::mine(sim.trains, shared);
        INFO(devices.size() << " devices");
        REQUIRE(result.levels.size() == one.levels.size());
        for (std::size_t l = 0; l < one.levels.size(); ++l) {
            CHECK(result.levels[l].backend == Backend::Cuda);
            CHECK(result.levels[l].candidates == one.levels[l].candidates);
        }
        REQUIRE(result.episodes.size() == one.episodes.size());
        for (std::size_t e = 0; e < one.episodes.size(); ++e) {
            CHECK(result.episodes[e].episode == one.episodes[e].episode);
            CHECK(result.episodes[e].count == one.episodes[e].count);
        }
    }
    mining::MiningOptions csw = options;
    csw.count.counter = Counter::CountScanWrite;
    csw.count.devices = {0, 0};
    CHECK_THROWS_AS(mining::mine(sim.trains, csw), UsageError);
}

TEST_CASE("Surrogates made on the GPU are the CPU's, spike for spike and in stream order", "[gpu][mining][significance]") {
    simulator::NetworkConfig config = simulator::scenario("paper");
    config.duration_s = 10.0;
    const simulator::Simulation sim = simulator::simulate(config);
    const Tick ms = sim.trains.time_base().ticks_per_second / 1000;
    // Bursts put spikes of a neuron closer than the refractory period and on one tick; the
    // negative start and the dither longer than the span test the clamps and the wrap.
    const SpikeTrains bursty = test::random_stream(9, 12, 4000, 20'000, true);
    struct Case {
        const char* name;
        const SpikeTrains* trains;
        Tick dither;
        Tick refractory;
    };
    const SpikeTrains early = test::shifted(bursty, -7'000);
    const SpikeTrains tiny = test::random_stream(4, 3, 40, 30, true);
    const Case cases[] = {{"paper scenario", &sim.trains, 5 * ms, ms},
                          {"bursts", &bursty, 12, 3},
                          {"bursts before tick 0", &early, 40, 0},
                          {"dither longer than the span", &tiny, 500, 2}};
    for (const Case& c : cases) {
        for (const auto kind : {mining::SurrogateKind::Dither, mining::SurrogateKind::JointIsi, mining::SurrogateKind::Shift}) {
            for (const std::uint64_t index : {0, 11}) {
                INFO(c.name << ", " << mining::surrogate_name(kind) << ", surrogate " << index);
                const mining::SurrogateOptions options{kind, c.dither, c.refractory, 5};
                const SpikeTrains expected = mining::make_surrogate(*c.trains, options, index);
                const SpikeTrains got = mining::make_surrogate_on_gpu(*c.trains, options, index);
                CHECK_FALSE(got.was_sorted_on_load());  // the device's stream came in time order
                REQUIRE(got.num_spikes() == expected.num_spikes());
                CHECK(std::equal(got.times().begin(), got.times().end(), expected.times().begin()));
                CHECK(std::equal(got.neurons().begin(), got.neurons().end(), expected.neurons().begin()));
                CHECK(got.span() == expected.span());
            }
        }
    }
}

TEST_CASE("Significance by surrogates counted on the GPU equals the CPU's, p-value by p-value", "[gpu][mining][significance]") {
    simulator::NetworkConfig config = simulator::scenario("paper");
    config.duration_s = 20.0;
    const simulator::Simulation sim = simulator::simulate(config);
    const Tick ms = sim.trains.time_base().ticks_per_second / 1000;
    std::vector<Episode> pairs;
    for (NeuronId a = 0; a < 24; ++a) {
        for (NeuronId b = 0; b < 24; ++b) {
            if (a != b) pairs.push_back(Episode{{a, b}, {Interval{0, 5 * ms}}});
        }
    }
    mining::CountOptions cpu;
    cpu.backend = Backend::Cpu;
    const std::vector<std::uint64_t> counts = mining::count_episodes(sim.trains, pairs, cpu).counts;
    mining::CountOptions gpu;
    gpu.backend = Backend::Cuda;
    for (const auto kind : {mining::SurrogateKind::Dither, mining::SurrogateKind::JointIsi, mining::SurrogateKind::Shift}) {
        INFO(mining::surrogate_name(kind) << " surrogates");
        mining::SignificanceOptions options;
        options.surrogate = {kind, 10 * ms, ms, 3};
        options.surrogates = kind == mining::SurrogateKind::Dither ? 199 : 49;
        const auto expected = mining::test_episodes(sim.trains, pairs, counts, options, cpu);
        const auto got = mining::test_episodes(sim.trains, pairs, counts, options, gpu);
        REQUIRE(got.size() == expected.size());
        std::size_t low = 0;
        std::size_t high = 0;
        for (std::size_t i = 0; i < got.size(); ++i) {
            INFO("pair " << test::describe(pairs[i]));
            CHECK(got[i].p == expected[i].p);
            CHECK(got[i].surrogates_used == expected[i].surrogates_used);
            CHECK(got[i].surrogate_mean == expected[i].surrogate_mean);
            CHECK(got[i].significant == expected[i].significant);
            low += got[i].p <= 0.05 ? 1 : 0;
            high += got[i].p >= 0.5 ? 1 : 0;
        }
        // The p-values compared spread from the chains' links to chance pairs.
        CHECK(low > 0);
        CHECK(high > 0);
    }
}
