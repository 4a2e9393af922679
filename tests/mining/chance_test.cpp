// The test against chance (mining/chance.hpp) held to its definition: lag counts from every
// pair of spikes, p-values summed term by term, Benjamini-Hochberg written out, and what
// mining reports level by level; then on simulations with nothing and with chains embedded.
#include "brute_cofiring.hpp"
#include "brute_force.hpp"
#include "cpu/cpu_counters.hpp"
#include "lag_counts.hpp"
#include "prefix_counting.hpp"
#include "mining_test_helpers.hpp"
#include "random_streams.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/mining/mine.hpp"
#include "spikeminer/simulator/simulate.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

using namespace spikeminer;
using mining::ChanceResult;
using mining::Episode;
using mining::Interval;
using mining::LagCounts;
namespace detail_types = mining::detail;

namespace {

// The times of the events that end an occurrence of `prefix` (each event once), sorted;
// for one node, every spike of its neuron.
std::vector<Tick> brute_ends(const SpikeTrains& trains, const Episode& prefix) {
    std::vector<Tick> ends;
    if (prefix.size() == 1) {
        for (std::size_t i = 0; i < trains.num_spikes(); ++i) {
            if (trains.neurons()[i] == prefix.neurons[0]) ends.push_back(trains.times()[i]);
        }
        return ends;
    }
    std::set<std::uint32_t> events;
    for (const test::BruteOccurrence& o : test::all_occurrences(trains, prefix)) events.insert(o.events.back());
    for (const std::uint32_t e : events) ends.push_back(trains.times()[e]);
    std::sort(ends.begin(), ends.end());
    return ends;
}

// The lag counts of `episode` from every pair of an end of its prefix and a spike of its last neuron.
LagCounts brute_lags(const SpikeTrains& trains, const Episode& episode, const Interval& baseline) {
    const Episode prefix = episode.size() == 2 ? Episode{{episode.neurons[0]}, {}} : mining::drop_last(episode);
    const Interval& gap = episode.gaps.back();
    LagCounts counts;
    for (const Tick t : brute_ends(trains, prefix)) {
        for (std::size_t i = 0; i < trains.num_spikes(); ++i) {
            if (trains.neurons()[i] != episode.neurons.back()) continue;
            const Tick lag = trains.times()[i] - t;
            if (lag > gap.lo && lag <= gap.hi) ++counts.tested;
            if (-lag > gap.lo && -lag <= gap.hi) ++counts.reversed;
            if (std::llabs(lag) > baseline.lo && std::llabs(lag) <= baseline.hi) ++counts.baseline;
        }
    }
    return counts;
}

// Benjamini-Hochberg over `m` tests, of which `p` are listed: which of them pass at q.
std::vector<bool> brute_bh(const std::vector<double>& p, double q, std::size_t m) {
    std::vector<double> sorted = p;
    std::sort(sorted.begin(), sorted.end());
    double cutoff = -1;
    for (std::size_t k = 1; k <= sorted.size(); ++k) {
        if (sorted[k - 1] <= q * static_cast<double>(k) / static_cast<double>(m)) cutoff = sorted[k - 1];
    }
    std::vector<bool> passed(p.size());
    for (std::size_t i = 0; i < p.size(); ++i) passed[i] = p[i] <= cutoff;
    return passed;
}

struct BruteReported {
    Episode episode;
    std::uint64_t count = 0;
    LagCounts lags;
    double p = 1;
};

// Mining with the test, from the definition: level 2 every ordered pair of distinct
// frequent neurons at every interval, tested among all pairs of neurons that fire (both
// ways, every interval with a grid lag), a pair with fewer spike pairs than the floor
// unable to pass; each later level the joins of the level before, tested among themselves;
// reported when the test passes and the count reaches the floor.
std::vector<BruteReported> brute_chance_mine(const SpikeTrains& trains, const std::vector<Interval>& intervals, std::uint64_t floor,
                                             const mining::ChanceTest& test, std::size_t max_level) {
    const Tick grid = test::grid_of(trains);
    std::vector<Episode> level;
    std::size_t firing = 0;
    for (NeuronId n = 0; n < trains.num_neurons(); ++n) {
        firing += trains.spike_count(n) > 0 ? 1 : 0;
        if (test::brute_count(trains, Episode{{n}, {}}) >= floor) level.push_back(Episode{{n}, {}});
    }
    std::vector<BruteReported> reported;
    for (std::size_t k = 2; k <= max_level && !level.empty(); ++k) {
        std::vector<Episode> candidates;
        std::size_t m = 0;
        if (k == 2) {
            for (const Episode& a : level) {
                for (const Episode& b : level) {
                    for (const Interval& gap : intervals) {
                        if (a.neurons[0] != b.neurons[0]) candidates.push_back(Episode{{a.neurons[0], b.neurons[0]}, {gap}});
                    }
                }
            }
            std::size_t with_lags = 0;
            for (const Interval& gap : intervals) with_lags += test::grid_lags(gap, grid) > 0 ? 1 : 0;
            m = firing * (firing - 1) / 2 * 2 * with_lags;
        } else {
            candidates = mining::join_candidates(level);
            m = candidates.size();
            std::erase_if(candidates, mining::repeats_a_neuron);
        }
        std::vector<LagCounts> lags;
        std::vector<double> p;
        for (const Episode& c : candidates) {
            lags.push_back(brute_lags(trains, c, test.baseline));
            const LagCounts& l = lags.back();
            const auto n_t = static_cast<double>(test::grid_lags(c.gaps.back(), grid));
            const auto n_b = static_cast<double>(2 * test::grid_lags(test.baseline, grid));
            const double timing = test::binomial_tail(l.tested, l.tested + l.baseline, n_t / (n_t + n_b));
            const double order = test::binomial_tail(l.tested, l.tested + l.reversed, 0.5);
            const bool too_few = k == 2 && l.tested < floor;
            p.push_back(too_few || l.tested == 0 ? 1.0 : std::max(timing, order));
        }
        const std::vector<bool> passed = brute_bh(p, test.q, std::max<std::size_t>(m, 1));
        level.clear();
        for (std::size_t i = 0; i < candidates.size(); ++i) {
            if (!passed[i]) continue;
            const std::uint64_t count = test::brute_count(trains, candidates[i]);
            if (count < floor) continue;
            level.push_back(candidates[i]);
            reported.push_back({candidates[i], count, lags[i], p[i]});
        }
    }
    return reported;
}

// A stream with A -> B -> C repeated at fixed delays (1 and 4 ticks) every 25-50 ticks, some of it dropped,
// over random background spikes of every neuron, a few of them simultaneous.
SpikeTrains patterned_stream(std::uint64_t seed, std::size_t neurons, Tick span) {
    test::Rng rng(seed);
    std::vector<Spike> spikes;
    for (Tick t = 0; t < span; t += rng.between(25, 50)) {
        spikes.push_back({t, 0});
        if (rng.chance(85)) spikes.push_back({t + 1, 1});
        if (rng.chance(70)) spikes.push_back({t + 5, 2});
    }
    const auto background = static_cast<std::size_t>(span / 6);
    for (std::size_t i = 0; i < background; ++i) {
        spikes.push_back({rng.between(0, span), static_cast<NeuronId>(rng.below(neurons))});
    }
    return test::make_trains(std::move(spikes), neurons);
}

mining::MiningOptions tested_options(const std::vector<Interval>& intervals, std::uint64_t floor, const mining::ChanceTest& test,
                                     std::size_t max_level) {
    mining::MiningOptions options;
    options.intervals = intervals;
    options.min_counts = {floor};
    options.max_level = max_level;
    options.chance = test;
    options.count.backend = Backend::Cpu;
    return options;
}

}  // namespace

TEST_CASE("count_lags counts every pair at the delay, its mirror and the baseline", "[mining][chance]") {
    const auto seed = GENERATE(range(std::uint64_t{1}, std::uint64_t{41}));
    test::Rng rng(seed);
    std::vector<Tick> ends(static_cast<std::size_t>(rng.between(0, 30)));
    std::vector<Tick> spikes(static_cast<std::size_t>(rng.between(0, 60)));
    for (Tick& t : ends) t = rng.between(-30, 100);
    for (Tick& t : spikes) t = rng.between(-30, 100);
    std::sort(ends.begin(), ends.end());
    std::sort(spikes.begin(), spikes.end());
    const Interval gap{rng.between(0, 4), rng.between(5, 9)};
    const Interval baseline{rng.between(9, 15), rng.between(16, 30)};
    LagCounts want;
    for (const Tick t : ends) {
        for (const Tick s : spikes) {
            want.tested += s - t > gap.lo && s - t <= gap.hi ? 1 : 0;
            want.reversed += t - s > gap.lo && t - s <= gap.hi ? 1 : 0;
            want.baseline += std::llabs(s - t) > baseline.lo && std::llabs(s - t) <= baseline.hi ? 1 : 0;
        }
    }
    INFO("seed " << seed);
    CHECK(mining::detail::count_lags(ends, spikes, gap, baseline) == want);
}

TEST_CASE("lag_counts pair the ends of every prefix's occurrences with the last neuron's spikes", "[mining][chance]") {
    const auto seed = GENERATE(range(std::uint64_t{1}, std::uint64_t{61}));
    const test::TinyStream stream = test::tiny_stream(seed);
    test::Rng rng(seed * 7);
    const std::vector<Interval> gaps{{0, 2}, {2, 5}, {1, 4}};
    std::vector<Episode> episodes;
    for (int i = 0; i < 8; ++i) {
        Episode e;
        const auto size = static_cast<std::size_t>(rng.between(2, 4));
        for (std::size_t k = 0; k < size; ++k) e.neurons.push_back(static_cast<NeuronId>(rng.below(stream.neurons)));
        for (std::size_t k = 1; k < size; ++k) e.gaps.push_back(gaps[rng.below(gaps.size())]);
        episodes.push_back(e);
    }
    const Interval baseline{6, 12};
    // The prefix counter reads its stored lists; another counter's test makes them for itself.
    const mining::Counter counter = seed % 2 == 0 ? mining::Counter::Prefix : mining::Counter::TwoStep;
    mining::EpisodeCounter counts(stream.trains, mining::CountOptions{.counter = counter, .backend = Backend::Cpu});
    const std::vector<LagCounts> got = counts.lag_counts(episodes, baseline);
    REQUIRE(got.size() == episodes.size());
    for (std::size_t i = 0; i < episodes.size(); ++i) {
        INFO("seed " << seed << ", " << test::describe(episodes[i]) << " in " << test::describe(stream.trains));
        CHECK(got[i] == brute_lags(stream.trains, episodes[i], baseline));
    }
    // The counts that follow are the definition's, whatever the test left stored.
    const mining::CountResult counted = counts.count(episodes, 1);
    for (std::size_t i = 0; i < episodes.size(); ++i) CHECK(counted.counts[i] == test::brute_count(stream.trains, episodes[i]));
}

TEST_CASE("mining with the test against chance reports what the definition reports", "[mining][chance]") {
    const auto seed = GENERATE(range(std::uint64_t{1}, std::uint64_t{25}));
    test::Rng rng(seed);
    const auto neurons = static_cast<std::size_t>(rng.between(3, 5));
    const SpikeTrains trains = seed % 3 == 0 ? test::random_stream(seed, neurons, 120, 300, true) : patterned_stream(seed, neurons, 900);
    const std::vector<Interval> intervals{{0, 2}, {2, 6}};
    const mining::ChanceTest test{{8, 20}, mining::Correction::BenjaminiHochberg, seed % 2 == 0 ? 0.05 : 0.5};
    const auto floor = static_cast<std::uint64_t>(rng.between(1, 4));
    mining::MiningOptions options = tested_options(intervals, floor, test, 4);
    options.count.counter = seed % 4 == 1 ? mining::Counter::TwoStep : mining::Counter::Prefix;
    const mining::MiningResult result = mining::mine(trains, options);
    const std::vector<BruteReported> want = brute_chance_mine(trains, intervals, floor, test, 4);

    std::map<Episode, const mining::FrequentEpisode*> got;
    for (const mining::FrequentEpisode& f : result.episodes) {
        if (f.episode.size() >= 2) got.emplace(f.episode, &f);
    }
    INFO("seed " << seed << ", q " << test.q << ", floor " << floor << ", " << trains.num_spikes() << " spikes");
    CHECK(got.size() == want.size());
    // The embedded A -> B -> C beats chance: the comparison is not of two empty lists.
    if (seed % 3 != 0 && test.q > 0.1) CHECK(std::any_of(want.begin(), want.end(), [](const BruteReported& w) { return w.episode.size() == 3; }));
    for (const BruteReported& w : want) {
        INFO(test::describe(w.episode));
        const auto found = got.find(w.episode);
        REQUIRE(found != got.end());
        const mining::FrequentEpisode& f = *found->second;
        CHECK(f.count == w.count);
        REQUIRE(f.chance.has_value());
        CHECK(f.chance->count == w.lags.tested);
        CHECK(f.chance->reversed == w.lags.reversed);
        CHECK(f.chance->baseline == w.lags.baseline);
        CHECK(f.chance->p == Approx(w.p).epsilon(1e-9));
        CHECK(f.chance->p_adjusted >= f.chance->p);
    }
    for (const mining::LevelReport& level : result.levels) {
        if (level.level < 2) continue;
        REQUIRE(level.beat_chance.has_value());
        CHECK(level.frequent <= *level.beat_chance);
        CHECK(level.chance_tests >= *level.beat_chance);
    }
}

TEST_CASE("with the test no episode visits a neuron twice", "[mining][chance]") {
    // A bursting neuron: A -> A is frequent, and chance by the null, which keeps a neuron's own firing.
    std::vector<Spike> spikes;
    for (Tick t = 0; t < 2000; t += 20) {
        spikes.push_back({t, 0});
        spikes.push_back({t + 1, 0});
        spikes.push_back({t + 2, 1});
    }
    const SpikeTrains trains = test::make_trains(spikes, 2);
    const mining::MiningResult result = mining::mine(trains, tested_options({{0, 3}}, 5, {{5, 9}}, 3));
    bool a_then_b = false;
    for (const mining::FrequentEpisode& f : result.episodes) {
        INFO(test::describe(f.episode));
        CHECK_FALSE(mining::repeats_a_neuron(f.episode));
        a_then_b = a_then_b || f.episode == Episode{{0, 1}, {{0, 3}}};
    }
    CHECK(a_then_b);
}

TEST_CASE("nothing beats chance among independent neurons", "[mining][chance][simulated]") {
    // Seeds the benchmarks do not use; each a minute of 100 neurons at 20 Hz.
    const auto seed = GENERATE(as<std::uint64_t>{}, 9001, 9002, 9003);
    simulator::NetworkConfig network = simulator::scenario("none");
    network.seed = seed;
    const simulator::Simulation simulation = simulator::simulate(network);
    const mining::MiningResult result = mining::mine(simulation.trains, tested_options({{0, 5000}, {5000, 10000}}, 5, {{20000, 40000}}, 5));
    std::size_t longer = 0;
    for (const mining::FrequentEpisode& f : result.episodes) longer += f.episode.size() >= 2 ? 1 : 0;
    INFO("seed " << seed);
    CHECK(longer == 0);
    CHECK(result.levels.at(1).beat_chance == std::optional<std::size_t>(0));
}

TEST_CASE("a chain beats chance at its delays; an assembly's members fire together, not in order", "[mining][chance][simulated]") {
    simulator::NetworkConfig network;
    network.neurons = 30;
    network.duration_s = 120;
    network.rest_rate_hz = 5;
    network.seed = 9011;
    network.chains.push_back({{0, 1, 2, 3}, {0.8, 0.8, 0.8}, {{3, 3}, {3, 3}, {3, 3}}, false});
    network.assemblies.push_back({{10, 11, 12, 13, 14}, 1.0, 2, 1.0, {}});
    const simulator::Simulation simulation = simulator::simulate(network);
    const mining::MiningResult result = mining::mine(simulation.trains, tested_options({{0, 5000}, {5000, 10000}}, 5, {{20000, 40000}}, 4));
    std::set<Episode> found;
    for (const mining::FrequentEpisode& f : result.episodes) {
        found.insert(f.episode);
        const bool in_assembly = std::all_of(f.episode.neurons.begin(), f.episode.neurons.end(), [](NeuronId n) { return n >= 10 && n <= 14; });
        INFO(test::describe(f.episode));
        CHECK_FALSE((f.episode.size() >= 2 && in_assembly));
    }
    const Interval first{0, 5000};
    CHECK(found.count(Episode{{0, 1, 2, 3}, {first, first, first}}) == 1);
}

TEST_CASE("mining under a budget small enough to chunk every call finds the same episodes", "[mining][chance][memory]") {
    const auto seed = GENERATE(as<std::uint64_t>{}, 3, 4, 5);
    const SpikeTrains trains = patterned_stream(seed, 5, 3000);
    mining::MiningOptions options = tested_options({{0, 2}, {2, 6}}, 3, {{8, 20}, mining::Correction::BenjaminiHochberg, 0.5}, 4);
    options.count.counter = mining::Counter::Prefix;
    // Reads of prefix ends (the chance test's steps short of its whole), every report
    // delivered; the prefix counter's chunks are held to one call by the test below.
    std::size_t reads = 0;
    Progress progress(
        [&](const std::string& task, std::uint64_t done, std::uint64_t total) {
            if (task == "testing against chance" && done > 0 && done < total) ++reads;
        },
        nullptr, std::chrono::nanoseconds(0));
    options.count.progress = &progress;
    const mining::MiningResult whole = mining::mine(trains, options);
    CHECK(reads == 0);
    options.count.memory_budget = 20'000;  // a few hundred ends a read
    const mining::MiningResult chunked = mining::mine(trains, options);
    REQUIRE(whole.episodes.size() > 5);
    CHECK(chunked.stopped.empty());
    CHECK(reads > 0);
    REQUIRE(chunked.episodes.size() == whole.episodes.size());
    for (std::size_t i = 0; i < whole.episodes.size(); ++i) {
        CHECK(chunked.episodes[i].episode == whole.episodes[i].episode);
        CHECK(chunked.episodes[i].count == whole.episodes[i].count);
        CHECK(chunked.episodes[i].chance == whole.episodes[i].chance);
    }
}

TEST_CASE("a level whose candidates do not fit the budget is not mined, and the levels before it are kept", "[mining][memory]") {
    const SpikeTrains trains = test::random_stream(17, 40, 4000, 2000);
    mining::MiningOptions options;
    options.intervals = {{0, 2}, {2, 6}};
    options.min_counts = {1};
    options.max_level = 3;
    options.count.backend = Backend::Cpu;
    options.count.memory_budget = 100'000;  // 40 neurons, 3,200 pairs of 2 nodes: over it
    const mining::MiningResult result = mining::mine(trains, options);
    REQUIRE(result.levels.size() == 1);
    CHECK(result.episodes.size() == 40);
    CHECK_THAT(result.stopped, test::contains("level 2 was not mined: its 3,200 candidates"));
    CHECK_THAT(result.stopped, test::contains("higher minimum count"));
}

TEST_CASE("mining refuses a floor of 0, an interval twice and a baseline within the delays", "[mining][chance][bad-input]") {
    const SpikeTrains trains = test::random_stream(5, 3, 50, 100);
    mining::MiningOptions options = tested_options({{0, 2}, {2, 6}}, 1, {{8, 20}}, 3);
    SECTION("floor 0") {
        options.min_counts = {0};
        CHECK_THROWS_WITH(mining::mine(trains, options), test::contains("minimum count of 0"));
    }
    SECTION("an interval twice") {
        options.intervals = {{0, 2}, {2, 6}, {0, 2}};
        CHECK_THROWS_WITH(mining::mine(trains, options), test::contains("given twice"));
    }
    SECTION("a baseline within the delays") {
        options.chance->baseline = {4, 20};
        CHECK_THROWS_WITH(mining::mine(trains, options), test::contains("beyond every delay"));
    }
    SECTION("q out of range") {
        options.chance->q = 0;
        CHECK_THROWS_WITH(mining::mine(trains, options), test::contains("q in (0, 1]"));
    }
}

TEST_CASE("the prefix counter's chunks give the counts and kept lists of one call", "[mining][memory]") {
    const auto seed = GENERATE(range(std::uint64_t{1}, std::uint64_t{21}));
    const test::TinyStream stream = test::tiny_stream(seed);
    const NeuronTimes times(stream.trains);
    std::vector<Episode> pairs;
    for (NeuronId a = 0; a < stream.neurons; ++a) {
        for (NeuronId b = 0; b < stream.neurons; ++b) {
            for (const Interval gap : {Interval{0, 2}, Interval{2, 5}}) pairs.push_back(Episode{{a, b}, {gap}});
        }
    }
    const auto counted_levels = [&](std::size_t chunk) {
        detail_types::PrefixCounting counting(detail_types::make_cpu_list_store(stream.trains, times, 1, nullptr), times, chunk);
        std::vector<std::vector<std::uint64_t>> levels{counting.count(pairs, 2)};
        std::vector<Episode> kept;
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            if (levels[0][i] >= 2) kept.push_back(pairs[i]);
        }
        levels.push_back(counting.count(mining::join_candidates(kept), 1));
        return levels;
    };
    const auto whole = counted_levels(SIZE_MAX);
    for (const std::size_t chunk : {std::size_t{1}, std::size_t{2}, std::size_t{3}}) {
        INFO("seed " << seed << ", chunks of " << chunk);
        CHECK(counted_levels(chunk) == whole);
    }
}
