// Who is a member of an assembly, and when: a neuron that joins a group firing together is
// found at the activation it joins; a neuron weakly linked to a strong pair is no member;
// neurons that fire with a group's fragment join it.
#include "catch.hpp"

#include "app_test_helpers.hpp"

#include "pipeline/member_changes.hpp"

#include "spikeminer/app/pipeline/assembly_activity.hpp"

#include <cmath>
#include <random>

using namespace spikeminer;

namespace {

constexpr Tick kSecond = 1'000'000;  // microsecond ticks
constexpr Tick kWithin = 2000;       // synchrony within 2 ms

// Spikes of `neurons` neurons: each fires as a Poisson process at `background_hz` over
// [0, seconds), and `joint(k, n)` says whether neuron n fires in the group's k-th joint
// firing (one a second, at k + 0.5 s, neuron n 0.2 n ms after it).
template <typename Joint>
SpikeTrains trains_with(std::size_t neurons, double seconds, double background_hz, std::uint32_t seed, Joint joint) {
    std::mt19937_64 random(seed);
    std::exponential_distribution<double> gap(background_hz);
    std::vector<std::pair<NeuronId, Tick>> spikes;
    std::vector<std::string> labels;
    for (std::size_t n = 0; n < neurons; ++n) {
        labels.push_back("n" + std::to_string(n));
        for (double t = gap(random); t < seconds; t += gap(random)) spikes.emplace_back(static_cast<NeuronId>(n), static_cast<Tick>(t * kSecond));
        for (std::size_t k = 0; k + 1 <= static_cast<std::size_t>(seconds); ++k) {
            if (joint(k, n)) spikes.emplace_back(static_cast<NeuronId>(n), static_cast<Tick>(k) * kSecond + kSecond / 2 + static_cast<Tick>(n) * 200);
        }
    }
    SpikeTrains trains = test::make_trains(labels, spikes, TimeBase{kSecond});
    trains.set_span({0, static_cast<Tick>(seconds * kSecond)});
    return trains;
}

}  // namespace

TEST_CASE("members: a neuron that joins a group firing together is found joining where it does", "[assemblies]") {
    // Neurons 0-4 fire together once a second for 200 s; neuron 5 with them from the 120th.
    const SpikeTrains trains = trains_with(6, 200, 2.0, 1, [](std::size_t k, std::size_t n) { return n < 5 || k >= 120; });
    const std::vector<NeuronId> all = {0, 1, 2, 3, 4, 5};
    const std::vector<Tick> activations = pipeline::activation_times(trains, all, trains.span(), kWithin);
    const auto changes = pipeline::detail::member_changes(NeuronTimes(trains), all, activations, kWithin, 0.01);
    REQUIRE(changes.size() == 1);
    CHECK(changes[0].member == 5);
    CHECK(changes[0].joined);
    CHECK(std::fabs(static_cast<double>(changes[0].time) / kSecond - 120.5) < 3);
    // A member throughout, or from the start: no change.
    const SpikeTrains steady = trains_with(6, 200, 2.0, 2, [](std::size_t, std::size_t) { return true; });
    const std::vector<Tick> steady_activations = pipeline::activation_times(steady, all, steady.span(), kWithin);
    CHECK(pipeline::detail::member_changes(NeuronTimes(steady), all, steady_activations, kWithin, 0.01).empty());

    // It takes part in 80 of 200 activations: a member on one side of its change, kept where
    // members may change, and no member of the group over the whole stretch otherwise.
    CHECK(pipeline::detail::firing_together(NeuronTimes(trains), all, {}, trains.span(), kWithin, 0.01, true) == all);
    CHECK(pipeline::detail::firing_together(NeuronTimes(trains), all, {}, trains.span(), kWithin, 0.01, false) == std::vector<NeuronId>{0, 1, 2, 3, 4});
}

TEST_CASE("members: a strong pair and a neuron weakly linked to both is no group; a fragment grows to its group", "[assemblies]") {
    // Neurons 0 and 1 fire together every second; neuron 2 with them one time in ten.
    const SpikeTrains triangle = trains_with(3, 300, 5.0, 3, [](std::size_t k, std::size_t n) { return n < 2 || k % 10 == 0; });
    CHECK(pipeline::detail::firing_together(NeuronTimes(triangle), {0, 1, 2}, {}, triangle.span(), kWithin, 0.01, true) == std::vector<NeuronId>{0, 1});

    // Neurons 0-5 fire together; a window showed 0, 1, 2 with 4, 5 and 7 around them: 4 and 5
    // take part in every activation of the three and join, 7 (not of the group) does not;
    // 3 was never offered.
    const SpikeTrains group = trains_with(8, 100, 2.0, 4, [](std::size_t, std::size_t n) { return n < 6; });
    CHECK(pipeline::detail::firing_together(NeuronTimes(group), {0, 1, 2}, {4, 5, 7}, group.span(), kWithin, 0.01, false) ==
          std::vector<NeuronId>{0, 1, 2, 4, 5});
    // A group of independent neurons has activations only by chance: every member takes part
    // in about two thirds of three's, but a fourth neuron offered does not join.
    const SpikeTrains independent = trains_with(4, 300, 10.0, 5, [](std::size_t, std::size_t) { return false; });
    const std::vector<NeuronId> three = pipeline::detail::firing_together(NeuronTimes(independent), {0, 1, 2}, {3}, independent.span(), kWithin, 0.01, false);
    CHECK(three == std::vector<NeuronId>{0, 1, 2});
}

TEST_CASE("members: who took part in each activation", "[assemblies]") {
    const SpikeTrains trains = test::make_trains({"a", "b"}, {{0, 100}, {1, 103}, {0, 200}, {1, 250}});
    CHECK(pipeline::detail::took_part(NeuronTimes(trains), 1, {100, 200, 252}, 3) == std::vector<std::uint8_t>{1, 0, 1});
    CHECK(pipeline::detail::took_part(NeuronTimes(trains), 0, {97, 150}, 3) == std::vector<std::uint8_t>{1, 0});
}
