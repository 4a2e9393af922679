// Each neuron's spike times gathered contiguous (neuron_times.hpp): the same times, in the
// same order, as the stream's index gives them, for every neuron or only those asked for,
// and the same spikes within a span as SpikeTrains::spikes_of(n, span).
#include "catch.hpp"

#include "spikeminer/core/neuron_times.hpp"
#include "spikeminer/core/spike_trains.hpp"

#include <algorithm>
#include <random>
#include <span>
#include <vector>

using namespace spikeminer;

namespace {

// 20,000 spikes of 30 neurons at random ticks in [-500, 5000), duplicates included.
SpikeTrains random_trains(std::mt19937_64& random) {
    std::uniform_int_distribution<Tick> time(-500, 4999);
    std::uniform_int_distribution<NeuronId> neuron(0, 29);
    std::vector<Spike> spikes(20'000);
    for (Spike& s : spikes) s = Spike{time(random), neuron(random)};
    NeuronTable table;
    for (int n = 0; n < 30; ++n) table.labels.push_back(std::to_string(n));
    return SpikeTrains::from_spikes(std::move(spikes), std::move(table), TimeBase{});
}

std::vector<Tick> stream_times(const SpikeTrains& trains, std::span<const std::uint32_t> positions) {
    std::vector<Tick> out;
    for (const std::uint32_t i : positions) out.push_back(trains.times()[i]);
    return out;
}

}  // namespace

TEST_CASE("each neuron's times are the stream's, for every neuron or only those asked for", "[neuron_times]") {
    std::mt19937_64 random(3);
    const SpikeTrains trains = random_trains(random);
    const NeuronTimes all(trains);
    const std::vector<NeuronId> only{2, 7, 8, 29};
    const NeuronTimes some(trains, only);
    for (NeuronId n = 0; n < 30; ++n) {
        CAPTURE(n);
        const std::vector<Tick> want = stream_times(trains, trains.spikes_of(n));
        REQUIRE_FALSE(want.empty());
        CHECK(std::vector<Tick>(all.of(n).begin(), all.of(n).end()) == want);
        const bool asked = std::find(only.begin(), only.end(), n) != only.end();
        CHECK(std::vector<Tick>(some.of(n).begin(), some.of(n).end()) == (asked ? want : std::vector<Tick>{}));
    }
}

TEST_CASE("a neuron's times within a span are those SpikeTrains finds there, none when the span ends first", "[neuron_times]") {
    std::mt19937_64 random(4);
    const SpikeTrains trains = random_trains(random);
    const NeuronTimes times(trains);
    std::uniform_int_distribution<Tick> bound(-700, 5200);
    for (int round = 0; round < 2000; ++round) {
        const NeuronId n = static_cast<NeuronId>(round % 30);
        const TimeSpan span{bound(random), bound(random)};  // about half end before they start
        CAPTURE(n, span.start, span.end);
        const std::span<const Tick> got = times.of(n, span);
        CHECK(std::vector<Tick>(got.begin(), got.end()) == stream_times(trains, trains.spikes_of(n, span)));
        if (span.end <= span.start) CHECK(got.empty());
    }
}
