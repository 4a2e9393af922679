// Legal text and CSV input: negative times, unsorted rows, duplicates, Windows line
// endings, label order, the writer's comment lines and the tick option.
#include "app_test_helpers.hpp"
#include "catch.hpp"
#include "test_paths.hpp"

#include "spikeminer/app/io/read_spikes.hpp"
#include "spikeminer/app/io/spike_format.hpp"
#include "spikeminer/core/error.hpp"

#include <string>
#include <vector>

using namespace spikeminer;

namespace {

SpikeTrains read_text(const std::string& content, const std::string& name = "spikes.txt",
                      io::ReadOptions options = {}) {
    const test::TempDir dir;
    const std::string path = dir.file(name);
    test::write_file(path, content);
    return io::read_spikes(path, options);
}

std::vector<Tick> stream_times(const SpikeTrains& trains) { return {trains.times().begin(), trains.times().end()}; }

}  // namespace

TEST_CASE("negative times are legal and keep their sign", "[text]") {
    const SpikeTrains trains = read_text("1 -2.5\n1 -0.000001\n2 -0.0000004\n3 0.0000005\n3 0.0000015\n");
    REQUIRE(trains.num_spikes() == 5);
    // Exact rounding of the binary values: -0.0000004 s is -0.39999.. µs -> 0; the double
    // nearest 0.0000005 is 0.49999999999999998 µs -> 0; the one nearest 0.0000015 is
    // 1.50000000000000004 µs -> 2 (python3: decimal.Decimal(5e-7), Decimal(1.5e-6)).
    CHECK(stream_times(trains) == std::vector<Tick>{-2'500'000, -1, 0, 0, 2});
    CHECK(trains.span() == TimeSpan{-2'500'000, 3});
    CHECK(trains.duplicates() == 0);
    CHECK_FALSE(trains.was_sorted_on_load());
}

TEST_CASE("unsorted rows load sorted by (time, neuron) and say so", "[text]") {
    const SpikeTrains trains = read_text("unit,time_s\n2,0.3\n1,0.1\n2,0.1\n1,0.2\n", "unsorted.csv");
    REQUIRE(trains.num_spikes() == 4);
    CHECK(stream_times(trains) == std::vector<Tick>{100'000, 100'000, 200'000, 300'000});
    CHECK(test::spike_labels(trains) == std::vector<std::string>{"1", "2", "1", "2"});
    CHECK(trains.was_sorted_on_load());
    CHECK(test::times_of(trains, trains.find_label("2")) == std::vector<Tick>{100'000, 300'000});
}

TEST_CASE("sorted rows are not flagged as sorted on load", "[text]") {
    const SpikeTrains trains = read_text("unit,time_s\n1,0.1\n2,0.1\n1,0.2\n", "sorted.csv");
    CHECK_FALSE(trains.was_sorted_on_load());
}

TEST_CASE("duplicate spikes are kept and counted, or merged", "[text]") {
    // Neuron 1 fires three times at 0.5 s; the third row differs by 0.2 µs and lands on the
    // same tick. Neuron 2 at the same time is no duplicate.
    const std::string content = "1 0.5\n1 0.5\n1 0.5000002\n2 0.5\n1 0.7\n";
    SECTION("keep (the default)") {
        const SpikeTrains trains = read_text(content);
        CHECK(trains.num_spikes() == 5);
        CHECK(trains.duplicates() == 2);
        CHECK(trains.spike_count(0) == 4);
    }
    SECTION("merge") {
        io::ReadOptions options;
        options.duplicates = DuplicatePolicy::Merge;
        const SpikeTrains trains = read_text(content, "spikes.txt", options);
        CHECK(trains.num_spikes() == 3);
        CHECK(trains.duplicates() == 2);
        CHECK(test::times_of(trains, 0) == std::vector<Tick>{500'000, 700'000});
        CHECK(test::times_of(trains, 1) == std::vector<Tick>{500'000});
    }
}

TEST_CASE("Windows line endings read like Unix ones", "[text]") {
    SECTION("csv") {
        const SpikeTrains trains =
            read_text("# neuron: 9\r\nunit,time_s\r\n1,0.25\r\n2,1.5\r\n\r\n2,2\r\n", "crlf.csv");
        CHECK(trains.neuron_table().labels == std::vector<std::string>{"1", "2", "9"});
        CHECK(stream_times(trains) == std::vector<Tick>{250'000, 1'500'000, 2'000'000});
    }
    SECTION("text, last line without an end of line") {
        const SpikeTrains trains = read_text("1\t0.25\r\n2 1.5\r\n2 2", "crlf.txt");
        CHECK(trains.neuron_table().labels == std::vector<std::string>{"1", "2"});
        CHECK(stream_times(trains) == std::vector<Tick>{250'000, 1'500'000, 2'000'000});
    }
}

TEST_CASE("named labels keep the order of first appearance", "[text][labels]") {
    const SpikeTrains trains = read_text("unit,time_s\nra_2,0.3\nhvc_1,0.1\nra_2,0.05\nx,0.2\nhvc_1,0.4\n", "named.csv");
    CHECK(trains.neuron_table().labels == std::vector<std::string>{"ra_2", "hvc_1", "x"});
    CHECK(trains.spike_count(0) == 2);
    CHECK(trains.spike_count(1) == 2);
    CHECK(trains.spike_count(2) == 1);
}

TEST_CASE("a mix of numbers and names keeps first appearance order too", "[text][labels]") {
    const SpikeTrains trains = read_text("10 0.1\nnoise 0.2\n2 0.3\n");
    CHECK(trains.neuron_table().labels == std::vector<std::string>{"10", "noise", "2"});
}

TEST_CASE("numeric labels sort numerically, not as text", "[text][labels]") {
    const SpikeTrains trains = read_text("10 0.1\n9 0.2\n100 0.3\n-1 0.4\n2 0.5\n");
    CHECK(trains.neuron_table().labels == std::vector<std::string>{"-1", "2", "9", "10", "100"});
    CHECK(test::times_of(trains, trains.find_label("10")) == std::vector<Tick>{100'000});
    CHECK(trains.label(trains.neurons().front()) == "10");
}

TEST_CASE("integer ids written as floats name the same neuron", "[text][labels]") {
    const SpikeTrains trains = read_text("3.0 0.1\n3 0.2\n3e0 0.3\n12.0 0.4\n");
    CHECK(trains.neuron_table().labels == std::vector<std::string>{"3", "12"});
    CHECK(trains.spike_count(0) == 3);
}

TEST_CASE("CSV header names are found in any column and any case, fields may be quoted", "[text]") {
    const SpikeTrains trains =
        read_text("\"Spike_Time\", \"Amplitude\", \"Cluster\"\n0.5, 12.0, 4\n\"0.25\",3,\"4\"\n0.75,1,5\n", "cols.csv");
    CHECK(trains.neuron_table().labels == std::vector<std::string>{"4", "5"});
    CHECK(stream_times(trains) == std::vector<Tick>{250'000, 500'000, 750'000});
}

TEST_CASE("the tick: the file's comment, else 1 µs, unless the caller gives one", "[text][tick]") {
    const std::string content = "# spikeminer spike trains; tick 1 ms; ticks_per_second=1000\nunit,time_s\n1,0.0014\n1,2\n";
    SECTION("the comment line sets 1 ms") {
        const SpikeTrains trains = read_text(content, "ms.csv");
        CHECK(trains.time_base() == TimeBase{1000});
        CHECK(stream_times(trains) == std::vector<Tick>{1, 2000});
    }
    SECTION("an explicit tick wins over the comment") {
        io::ReadOptions options;
        options.time_base = TimeBase{10'000};
        const SpikeTrains trains = read_text(content, "ms.csv", options);
        CHECK(trains.time_base() == TimeBase{10'000});
        CHECK(stream_times(trains) == std::vector<Tick>{14, 20'000});
    }
    SECTION("no comment: 1 µs") {
        const SpikeTrains trains = read_text("unit,time_s\n1,0.0014\n", "us.csv");
        CHECK(trains.time_base() == TimeBase{1'000'000});
        CHECK(stream_times(trains) == std::vector<Tick>{1400});
    }
}

TEST_CASE("neuron comments declare neurons without spikes", "[text]") {
    const SpikeTrains trains = read_text("# neuron: 5\n# neuron: 0\n3 0.5\n");
    CHECK(trains.neuron_table().labels == std::vector<std::string>{"0", "3", "5"});
    CHECK(trains.spike_count(0) == 0);
    CHECK(trains.spike_count(2) == 0);
    CHECK(trains.num_spikes() == 1);
}

TEST_CASE("gzip-compressed text reads like plain text", "[text][gzip]") {
    const test::TempDir dir;
    const std::string path = dir.file("spikes.txt.gz");
    test::write_gzip(path, "2 0.5\n1 0.25\n");
    CHECK(io::detect_spike_format(path) == io::SpikeFormat::Text);
    const SpikeTrains trains = io::read_spikes(path);
    CHECK(trains.neuron_table().labels == std::vector<std::string>{"1", "2"});
    CHECK(stream_times(trains) == std::vector<Tick>{250'000, 500'000});
}

TEST_CASE("lines across the reader's 4 MiB blocks are read whole; a line longer than a block is refused", "[text]") {
    // About 9 MiB of short lines: some straddle the ends of the blocks.
    std::string content = "unit,time_s\n";
    const int lines = 700'000;
    for (int i = 0; i < lines; ++i) content += std::to_string(i % 7) + "," + std::to_string(i) + ".000125\n";
    const SpikeTrains trains = read_text(content, "many.csv");
    REQUIRE(trains.num_spikes() == static_cast<std::size_t>(lines));
    const std::vector<Tick> times = stream_times(trains);
    for (int i = 0; i < lines; ++i) {
        if (times[static_cast<std::size_t>(i)] != Tick{i} * 1'000'000 + 125) FAIL("spike " << i << " at " << times[static_cast<std::size_t>(i)]);
    }
    // One line of 5 MiB (a time with 5 MiB of leading zeros) is not a spike table.
    const std::string long_line = "unit,time_s\n1,0.5\n2," + std::string(5u << 20, '0') + "1.5\n3,2\n";
    CHECK_THROWS_WITH(read_text(long_line, "long.csv"), test::contains("long.csv line 3: longer than 4 MiB"));
}

TEST_CASE("format detection and extensions", "[text]") {
    CHECK(io::format_from_extension("a.csv") == io::SpikeFormat::Csv);
    CHECK(io::format_from_extension("a.csv.gz") == io::SpikeFormat::Csv);
    CHECK(io::format_from_extension("dir/a.txt") == io::SpikeFormat::Text);
    CHECK(io::format_from_extension("a.nwb") == io::SpikeFormat::Nwb);
    CHECK(io::format_from_extension("a.h5") == io::SpikeFormat::Spikeminer);
    CHECK_FALSE(io::format_from_extension("a.xyz").has_value());
    CHECK_FALSE(io::format_from_extension("csv").has_value());
    CHECK(io::parse_spike_format("waverepo") == io::SpikeFormat::Waverepo);
    REQUIRE_THROWS_AS(io::parse_spike_format("matlab"), UsageError);
    for (const auto format : {io::SpikeFormat::Csv, io::SpikeFormat::Text, io::SpikeFormat::Nwb,
                              io::SpikeFormat::Spikeminer, io::SpikeFormat::Waverepo}) {
        CHECK(io::parse_spike_format(io::format_name(format)) == format);
    }
}

TEST_CASE("a UTF-8 byte-order mark (as spreadsheet programs write) is ignored", "[text]") {
    SECTION("before a header") {
        const SpikeTrains trains = read_text("\xEF\xBB\xBFunit,time_s\n1,0.5\n", "bom.csv");
        CHECK(trains.neuron_table().labels == std::vector<std::string>{"1"});
    }
    SECTION("before data") {
        const SpikeTrains trains = read_text("\xEF\xBB\xBF" "1 0.5\n1 0.7\n");
        CHECK(trains.neuron_table().labels == std::vector<std::string>{"1"});
        CHECK(trains.spike_count(0) == 2);
    }
}
