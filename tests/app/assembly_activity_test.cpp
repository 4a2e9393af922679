// An assembly's activity through time: its activations counted by hand, the rate chance
// gives them against independent Poisson neurons, and the on and off periods the hidden
// Markov model finds in activation counts made to a known pattern.
#include "catch.hpp"

#include "app_test_helpers.hpp"

#include "spikeminer/app/pipeline/assembly_activity.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <random>

using namespace spikeminer;

namespace {

constexpr Tick kSecond = 1'000'000;  // microsecond ticks

// Each of `neurons` firing as a Poisson process at `rate_hz` over [0, seconds).
SpikeTrains poisson_trains(std::size_t neurons, double rate_hz, double seconds, std::uint32_t seed) {
    std::mt19937_64 random(seed);
    std::exponential_distribution<double> gap(rate_hz);
    std::vector<std::pair<NeuronId, Tick>> spikes;
    std::vector<std::string> labels;
    for (std::size_t n = 0; n < neurons; ++n) {
        labels.push_back("n" + std::to_string(n));
        for (double t = gap(random); t < seconds; t += gap(random)) spikes.emplace_back(static_cast<NeuronId>(n), static_cast<Tick>(t * kSecond));
    }
    SpikeTrains trains = test::make_trains(labels, spikes, TimeBase{kSecond});
    trains.set_span({0, static_cast<Tick>(seconds * kSecond)});
    return trains;
}

// Activations (ticks) from activation counts per step of one second.
std::vector<Tick> from_counts(const std::vector<std::uint32_t>& counts) {
    std::vector<Tick> out;
    for (std::size_t s = 0; s < counts.size(); ++s) {
        for (std::uint32_t k = 0; k < counts[s]; ++k) out.push_back(static_cast<Tick>(s) * kSecond + (k + 1) * kSecond / (counts[s] + 1));
    }
    return out;
}

// The activity of activations made from `counts`, each of `size(second)` members.
pipeline::Activity periods_of(const std::vector<std::uint32_t>& counts, double chance_per_step,
                              const std::function<std::uint32_t(std::size_t)>& size = [](std::size_t) { return 5u; }) {
    pipeline::ActivityOptions options;
    options.step = kSecond;
    options.chance.assign(counts.size(), chance_per_step);
    const std::vector<Tick> activations = from_counts(counts);
    std::vector<std::uint32_t> sizes;
    for (const Tick t : activations) sizes.push_back(size(static_cast<std::size_t>(t / kSecond)));
    return pipeline::active_periods(activations, sizes, {0, static_cast<Tick>(counts.size()) * kSecond}, options);
}

double seconds(Tick t) { return static_cast<double>(t) / kSecond; }

}  // namespace

TEST_CASE("activity: an activation is more than half the members within the lag of the first, groups not overlapping", "[assemblies]") {
    // Members 0, 1, 2 and lag 2: {10, 11} is two of three; 20 and 25 are too far apart;
    // {30, 31, 32} is one group, and {33, 34} the next (it starts after the last one's spikes).
    const SpikeTrains trains = test::make_trains({"a", "b", "c", "d"}, {{0, 10}, {1, 11}, {0, 20}, {1, 25}, {2, 30}, {0, 31}, {1, 32},
                                                                        {1, 33}, {2, 34}, {3, 40}, {0, 41}});
    std::vector<std::uint32_t> sizes;
    CHECK(pipeline::activation_times(trains, {0, 1, 2}, {0, 100}, 2, 0, &sizes) == std::vector<Tick>{10, 30, 33});
    CHECK(sizes == std::vector<std::uint32_t>{2, 3, 2});
    // Neuron 3 is no member: {40, 41} is one member.
    CHECK(pipeline::activation_times(trains, {0, 1, 2}, {35, 100}, 2).empty());
    // Shifted apart by 100 a member, member 1's spike at 11 lands at 111: no group near 10.
    CHECK(pipeline::activation_times(trains, {0, 1}, {0, 300}, 2, 100).empty());
}

TEST_CASE("activity: activations on random trains are the definition's, ties, shifts and spans included", "[assemblies]") {
    // The definition, spelled out: every member's spikes (shifted by m x shift) within the
    // span, sorted by time then member; from each spike not yet in a group, the spikes up
    // to `within` after it; a group when more than half the members are among them.
    const auto defined = [](const SpikeTrains& trains, const std::vector<NeuronId>& members, TimeSpan span, Tick within, Tick shift) {
        std::vector<std::pair<Tick, std::size_t>> spikes;
        for (std::size_t m = 0; m < members.size(); ++m) {
            for (const std::uint32_t i : trains.spikes_of(members[m])) {
                const Tick t = trains.times()[i] + static_cast<Tick>(m) * shift;
                if (t >= span.start && t < span.end) spikes.emplace_back(t, m);
            }
        }
        std::sort(spikes.begin(), spikes.end());
        std::vector<Tick> out;
        std::vector<std::uint32_t> sizes;
        for (std::size_t i = 0; i < spikes.size();) {
            std::vector<bool> in(members.size(), false);
            std::size_t end = i;
            while (end < spikes.size() && spikes[end].first - spikes[i].first <= within) in[spikes[end++].second] = true;
            const auto distinct = static_cast<std::size_t>(std::count(in.begin(), in.end(), true));
            if (2 * distinct > members.size()) {
                out.push_back(spikes[i].first);
                sizes.push_back(static_cast<std::uint32_t>(distinct));
                i = end;
            } else {
                ++i;
            }
        }
        return std::pair(out, sizes);
    };
    std::mt19937_64 random(7);
    for (int round = 0; round < 200; ++round) {
        std::uniform_int_distribution<Tick> time(0, 400);
        std::uniform_int_distribution<NeuronId> neuron(0, 5);
        std::vector<std::pair<NeuronId, Tick>> spikes(std::uniform_int_distribution<int>(0, 120)(random));
        for (auto& [n, t] : spikes) {
            n = neuron(random);
            t = time(random);
        }
        spikes.emplace_back(5, 400);
        const SpikeTrains trains = test::make_trains({"a", "b", "c", "d", "e", "f"}, spikes);
        std::vector<NeuronId> members;
        for (NeuronId n = 0; n < 6; ++n) {
            if (random() % 2 == 0) members.push_back(n);
        }
        const Tick within = std::uniform_int_distribution<Tick>(0, 8)(random);
        const Tick shift = random() % 3 == 0 ? std::uniform_int_distribution<Tick>(1, 30)(random) : 0;
        const Tick start = std::uniform_int_distribution<Tick>(-50, 200)(random);
        const TimeSpan span{start, start + std::uniform_int_distribution<Tick>(0, 400)(random)};
        INFO("round " << round << ", within " << within << ", shift " << shift << ", span " << span.start << "-" << span.end);
        std::vector<std::uint32_t> sizes;
        const std::vector<Tick> got = pipeline::activation_times(trains, members, span, within, shift, &sizes);
        const auto [want, want_sizes] = defined(trains, members, span, within, shift);
        CHECK(got == want);
        CHECK(sizes == want_sizes);
    }
}

TEST_CASE("activity: chance's activations are what independent Poisson neurons make, and never fewer", "[assemblies]") {
    // Five neurons at 20 Hz, three of five within w: about 3 e_3(r) w^2 a tick. With r w =
    // 0.01 (w = 0.5 ms) the count lies within 4 standard deviations of chance's sum; with r w
    // = 0.04 (2 ms) chance's first-order sum is above the count by less than a quarter.
    const std::vector<NeuronId> members = {0, 1, 2, 3, 4};
    for (const std::uint32_t seed : {1u, 2u}) {
        const SpikeTrains trains = poisson_trains(5, 20.0, 20000.0, seed);
        const std::size_t observed = pipeline::activation_times(trains, members, trains.span(), 500).size();
        const std::vector<double> chance = pipeline::chance_activations(NeuronTimes(trains), members, trains.span(), 500, 100 * kSecond, 0);
        REQUIRE(chance.size() == 200);
        const double expected = std::accumulate(chance.begin(), chance.end(), 0.0);
        INFO("seed " << seed << ": " << observed << " activations, chance " << expected);
        CHECK(expected == Approx(1200).epsilon(0.05));
        CHECK(std::fabs(static_cast<double>(observed) - expected) < 4 * std::sqrt(expected) + 0.03 * expected);

        const std::size_t close = pipeline::activation_times(trains, members, trains.span(), 2000).size();
        const std::vector<double> wide = pipeline::chance_activations(NeuronTimes(trains), members, trains.span(), 2000, 100 * kSecond, 0);
        const double wide_expected = std::accumulate(wide.begin(), wide.end(), 0.0);
        INFO(close << " activations within 2 ms, chance " << wide_expected);
        CHECK(static_cast<double>(close) < wide_expected);
        CHECK(static_cast<double>(close) > 0.75 * wide_expected);
    }
}

TEST_CASE("activity: an assembly active for a stretch has that stretch as its one period", "[assemblies]") {
    std::vector<std::uint32_t> counts(300, 0);
    for (std::size_t s = 100; s < 200; ++s) counts[s] = 1;
    const pipeline::Activity activity = periods_of(counts, 0.001);
    REQUIRE(activity.periods.size() == 1);
    CHECK(std::fabs(seconds(activity.periods[0].start) - 100) < 1);
    CHECK(std::fabs(seconds(activity.periods[0].end) - 200) < 1);
    REQUIRE(activity.runs.size() == 1);
    CHECK(activity.runs[0].start <= activity.periods[0].start);
    CHECK(activity.runs[0].end >= activity.periods[0].end);
}

TEST_CASE("activity: on, off for a minute, on again gives two periods; always on gives one", "[assemblies]") {
    std::vector<std::uint32_t> counts(300, 1);
    for (std::size_t s = 120; s < 180; ++s) counts[s] = 0;
    const pipeline::Activity two = periods_of(counts, 0.01);
    REQUIRE(two.periods.size() == 2);
    CHECK(std::fabs(seconds(two.periods[0].end) - 120) < 1);
    CHECK(std::fabs(seconds(two.periods[1].start) - 180) < 1);
    const pipeline::Activity one = periods_of(std::vector<std::uint32_t>(300, 1), 0.01);
    REQUIRE(one.periods.size() == 1);
    CHECK(seconds(one.periods[0].start) < 1);
    CHECK(seconds(one.periods[0].end) > 299);
}

TEST_CASE("activity: a lower level of activations with fewer members is off; the same members at a lower rate are on", "[assemblies]") {
    // One activation a second for 150 s, then one every five seconds: far above chance.
    std::vector<std::uint32_t> counts(300, 0);
    for (std::size_t s = 0; s < 150; ++s) counts[s] = 1;
    for (std::size_t s = 150; s < 300; s += 5) counts[s] = 1;
    // Ten members in the first, six in the later (a half of the assembly with a straggler):
    // the assembly itself is off after 150 s.
    const pipeline::Activity split = periods_of(counts, 0.001, [](std::size_t s) { return s < 150 ? 10u : 6u; });
    REQUIRE(split.periods.size() == 1);
    CHECK(std::fabs(seconds(split.periods[0].end) - 150) < 3);
    // The same members throughout: the assembly firing less often, still on.
    const pipeline::Activity slower = periods_of(counts, 0.001, [](std::size_t) { return 9u; });
    REQUIRE(slower.periods.size() == 1);
    CHECK(seconds(slower.periods[0].end) > 295);
}

TEST_CASE("activity: activations at chance's rate give no period", "[assemblies]") {
    // Poisson counts at chance's mean: an active period is a false positive at rate 0.01.
    std::size_t with_periods = 0;
    for (std::uint32_t seed = 1; seed <= 20; ++seed) {
        std::mt19937_64 random(seed);
        std::poisson_distribution<std::uint32_t> draw(0.3);
        std::vector<std::uint32_t> counts(300);
        for (auto& c : counts) c = draw(random);
        with_periods += periods_of(counts, 0.3).periods.empty() ? 0 : 1;
    }
    CHECK(with_periods <= 1);
}

TEST_CASE("activity: chance's expected activations over a piece count a step partly inside in part", "[assemblies]") {
    const std::vector<double> chance = {1, 2, 4};
    const TimeSpan span{0, 30};
    CHECK(pipeline::expected_chance(chance, span, 10, {0, 30}) == Approx(7));
    CHECK(pipeline::expected_chance(chance, span, 10, {5, 25}) == Approx(0.5 + 2 + 2));
    CHECK(pipeline::expected_chance(chance, span, 10, {40, 50}) == 0);
}
