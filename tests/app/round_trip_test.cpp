// Write -> read -> write -> read through every pair of formats: ticks, neurons, labels,
// silent neurons and duplicates must survive wherever the format can hold them.
#include "app_test_helpers.hpp"
#include "catch.hpp"
#include "test_paths.hpp"

#include "spikeminer/app/io/read_spikes.hpp"
#include "spikeminer/app/io/write_spikes.hpp"
#include "spikeminer/core/error.hpp"

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

using namespace spikeminer;

namespace {

struct Format {
    const char* name;
    const char* suffix;
    io::SpikeFormat format;
    bool keeps_labels;  // false: labels become positions "0".."N-1" (waverepo)
    bool keeps_tick;    // false: times are stored in seconds and read back at 1 µs
};

const std::vector<Format>& formats() {
    static const std::vector<Format> all{
        {"csv", ".csv", io::SpikeFormat::Csv, true, true},
        {"csv.gz", ".csv.gz", io::SpikeFormat::Csv, true, true},
        {"text", ".txt", io::SpikeFormat::Text, true, true},
        {"spikeminer", ".h5", io::SpikeFormat::Spikeminer, true, true},
        {"nwb", ".nwb", io::SpikeFormat::Nwb, true, false},
        {"waverepo", ".waverepo.h5", io::SpikeFormat::Waverepo, false, false},
    };
    return all;
}

// Five neurons with integer labels (kept by every format but waverepo), one of them
// silent, negative times, a tie between neurons, a duplicate within a neuron, and a time
// of about 28 hours.
SpikeTrains sample_trains() {
    return test::make_trains({"3", "7", "12", "40", "41"}, {{0, -1'500'000},
                                                           {0, -1},
                                                           {0, 0},
                                                           {0, 250'000},
                                                           {0, 1'234'567'891},
                                                           {1, -1},
                                                           {1, 5},
                                                           {1, 5},
                                                           {1, 99'999'999'999},
                                                           {3, 0},
                                                           {3, 1},
                                                           {3, 250'000},
                                                           {4, 42}});
}

void require_same_spikes(const SpikeTrains& got, const SpikeTrains& expected) {
    REQUIRE(got.num_neurons() == expected.num_neurons());
    REQUIRE(got.num_spikes() == expected.num_spikes());
    CHECK(std::equal(got.times().begin(), got.times().end(), expected.times().begin()));
    CHECK(std::equal(got.neurons().begin(), got.neurons().end(), expected.neurons().begin()));
    CHECK(got.duplicates() == expected.duplicates());
    for (NeuronId n = 0; n < expected.num_neurons(); ++n) {
        CAPTURE(n);
        CHECK(got.spike_count(n) == expected.spike_count(n));
    }
}

std::vector<std::string> positions(std::size_t n) {
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < n; ++i) labels.push_back(std::to_string(i));
    return labels;
}

}  // namespace

TEST_CASE("every pair of formats keeps ticks, neurons, silent neurons and duplicates", "[round-trip]") {
    const std::size_t count = formats().size();
    const std::size_t first_index = GENERATE_COPY(range(std::size_t{0}, count));
    const std::size_t second_index = GENERATE_COPY(range(std::size_t{0}, count));
    const Format& first = formats()[first_index];
    const Format& second = formats()[second_index];
    INFO("first " << first.name << ", then " << second.name);

    const test::TempDir dir;
    const SpikeTrains original = sample_trains();
    REQUIRE(original.duplicates() == 1);
    REQUIRE(original.spike_count(2) == 0);

    const std::string path_a = dir.file(std::string("a") + first.suffix);
    io::write_spikes(path_a, original, first.format);
    const SpikeTrains a = io::read_spikes(path_a);
    CHECK(a.metadata().at("source.format") == io::format_name(first.format));
    require_same_spikes(a, original);
    CHECK(a.neuron_table().labels == (first.keeps_labels ? original.neuron_table().labels : positions(5)));

    const std::string path_b = dir.file(std::string("b") + second.suffix);
    io::write_spikes(path_b, a, second.format);
    const SpikeTrains b = io::read_spikes(path_b);
    CHECK(b.metadata().at("source.format") == io::format_name(second.format));
    require_same_spikes(b, original);
    const bool labels_kept = first.keeps_labels && second.keeps_labels;
    CHECK(b.neuron_table().labels == (labels_kept ? original.neuron_table().labels : positions(5)));
    CHECK(b.time_base() == TimeBase{1'000'000});
    // Every writer stores spikes in order: nothing needs sorting when read back.
    CHECK_FALSE(a.was_sorted_on_load());
    CHECK_FALSE(b.was_sorted_on_load());
}

TEST_CASE("a 1/30000 s tick survives the spikeminer, CSV and text formats", "[round-trip][tick]") {
    // Formats that store the tick (spikeminer: ticks_per_second attribute; text formats:
    // the ticks_per_second= comment).
    const std::vector<std::size_t> keeping{0, 1, 2, 3};
    const std::size_t first_index = GENERATE_COPY(from_range(keeping));
    const std::size_t second_index = GENERATE_COPY(from_range(keeping));
    const Format& first = formats()[first_index];
    const Format& second = formats()[second_index];
    INFO("first " << first.name << ", then " << second.name);

    const TimeBase tick{30'000};
    // 30000 is no power of ten: the text writer must print enough digits for each tick.
    const SpikeTrains original = test::make_trains(
        {"1", "2", "5"},
        {{0, -45'000}, {0, -1}, {0, 1}, {0, 29'999}, {1, 2}, {1, 30'000}, {1, 30'000LL * 3600 * 5 + 7}, {0, 10'000'001}},
        tick);

    const test::TempDir dir;
    const std::string path_a = dir.file(std::string("a") + first.suffix);
    io::write_spikes(path_a, original, first.format);
    const SpikeTrains a = io::read_spikes(path_a);
    CHECK(a.time_base() == tick);
    require_same_spikes(a, original);
    CHECK(a.neuron_table().labels == original.neuron_table().labels);

    const std::string path_b = dir.file(std::string("b") + second.suffix);
    io::write_spikes(path_b, a, second.format);
    const SpikeTrains b = io::read_spikes(path_b);
    CHECK(b.time_base() == tick);
    require_same_spikes(b, original);
    CHECK(b.neuron_table().labels == original.neuron_table().labels);
}

TEST_CASE("the spikeminer format keeps the stated span, groups and metadata", "[round-trip][spikeminer]") {
    std::vector<Spike> spikes{{10, 0}, {20, 1}, {-5, 1}};
    NeuronTable table;
    table.labels = {"unit a", "unit b"};
    table.groups = {"shank0", "shank1"};
    table.observed = {{TimeSpan{-100, 50}}, {TimeSpan{0, 10}, TimeSpan{15, 30}}};
    SpikeTrains original = SpikeTrains::from_spikes(std::move(spikes), std::move(table), TimeBase{1000});
    original.set_span(TimeSpan{-100, 1000});
    original.set_metadata("lab", "songbird room 2");

    const test::TempDir dir;
    const std::string path = dir.file("trains.h5");
    io::write_spikes(path, original, io::SpikeFormat::Spikeminer);
    const SpikeTrains back = io::read_spikes(path);
    require_same_spikes(back, original);
    CHECK(back.time_base() == TimeBase{1000});
    CHECK(back.span() == TimeSpan{-100, 1000});
    CHECK(back.neuron_table().labels == original.neuron_table().labels);
    CHECK(back.neuron_table().groups == original.neuron_table().groups);
    CHECK(back.neuron_table().observed == original.neuron_table().observed);
    CHECK(back.metadata().at("lab") == "songbird room 2");
}

TEST_CASE("named labels survive every format that keeps labels, spike by spike", "[round-trip][labels]") {
    const std::size_t index = GENERATE(0, 1, 2, 3);  // csv, csv.gz, text, spikeminer
    const Format& format = formats()[index];
    INFO(format.name);
    // No ties and no silent neuron: each spike's label is well defined in any order.
    const SpikeTrains original =
        test::make_trains({"ra_12", "hvc-3", "x"}, {{0, 1000}, {1, 2000}, {2, 3000}, {0, 4000}, {1, -7}});
    const test::TempDir dir;
    const std::string path = dir.file(std::string("named") + format.suffix);
    io::write_spikes(path, original, format.format);
    const SpikeTrains back = io::read_spikes(path);
    REQUIRE(back.num_spikes() == original.num_spikes());
    CHECK(std::equal(back.times().begin(), back.times().end(), original.times().begin()));
    CHECK(test::spike_labels(back) == test::spike_labels(original));
}

TEST_CASE("CSV and text keep the neuron order of named labels, silent neurons included", "[round-trip][labels]") {
    const std::size_t index = GENERATE(0, 2);  // csv, text
    const Format& format = formats()[index];
    INFO(format.name);
    // Neuron 1 fires first and neuron 2 never fires: the order of the table is not the
    // order of first appearance in time.
    const SpikeTrains original = test::make_trains({"b", "a", "silent", "c"}, {{0, 3000}, {1, 1000}, {3, 2000}});
    const test::TempDir dir;
    const std::string path = dir.file(std::string("named") + format.suffix);
    io::write_spikes(path, original, format.format);
    const SpikeTrains back = io::read_spikes(path);
    CHECK(back.neuron_table().labels == original.neuron_table().labels);
    CHECK(std::equal(back.neurons().begin(), back.neurons().end(), original.neurons().begin(),
                     original.neurons().end()));
}

TEST_CASE("NWB stores integer labels as unit ids and other labels so that the file reads back",
          "[round-trip][nwb]") {
    const test::TempDir dir;
    SECTION("integer labels, including negative ones, come back as they were") {
        const SpikeTrains original = test::make_trains({"-4", "0", "17"}, {{0, 1}, {1, 2}, {2, 3}});
        io::write_spikes(dir.file("ids.nwb"), original, io::SpikeFormat::Nwb);
        const SpikeTrains back = io::read_spikes(dir.file("ids.nwb"));
        CHECK(back.neuron_table().labels == std::vector<std::string>{"-4", "0", "17"});
        require_same_spikes(back, original);
    }
    SECTION("a mix of integer and named labels still gives distinct unit ids") {
        // Label "1" at position 0 and label "x" at position 1: the writer's fallback
        // (position as id) must not collide with a numeric label.
        const SpikeTrains original = test::make_trains({"1", "x"}, {{0, 10}, {1, 20}});
        bool written = true;
        try {
            io::write_spikes(dir.file("mixed.nwb"), original, io::SpikeFormat::Nwb);
        } catch (const Error&) {
            written = false;  // refusing to write is acceptable
        }
        if (written) {
            SpikeTrains back;
            REQUIRE_NOTHROW(back = io::read_spikes(dir.file("mixed.nwb")));
            CHECK(back.num_neurons() == 2);
            CHECK(back.num_spikes() == 2);
        }
    }
}

TEST_CASE("the .gz ending compresses and the plain endings do not", "[round-trip][gzip]") {
    const test::TempDir dir;
    const SpikeTrains trains = sample_trains();
    io::write_spikes(dir.file("s.csv.gz"), trains, io::SpikeFormat::Csv);
    io::write_spikes(dir.file("s.csv"), trains, io::SpikeFormat::Csv);
    io::write_spikes(dir.file("s.txt.gz"), trains, io::SpikeFormat::Text);
    const std::string gz = test::read_file(dir.file("s.csv.gz"));
    REQUIRE(gz.size() > 2);
    CHECK(static_cast<unsigned char>(gz[0]) == 0x1f);
    CHECK(static_cast<unsigned char>(gz[1]) == 0x8b);
    const std::string csv = test::read_file(dir.file("s.csv"));
    CHECK(csv.find("unit,time_s\n") != std::string::npos);
    CHECK(csv.find("# neuron: 12\n") != std::string::npos);
    // Exact decimals: tick -1500000 is -1.5 s, tick 5 is 0.000005 s.
    CHECK(csv.find("\n3,-1.5\n") != std::string::npos);
    CHECK(csv.find("\n7,0.000005\n") != std::string::npos);
    const SpikeTrains text = io::read_spikes(dir.file("s.txt.gz"));
    CHECK(text.metadata().at("source.format") == "text");
    require_same_spikes(text, trains);
}

TEST_CASE("labels holding the text formats' separators are not silently misread", "[round-trip][labels]") {
    // A CSV may hold labels with blanks ("unit 5") and a spikeminer file any label at all.
    // Written to a format whose separator the label contains, the file must either be
    // refused at writing or read back with the same labels and times, never as other data.
    struct Case {
        const char* file;
        io::SpikeFormat format;
        const char* label;
    };
    const Case c = GENERATE(Case{"blank.txt", io::SpikeFormat::Text, "unit 5"},
                            Case{"tab.txt", io::SpikeFormat::Text, "unit\t5"},
                            Case{"comma.csv", io::SpikeFormat::Csv, "a,5"});
    INFO(c.file << ", label '" << c.label << "'");
    const SpikeTrains original = test::make_trains({c.label, "7"}, {{0, 500'000}, {1, 700'000}});
    const test::TempDir dir;
    const std::string path = dir.file(c.file);
    bool written = true;
    try {
        io::write_spikes(path, original, c.format);
    } catch (const Error&) {
        written = false;  // refusing is fine
    }
    if (written) {
        bool read = true;
        SpikeTrains back;
        try {
            back = io::read_spikes(path);
        } catch (const Error&) {
            read = false;
        }
        REQUIRE(read);  // a file this program wrote must read back
        CHECK(test::spike_labels(back) == test::spike_labels(original));
        CHECK(std::equal(back.times().begin(), back.times().end(), original.times().begin(),
                         original.times().end()));
    }
}

TEST_CASE("a recording whose neurons never fire survives the formats that hold silent neurons",
          "[round-trip]") {
    const Format& format = GENERATE(from_range(formats()));
    INFO(format.name);
    const SpikeTrains original = test::make_trains({"2", "5"}, {});
    const test::TempDir dir;
    const std::string path = dir.file(std::string("silent") + format.suffix);
    io::write_spikes(path, original, format.format);
    SpikeTrains back;
    REQUIRE_NOTHROW(back = io::read_spikes(path));
    CHECK(back.num_neurons() == 2);
    CHECK(back.num_spikes() == 0);
}

TEST_CASE("the spikeminer and waverepo formats keep the electrodes' positions", "[round-trip][positions]") {
    NeuronTable table;
    table.labels = {"0", "1", "2"};
    table.positions = {{100, 250.5}, {-42, 0}, {100, 250.5}};  // two units on one electrode
    const SpikeTrains original = SpikeTrains::from_spikes({{10, 0}, {20, 2}}, table, TimeBase{1'000'000});
    const test::TempDir dir;
    for (const auto& [name, format] : {std::pair{"trains.h5", io::SpikeFormat::Spikeminer}, std::pair{"trains.waverepo.h5", io::SpikeFormat::Waverepo}}) {
        INFO(name);
        const std::string path = dir.file(name);
        io::write_spikes(path, original, format);
        const SpikeTrains back = io::read_spikes(path);
        CHECK(back.neuron_table().positions == table.positions);
        require_same_spikes(back, original);
    }
}

TEST_CASE("what the program writes it reads back: every fixture in every format, empty recordings included", "[round-trip][fixtures]") {
    struct Fixture {
        std::string name;
        SpikeTrains trains;
    };
    std::vector<Fixture> fixtures;
    fixtures.push_back({"songbird_spikes.txt", io::read_spikes(test::data_file("songbird_spikes.txt"))});
    fixtures.push_back({"A8604-211122.nwb", io::read_spikes(test::data_file("A8604-211122.nwb"))});
    fixtures.push_back({"sample", sample_trains()});
    fixtures.push_back({"silent neurons", test::make_trains({"2", "5"}, {})});
    fixtures.push_back({"no neurons", test::make_trains({}, {})});
    const test::TempDir dir;
    for (const Fixture& fixture : fixtures) {
        for (const Format& format : formats()) {
            INFO(fixture.name << " as " << format.name);
            const std::string path = dir.file("fixture" + std::string(format.suffix));
            std::filesystem::remove(path);
            io::write_spikes(path, fixture.trains, format.format);
            SpikeTrains back;
            REQUIRE_NOTHROW(back = io::read_spikes(path));
            CHECK(back.num_neurons() == fixture.trains.num_neurons());
            CHECK(back.num_spikes() == fixture.trains.num_spikes());
            if (format.keeps_tick) {
                CHECK(std::equal(back.times().begin(), back.times().end(), fixture.trains.times().begin(), fixture.trains.times().end()));
            }
            if (format.keeps_labels) CHECK(test::spike_labels(back) == test::spike_labels(fixture.trains));
        }
    }
}
