// Text and CSV input that must be refused: each refusal is an Error that names the
// file and, where there is one, the line at fault.
#include "app_test_helpers.hpp"
#include "catch.hpp"
#include "test_paths.hpp"

#include "spikeminer/app/io/read_spikes.hpp"
#include "spikeminer/app/io/spike_format.hpp"
#include "spikeminer/core/error.hpp"

#include <string>

using namespace spikeminer;
using spikeminer::test::contains;

namespace {

// Reads with the format detected, and again with each text format forced: both paths
// must refuse the file.
io::ReadOptions forced(io::SpikeFormat format) {
    io::ReadOptions options;
    options.format = format;
    return options;
}

}  // namespace

TEST_CASE("an empty file is refused, naming the file", "[text][bad-input]") {
    const test::TempDir dir;
    const std::string path = dir.file("empty.csv");
    test::write_file(path, "");
    REQUIRE_THROWS_AS(io::read_spikes(path), Error);
    REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path) && contains("empty"));
    REQUIRE_THROWS_WITH(io::read_spikes(path, forced(io::SpikeFormat::Csv)), contains(path) && contains("empty"));
    REQUIRE_THROWS_WITH(io::read_spikes(path, forced(io::SpikeFormat::Text)), contains(path) && contains("empty"));
}

TEST_CASE("a file of comments and blank lines only is refused, naming the file", "[text][bad-input]") {
    const test::TempDir dir;
    const std::string path = dir.file("comments.txt");
    test::write_file(path, "# recorded 2021-11-22\n\n% matlab style\n   \n# ticks_per_second=1000\n");
    REQUIRE_THROWS_AS(io::read_spikes(path), Error);
    REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path) && contains("no spikes"));
    REQUIRE_THROWS_WITH(io::read_spikes(path, forced(io::SpikeFormat::Csv)), contains(path) && contains("no spikes"));
}

TEST_CASE("a CSV header with no data rows is a recording without spikes, as the writers write one", "[text][bad-input]") {
    const test::TempDir dir;
    const std::string path = dir.file("header.csv");
    test::write_file(path, "unit,time_s\n");
    const SpikeTrains trains = io::read_spikes(path);
    CHECK(trains.num_neurons() == 0);
    CHECK(trains.num_spikes() == 0);
}

TEST_CASE("a time that is not a number names the file and its line", "[text][bad-input]") {
    const test::TempDir dir;
    SECTION("text") {
        const std::string path = dir.file("abc.txt");
        test::write_file(path, "# comment on line 1\n1 0.5\n2 0.75\n3 abc\n4 1.0\n");
        REQUIRE_THROWS_AS(io::read_spikes(path), Error);
        REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path + " line 4") && contains("'abc'"));
    }
    SECTION("csv") {
        const std::string path = dir.file("abc.csv");
        test::write_file(path, "unit,time_s\n1,0.5\n2,1.5s\n");
        REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path + " line 3") && contains("'1.5s'"));
    }
    SECTION("an empty time field") {
        const std::string path = dir.file("blank.csv");
        test::write_file(path, "unit,time_s\n1,0.5\n2,\n");
        REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path + " line 3"));
    }
}

TEST_CASE("a 3 MB token is named in 60 bytes, not echoed whole", "[text][bad-input]") {
    const test::TempDir dir;
    const std::string path = dir.file("token.csv");
    test::write_file(path, "unit,time_s\n1,0.5\n2," + std::string(3'000'000, '9') + "x\n");
    try {
        (void)io::read_spikes(path);
        FAIL("a time of 3 MB was read");
    } catch (const Error& error) {
        const std::string message = error.what();
        CHECK_THAT(message, contains(path + " line 3") && contains("'" + std::string(60, '9') + "...' (3000001 bytes)"));
        CHECK(message.size() < 300);
    }
}

TEST_CASE("NaN and infinite times name the file and the line", "[text][bad-input]") {
    const std::string bad = GENERATE(as<std::string>{}, "nan", "NaN", "inf", "-inf", "infinity", "1e400");
    INFO("time " << bad);
    const test::TempDir dir;
    const std::string path = dir.file("nonfinite.csv");
    test::write_file(path, "unit,time_s\n1,0.25\n1," + bad + "\n");
    REQUIRE_THROWS_AS(io::read_spikes(path), Error);
    REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path + " line 3"));
}

TEST_CASE("a time beyond 2^62 ticks is refused, naming the line", "[text][bad-input]") {
    const test::TempDir dir;
    const std::string path = dir.file("far.txt");
    // 5e12 s = 5e18 µs > 2^62 (about 4.61e18).
    test::write_file(path, "1 0.5\n1 5e12\n");
    REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path + " line 2"));
}

TEST_CASE("a line with one column names the file and the line", "[text][bad-input]") {
    const test::TempDir dir;
    SECTION("text") {
        const std::string path = dir.file("short.txt");
        test::write_file(path, "1 0.5\n2 0.6\n7\n");
        REQUIRE_THROWS_AS(io::read_spikes(path), Error);
        REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path + " line 3") && contains("found 1"));
    }
    SECTION("csv") {
        const std::string path = dir.file("short.csv");
        test::write_file(path, "unit,time_s\n1,0.5\n\n42\n");
        REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path + " line 4") && contains("found 1"));
    }
    SECTION("csv whose time column comes third") {
        const std::string path = dir.file("third.csv");
        test::write_file(path, "unit,amplitude,time_s\n1,3.5,0.5\n2,4.0\n");
        REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path + " line 3") && contains("expected 3"));
    }
}

TEST_CASE("a header without a time column names the file and line 1", "[text][bad-input]") {
    const test::TempDir dir;
    const std::string path = dir.file("notime.csv");
    test::write_file(path, "unit,amplitude\n1,0.5\n");
    REQUIRE_THROWS_AS(io::read_spikes(path), Error);
    REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path + " line 1") && contains("time"));
}

TEST_CASE("a header without a unit column names the file and the line", "[text][bad-input]") {
    const test::TempDir dir;
    const std::string path = dir.file("nounit.csv");
    test::write_file(path, "# comment\nelectrode_x,time_s\n1,0.5\n");
    REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path + " line 2") && contains("unit"));
}

TEST_CASE("a time column in milliseconds is refused: times must be seconds", "[text][bad-input]") {
    const std::string header = GENERATE(as<std::string>{}, "unit,time_ms", "neuron,time_us", "time_ms,unit");
    INFO(header);
    const test::TempDir dir;
    const std::string path = dir.file("ms.csv");
    test::write_file(path, header + "\n1,500\n");
    REQUIRE_THROWS_AS(io::read_spikes(path), Error);
    REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path + " line 1") && contains("seconds"));
}

TEST_CASE("a truncated gzip file is refused, naming the file", "[text][bad-input][gzip]") {
    const test::TempDir dir;
    std::string text = "unit,time_s\n";
    for (int i = 0; i < 2000; ++i) text += std::to_string(i % 7) + "," + std::to_string(i) + ".125\n";
    const std::string whole = dir.file("whole.csv.gz");
    test::write_gzip(whole, text);
    REQUIRE(io::read_spikes(whole).num_spikes() == 2000);  // the untruncated file is fine

    const std::string bytes = test::read_file(whole);
    // 4: inside the trailer (ISIZE); 8: the whole trailer; 30: into the deflate data;
    // half: most of the data.
    const std::size_t cut = GENERATE_COPY(std::size_t{4}, std::size_t{8}, std::size_t{30}, bytes.size() / 2);
    INFO("cut the last " << cut << " of " << bytes.size() << " bytes");
    const std::string path = dir.file("cut.csv.gz");
    test::write_file(path, bytes.substr(0, bytes.size() - cut));
    REQUIRE_THROWS_AS(io::read_spikes(path), Error);
    REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path) && contains("truncated"));
}

TEST_CASE("a binary file that is not HDF5 is refused, naming the file", "[text][bad-input]") {
    const test::TempDir dir;
    SECTION("bytes 0..255") {
        const std::string path = dir.file("blob.bin");
        std::string bytes;
        for (int round = 0; round < 4; ++round) {
            for (int b = 0; b < 256; ++b) bytes.push_back(static_cast<char>(b));
        }
        test::write_file(path, bytes);
        REQUIRE_THROWS_AS(io::detect_spike_format(path), Error);
        REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path) && contains("binary"));
    }
    SECTION("a PNG header") {
        const std::string path = dir.file("image.png");
        static const char png[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10\0\0\0\x10\x08\x06\0\0\0";
        test::write_file(path, std::string(png, sizeof png - 1));
        REQUIRE_THROWS_AS(io::read_spikes(path), Error);
        REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path));
    }
    SECTION("forced to CSV") {
        const std::string path = dir.file("blob.csv");
        std::string bytes(64, '\0');
        bytes += ",\x01\x02\n\xff\xfe,\x7f\n";
        test::write_file(path, bytes);
        REQUIRE_THROWS_AS(io::read_spikes(path, forced(io::SpikeFormat::Csv)), Error);
        REQUIRE_THROWS_WITH(io::read_spikes(path, forced(io::SpikeFormat::Csv)), contains(path));
    }
}

TEST_CASE("a missing file is refused, naming it", "[text][bad-input]") {
    const test::TempDir dir;
    const std::string path = dir.file("nowhere.csv");
    REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path));
    REQUIRE_THROWS_WITH(io::read_spikes(path, forced(io::SpikeFormat::Text)), contains(path));
    REQUIRE_THROWS_WITH(io::read_spikes(path, forced(io::SpikeFormat::Nwb)), contains(path));
}

TEST_CASE("an HDF5 file forced to a text format is refused", "[text][bad-input]") {
    // HDF5 starts with "\x89HDF\r\n\x1a\n": whatever the text reader makes of it, it must
    // be an Error naming the file, never spikes.
    REQUIRE_THROWS_WITH(io::read_spikes(test::data_file("A8604-211122.nwb"), forced(io::SpikeFormat::Csv)),
                        contains("A8604-211122.nwb"));
}
