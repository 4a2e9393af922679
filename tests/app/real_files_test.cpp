// The two real recordings shipped in tests/data. Every expected number here was taken
// from the files themselves with independent tools (h5dump, awk, sort), never from this
// program; the command that gives each one is written beside it.
#include "app_test_helpers.hpp"
#include "catch.hpp"
#include "test_paths.hpp"

#include "spikeminer/app/io/read_spikes.hpp"
#include "spikeminer/app/io/spike_format.hpp"
#include "spikeminer/core/error.hpp"

#include <string>
#include <vector>

using namespace spikeminer;
using spikeminer::test::data_file;

TEST_CASE("A8604-211122.nwb: three units labelled 6, 191, 206 with the counts of spike_times_index", "[real][nwb]") {
    const std::string path = data_file("A8604-211122.nwb");
    CHECK(io::detect_spike_format(path) == io::SpikeFormat::Nwb);
    const SpikeTrains trains = io::read_spikes(path);

    // `h5dump -d /units/id`: (6, 191, 206); numeric order is file order here.
    REQUIRE(trains.num_neurons() == 3);
    CHECK(trains.label(0) == "6");
    CHECK(trains.label(1) == "191");
    CHECK(trains.label(2) == "206");
    CHECK(trains.num_spikes() == 21354);

    // `h5dump -d /units/spike_times_index tests/data/A8604-211122.nwb` gives the
    // cumulative ends (11020, 15710, 21354); the counts are their differences.
    CHECK(trains.spike_count(0) == 11020);
    CHECK(trains.spike_count(1) == 15710 - 11020);
    CHECK(trains.spike_count(2) == 21354 - 15710);

    CHECK(trains.time_base() == TimeBase{1'000'000});
    CHECK(trains.metadata().at("source.format") == "nwb");
    CHECK(trains.metadata().at("nwb.version") == "2.4.0");

    // `h5dump -m %.17g -d "/units/spike_times[N;;1;1]"` for N = 0, 11019, 11020, 21353:
    // 0.030332999999999999, 1087.3528329999999, 0.87433300000000003, 1087.2218330000001;
    // at 1 µs these are the ticks below.
    const auto unit6 = test::times_of(trains, 0);
    const auto unit191 = test::times_of(trains, 1);
    const auto unit206 = test::times_of(trains, 2);
    CHECK(unit6.front() == 30333);
    CHECK(unit6.back() == 1087352833);
    CHECK(unit191.front() == 874333);
    CHECK(unit206.back() == 1087221833);

    // Every unit's times ascend (spikes_of promises it), and the stream is sorted.
    for (std::size_t i = 1; i < trains.num_spikes(); ++i) REQUIRE(trains.times()[i - 1] <= trains.times()[i]);

    // `h5dump -m %.17g -d /intervals/epochs/start_time` = 0, `.../stop_time` = 1087.5289.
    CHECK(trains.span() == TimeSpan{0, 1087528900});

    // `h5dump -d /units/electrode_group`: all three point to .../group0_psb.
    REQUIRE(trains.neuron_table().groups.size() == 3);
    for (const auto& group : trains.neuron_table().groups) CHECK(group == "group0_psb");
}

TEST_CASE("A8604-211122.nwb read with a 1 ms tick rounds every spike to milliseconds", "[real][nwb]") {
    io::ReadOptions options;
    options.time_base = TimeBase{1000};
    const SpikeTrains trains = io::read_spikes(data_file("A8604-211122.nwb"), options);
    CHECK(trains.num_spikes() == 21354);
    CHECK(trains.time_base() == TimeBase{1000});
    // 0.030333 s -> 30 ms; 1087.352833 s -> 1087353 ms (round half away).
    CHECK(test::times_of(trains, 0).front() == 30);
    CHECK(test::times_of(trains, 0).back() == 1087353);
}

TEST_CASE("songbird_spikes.txt: 74 units 1..75 without 9, 3336 spikes", "[real][text]") {
    const std::string path = data_file("songbird_spikes.txt");
    CHECK(io::detect_spike_format(path) == io::SpikeFormat::Text);
    const SpikeTrains trains = io::read_spikes(path);

    // `awk '{print $1}' songbird_spikes.txt | sort -n | uniq`: 1.0 .. 75.0 without 9.0.
    std::vector<std::string> expected;
    for (int id = 1; id <= 75; ++id) {
        if (id != 9) expected.push_back(std::to_string(id));
    }
    REQUIRE(trains.num_neurons() == 74);
    CHECK(trains.neuron_table().labels == expected);
    // `wc -l`: 3336 lines, one spike each.
    CHECK(trains.num_spikes() == 3336);
    CHECK(trains.time_base() == TimeBase{1'000'000});

    // `awk '{print $2}' | sort -g | sed -n '1p;$p'`: 0.03333333333333333 (unit 72.0) and
    // 22.2 (units 18.0 and 43.0, so 43 comes last in (time, neuron) order).
    CHECK(trains.times().front() == 33333);
    CHECK(trains.label(trains.neurons().front()) == "72");
    CHECK(trains.times().back() == 22200000);
    CHECK(trains.label(trains.neurons().back()) == "43");
    CHECK(trains.label(trains.neurons()[trains.num_spikes() - 2]) == "18");
    CHECK(trains.times()[trains.num_spikes() - 2] == 22200000);

    // First line of the file `1.0	1.7666666666666666`: unit 1's first spike at 1766667 µs
    // (1766666.67 rounded); last line `11.0	20.6`: unit 11's last spike (awk + sort -g).
    CHECK(test::times_of(trains, trains.find_label("1")).front() == 1766667);
    CHECK(test::times_of(trains, trains.find_label("11")).back() == 20600000);

    // `awk '{c[$1]++} END {for (k in c) print k, c[k]}'`: unit 1 has 135 spikes, 2 has 99,
    // 74 has 5, 75 has 1.
    CHECK(trains.spike_count(trains.find_label("1")) == 135);
    CHECK(trains.spike_count(trains.find_label("2")) == 99);
    CHECK(trains.spike_count(trains.find_label("74")) == 5);
    CHECK(trains.spike_count(trains.find_label("75")) == 1);
    REQUIRE_THROWS_AS(trains.find_label("9"), Error);

    // The file lists spikes unit by unit (1.0, 68.0, 19.0, ...), not in time order.
    CHECK(trains.was_sorted_on_load());
    // `awk '{printf "%s %.0f\n", $1, $2*1e6}' | sort | uniq -d | wc -l`: 0.
    CHECK(trains.duplicates() == 0);
    // No span in a text file: from the first spike to one tick after the last.
    CHECK(trains.span() == TimeSpan{33333, 22200001});
}
