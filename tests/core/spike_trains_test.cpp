#include "catch.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/spike_trains.hpp"

#include <algorithm>
#include <random>

using namespace spikeminer;

namespace {

NeuronTable table_of(std::size_t n) {
    NeuronTable table;
    for (std::size_t i = 0; i < n; ++i) table.labels.push_back(std::string("n").append(std::to_string(i)));
    return table;
}

}  // namespace

TEST_CASE("the stream is sorted by time, then neuron") {
    std::vector<Spike> spikes{{5, 1}, {3, 2}, {5, 0}, {-2, 1}, {3, 0}};
    const auto trains = SpikeTrains::from_spikes(spikes, table_of(3), TimeBase{});
    CHECK(trains.was_sorted_on_load());
    const std::vector<Tick> times(trains.times().begin(), trains.times().end());
    const std::vector<NeuronId> neurons(trains.neurons().begin(), trains.neurons().end());
    CHECK(times == std::vector<Tick>{-2, 3, 3, 5, 5});
    CHECK(neurons == std::vector<NeuronId>{1, 0, 2, 0, 1});
    CHECK(trains.span() == TimeSpan{-2, 6});
}

TEST_CASE("per-neuron indexes list each neuron's spikes in time order") {
    std::mt19937 random(11);
    std::uniform_int_distribution<Tick> time(-1000, 1000);
    std::uniform_int_distribution<NeuronId> neuron(0, 9);
    std::vector<Spike> spikes(5000);
    for (auto& s : spikes) s = Spike{time(random), neuron(random)};
    const auto trains = SpikeTrains::from_spikes(spikes, table_of(12), TimeBase{});
    std::size_t total = 0;
    for (NeuronId n = 0; n < 12; ++n) {
        const auto positions = trains.spikes_of(n);
        const auto expected = std::count_if(spikes.begin(), spikes.end(), [n](const Spike& s) { return s.neuron == n; });
        CHECK(positions.size() == static_cast<std::size_t>(expected));
        for (std::size_t k = 0; k < positions.size(); ++k) {
            CHECK(trains.neurons()[positions[k]] == n);
            if (k > 0) CHECK(positions[k - 1] < positions[k]);
        }
        total += positions.size();
    }
    CHECK(total == spikes.size());
    CHECK(trains.spike_count(10) == 0);  // declared neurons without spikes stay
    CHECK(trains.num_neurons() == 12);
}

TEST_CASE("a neuron's spikes within a span are those of its spikes whose times fall in it") {
    std::mt19937 random(12);
    std::uniform_int_distribution<Tick> time(-500, 500);
    std::uniform_int_distribution<NeuronId> neuron(0, 4);
    std::vector<Spike> spikes(3000);
    for (auto& s : spikes) s = Spike{time(random), neuron(random)};
    const auto trains = SpikeTrains::from_spikes(spikes, table_of(5), TimeBase{});
    const auto times = trains.times();
    for (int k = 0; k < 200; ++k) {
        const Tick a = time(random);
        const TimeSpan span{a, a + time(random) / 2};  // some empty or backwards
        for (NeuronId n = 0; n < 5; ++n) {
            std::vector<std::uint32_t> expected;
            for (const std::uint32_t i : trains.spikes_of(n)) {
                if (times[i] >= span.start && times[i] < span.end) expected.push_back(i);
            }
            const auto got = trains.spikes_of(n, span);
            CHECK(std::vector<std::uint32_t>(got.begin(), got.end()) == expected);
        }
    }
}

TEST_CASE("duplicates are kept or merged, and counted either way") {
    const std::vector<Spike> spikes{{1, 0}, {1, 0}, {1, 1}, {2, 0}, {1, 0}};
    const auto kept = SpikeTrains::from_spikes(spikes, table_of(2), TimeBase{}, DuplicatePolicy::Keep);
    CHECK(kept.num_spikes() == 5);
    CHECK(kept.duplicates() == 2);
    const auto merged = SpikeTrains::from_spikes(spikes, table_of(2), TimeBase{}, DuplicatePolicy::Merge);
    CHECK(merged.num_spikes() == 3);
    CHECK(merged.duplicates() == 2);
    CHECK(merged.spike_count(0) == 2);
}

TEST_CASE("sorted input is not reported as sorted on load") {
    const auto trains = SpikeTrains::from_spikes({{1, 0}, {1, 1}, {4, 0}}, table_of(2), TimeBase{});
    CHECK_FALSE(trains.was_sorted_on_load());
}

TEST_CASE("bad spike tables are refused") {
    CHECK_THROWS_WITH(SpikeTrains::from_spikes({{1, 3}}, table_of(2), TimeBase{}), test::contains("neuron index 3"));
    NeuronTable bad_groups = table_of(2);
    bad_groups.groups = {"a"};
    CHECK_THROWS_AS(SpikeTrains::from_spikes({}, bad_groups, TimeBase{}), Error);
    auto trains = SpikeTrains::from_spikes({}, table_of(1), TimeBase{});
    CHECK(trains.num_spikes() == 0);
    CHECK_THROWS_AS(trains.set_span(TimeSpan{5, 4}), Error);
    CHECK_THROWS_AS(trains.spikes_of(1), Error);
}

TEST_CASE("times beyond ±(2^62 - 1) ticks are refused; the extremes within are kept") {
    const auto extremes = SpikeTrains::from_spikes({{-kMaxRecordingTick, 0}, {kMaxRecordingTick, 1}}, table_of(2), TimeBase{});
    CHECK(extremes.span() == TimeSpan{-kMaxRecordingTick, kMaxRecordingTick + 1});
    CHECK_THROWS_WITH(SpikeTrains::from_spikes({{kMaxRecordingTick + 1, 1}}, table_of(2), TimeBase{}),
                      test::contains("neuron 'n1' at tick 4611686018427387904 is beyond the range"));
    CHECK_THROWS_WITH(SpikeTrains::from_spikes({{INT64_MIN, 0}}, table_of(2), TimeBase{}), test::contains("beyond the range"));
    auto trains = SpikeTrains::from_spikes({}, table_of(1), TimeBase{});
    CHECK_THROWS_WITH(trains.set_span(TimeSpan{0, INT64_MAX}), test::contains("last tick"));
    CHECK_THROWS_WITH(trains.set_span(TimeSpan{INT64_MIN, 0}), test::contains("start"));
    NeuronTable observed = table_of(1);
    observed.observed = {{TimeSpan{INT64_MIN, 0}}};
    CHECK_THROWS_WITH(SpikeTrains::from_spikes({}, observed, TimeBase{}), test::contains("observation interval"));
}

TEST_CASE("labels are found by name") {
    const auto trains = SpikeTrains::from_spikes({}, table_of(3), TimeBase{});
    CHECK(trains.find_label("n2") == 2);
    CHECK_THROWS_WITH(trains.find_label("x"), test::contains("'x'"));
}

TEST_CASE("large inputs, built on all cores, equal a sort and a per-neuron scan by hand") {
    // Large enough for the parallel passes (blocks of the stream per thread).
    std::mt19937 random(23);
    std::uniform_int_distribution<Tick> time(0, 40'000);
    std::uniform_int_distribution<NeuronId> neuron(0, 299);
    std::vector<Tick> times(400'000);
    std::vector<NeuronId> neurons(times.size());
    for (std::size_t i = 0; i < times.size(); ++i) {
        times[i] = time(random);
        neurons[i] = neuron(random);
    }
    std::vector<std::pair<Tick, NeuronId>> expected;
    for (std::size_t i = 0; i < times.size(); ++i) expected.emplace_back(times[i], neurons[i]);
    std::sort(expected.begin(), expected.end());
    std::size_t equal_neighbours = 0;
    for (std::size_t i = 1; i < expected.size(); ++i) equal_neighbours += expected[i] == expected[i - 1] ? 1 : 0;
    REQUIRE(equal_neighbours > 0);  // the draw holds duplicates

    const auto trains = SpikeTrains::from_columns(SpikeColumns::own(times, neurons), table_of(300), TimeBase{});
    CHECK(trains.was_sorted_on_load());
    REQUIRE(trains.num_spikes() == expected.size());
    bool same_stream = true;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        same_stream = same_stream && trains.times()[i] == expected[i].first && trains.neurons()[i] == expected[i].second;
    }
    CHECK(same_stream);
    CHECK(trains.duplicates() == equal_neighbours);
    for (NeuronId n = 0; n < 300; ++n) {
        std::vector<std::uint32_t> positions;
        for (std::size_t i = 0; i < expected.size(); ++i) {
            if (expected[i].second == n) positions.push_back(static_cast<std::uint32_t>(i));
        }
        const auto got = trains.spikes_of(n);
        CHECK(std::vector<std::uint32_t>(got.begin(), got.end()) == positions);
    }

    // Already in order: borrowed as they are, not copied.
    std::vector<Tick> sorted_times;
    std::vector<NeuronId> sorted_neurons;
    for (const auto& [t, n] : expected) {
        sorted_times.push_back(t);
        sorted_neurons.push_back(n);
    }
    const auto borrowed = SpikeColumns::own(sorted_times, sorted_neurons);
    const auto kept = SpikeTrains::from_columns(borrowed, table_of(300), TimeBase{});
    CHECK_FALSE(kept.was_sorted_on_load());
    CHECK(kept.times().data() == borrowed.times.data());
    const auto merged = SpikeTrains::from_columns(borrowed, table_of(300), TimeBase{}, DuplicatePolicy::Merge);
    CHECK(merged.num_spikes() == expected.size() - equal_neighbours);

    // The first bad spike is the one named, wherever the threads meet it.
    sorted_neurons[300'000] = 300;
    sorted_neurons[350'000] = 301;
    CHECK_THROWS_WITH(SpikeTrains::from_columns(SpikeColumns::own(sorted_times, sorted_neurons), table_of(300), TimeBase{}),
                      test::contains("neuron index 300,"));
    CHECK_THROWS_WITH(SpikeTrains::from_columns(SpikeColumns::own(std::vector<Tick>{1, 2}, std::vector<NeuronId>{0}), table_of(1),
                                                TimeBase{}),
                      test::contains("2 spike times but 1"));
}
