// HDF5 input that must be refused: broken NWB Units tables, broken waverepo and
// spikeminer files, unknown layouts (headers that claim absurd sizes are in
// hdf5_claims_test.cpp). Each refusal is an Error that names the file and the dataset at
// fault. Fixtures are written with the HDF5 C API (hdf5_fixtures.hpp), so they can be
// wrong in ways the writers never are.
#include "app_test_helpers.hpp"
#include "catch.hpp"
#include "hdf5_fixtures.hpp"
#include "test_paths.hpp"

#include "spikeminer/app/io/edge_list.hpp"
#include "spikeminer/app/io/read_spikes.hpp"
#include "spikeminer/app/io/spike_format.hpp"
#include "spikeminer/core/error.hpp"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

using namespace spikeminer;
using spikeminer::test::contains;
using spikeminer::test::H5Fixture;
using spikeminer::test::good_spikeminer;
using spikeminer::test::good_units;

TEST_CASE("the fixtures themselves are readable when nothing is broken", "[hdf5]") {
    const test::TempDir dir;
    SECTION("nwb") {
        const std::string path = dir.file("good.nwb");
        {
            H5Fixture file(path);
            good_units(file);
        }
        const SpikeTrains trains = io::read_spikes(path);
        CHECK(trains.neuron_table().labels == std::vector<std::string>{"4", "9"});
        CHECK(trains.num_spikes() == 6);
        CHECK(test::times_of(trains, 1) == std::vector<Tick>{150'000, 250'000, 350'000});
    }
    SECTION("waverepo") {
        const std::string path = dir.file("good.h5");
        {
            H5Fixture file(path);
            file.doubles("/spikes", {0.5, 0.25, 1.0});
            file.int64s("/sCount", {2, 0, 1});
        }
        CHECK(io::detect_spike_format(path) == io::SpikeFormat::Waverepo);
        const SpikeTrains trains = io::read_spikes(path);
        CHECK(trains.neuron_table().labels == std::vector<std::string>{"0", "1", "2"});
        CHECK(test::times_of(trains, 0) == std::vector<Tick>{250'000, 500'000});
        CHECK(trains.spike_count(1) == 0);
        // Unit 0's spikes were stored out of order.
        CHECK(trains.was_sorted_on_load());
    }
    SECTION("spikeminer") {
        const std::string path = dir.file("good.h5");
        {
            H5Fixture file(path);
            good_spikeminer(file);
        }
        const SpikeTrains trains = io::read_spikes(path);
        CHECK(trains.neuron_table().labels == std::vector<std::string>{"a", "b"});
        CHECK(test::times_of(trains, 0) == std::vector<Tick>{10, 30});
    }
}

TEST_CASE("NWB without a Units table", "[hdf5][nwb][bad-input]") {
    const test::TempDir dir;
    const std::string path = dir.file("nounits.nwb");
    {
        H5Fixture file(path);
        file.string_attribute("/", "nwb_version", "2.4.0");
        file.group("/acquisition");
    }
    CHECK(io::detect_spike_format(path) == io::SpikeFormat::Nwb);
    REQUIRE_THROWS_AS(io::read_spikes(path), Error);
    REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path) && contains("/units"));
}

TEST_CASE("NWB Units table without spike_times_index", "[hdf5][nwb][bad-input]") {
    const test::TempDir dir;
    const std::string path = dir.file("noindex.nwb");
    {
        H5Fixture file(path);
        test::nwb_skeleton(file);
        file.int64s("/units/id", {1, 2});
        file.doubles("/units/spike_times", {0.1, 0.2});
    }
    REQUIRE_THROWS_AS(io::read_spikes(path), Error);
    REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path) && contains("/units/spike_times_index"));
}

TEST_CASE("NWB Units table without spike_times", "[hdf5][nwb][bad-input]") {
    const test::TempDir dir;
    const std::string path = dir.file("notimes.nwb");
    {
        H5Fixture file(path);
        test::nwb_skeleton(file);
        file.int64s("/units/spike_times_index", {1});
    }
    REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path) && contains("/units/spike_times"));
}

TEST_CASE("NWB spike_times_index that is broken", "[hdf5][nwb][bad-input]") {
    const test::TempDir dir;
    const std::string path = dir.file("index.nwb");
    SECTION("not monotone") {
        {
            H5Fixture file(path);
            test::nwb_skeleton(file);
            file.int64s("/units/id", {1, 2, 3});
            file.doubles("/units/spike_times", {0.1, 0.2, 0.3, 0.4, 0.5});
            file.int64s("/units/spike_times_index", {3, 2, 5});
        }
        REQUIRE_THROWS_AS(io::read_spikes(path), Error);
        REQUIRE_THROWS_WITH(io::read_spikes(path),
                            contains(path) && contains("/units/spike_times_index") && contains("monotone"));
    }
    SECTION("negative first end") {
        {
            H5Fixture file(path);
            test::nwb_skeleton(file);
            file.doubles("/units/spike_times", {0.1});
            file.int64s("/units/spike_times_index", {-1, 1});
        }
        REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path) && contains("/units/spike_times_index"));
    }
    SECTION("ending past the data") {
        {
            H5Fixture file(path);
            test::nwb_skeleton(file);
            file.int64s("/units/id", {1, 2});
            file.doubles("/units/spike_times", {0.1, 0.2, 0.3, 0.4, 0.5});
            file.int64s("/units/spike_times_index", {2, 6});
        }
        REQUIRE_THROWS_AS(io::read_spikes(path), Error);
        REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path) && contains("/units/spike_times_index") &&
                                                       contains("/units/spike_times") && contains("past"));
    }
    SECTION("ending before the data") {
        {
            H5Fixture file(path);
            test::nwb_skeleton(file);
            file.int64s("/units/id", {1, 2});
            file.doubles("/units/spike_times", {0.1, 0.2, 0.3, 0.4, 0.5});
            file.int64s("/units/spike_times_index", {2, 4});
        }
        REQUIRE_THROWS_AS(io::read_spikes(path), Error);
        REQUIRE_THROWS_WITH(io::read_spikes(path),
                            contains(path) && contains("/units/spike_times_index") && contains("ends at 4"));
    }
    SECTION("stored as floating point") {
        {
            H5Fixture file(path);
            test::nwb_skeleton(file);
            file.int64s("/units/id", {1, 2});
            file.doubles("/units/spike_times", {0.1, 0.2, 0.3});
            file.doubles("/units/spike_times_index", {1.0, 3.0});
        }
        REQUIRE_THROWS_AS(io::read_spikes(path), Error);
        REQUIRE_THROWS_WITH(io::read_spikes(path),
                            contains(path) && contains("/units/spike_times_index") && contains("integers"));
    }
    SECTION("stored as single precision floats") {
        {
            H5Fixture file(path);
            test::nwb_skeleton(file);
            file.doubles("/units/spike_times", {0.1, 0.2, 0.3});
            file.floats("/units/spike_times_index", {3.0F});
        }
        REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path) && contains("/units/spike_times_index"));
    }
    SECTION("one id too many") {
        {
            H5Fixture file(path);
            test::nwb_skeleton(file);
            file.int64s("/units/id", {1, 2, 3});
            file.doubles("/units/spike_times", {0.1, 0.2, 0.3});
            file.int64s("/units/spike_times_index", {1, 3});
        }
        REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path) && contains("/units/id"));
    }
}

TEST_CASE("NWB spike_times of the wrong type or value", "[hdf5][nwb][bad-input]") {
    const test::TempDir dir;
    const std::string path = dir.file("times.nwb");
    SECTION("strings") {
        {
            H5Fixture file(path);
            test::nwb_skeleton(file);
            file.int64s("/units/id", {1});
            file.strings("/units/spike_times", {"0.1", "0.2"});
            file.int64s("/units/spike_times_index", {2});
        }
        REQUIRE_THROWS_AS(io::read_spikes(path), Error);
        REQUIRE_THROWS_WITH(io::read_spikes(path),
                            contains(path) && contains("/units/spike_times'") && contains("strings"));
    }
    SECTION("NaN") {
        {
            H5Fixture file(path);
            test::nwb_skeleton(file);
            file.int64s("/units/id", {1, 2});
            file.doubles("/units/spike_times", {0.1, 0.2, std::numeric_limits<double>::quiet_NaN(), 0.4});
            file.int64s("/units/spike_times_index", {2, 4});
        }
        REQUIRE_THROWS_AS(io::read_spikes(path), Error);
        REQUIRE_THROWS_WITH(io::read_spikes(path),
                            contains(path) && contains("/units/spike_times") && contains("element 2"));
    }
    SECTION("infinity") {
        {
            H5Fixture file(path);
            test::nwb_skeleton(file);
            file.doubles("/units/spike_times", {std::numeric_limits<double>::infinity()});
            file.int64s("/units/spike_times_index", {1});
        }
        REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path) && contains("/units/spike_times"));
    }
}

TEST_CASE("NWB unit ids that repeat", "[hdf5][nwb][bad-input]") {
    const std::vector<std::int64_t> ids = GENERATE(std::vector<std::int64_t>{4, 4}, std::vector<std::int64_t>{4, 5, 4});
    CAPTURE(ids);
    const test::TempDir dir;
    const std::string path = dir.file("dup.nwb");
    {
        H5Fixture file(path);
        test::nwb_skeleton(file);
        file.int64s("/units/id", ids);
        std::vector<double> times;
        std::vector<std::int64_t> ends;
        for (std::size_t n = 0; n < ids.size(); ++n) {
            times.push_back(0.1 * static_cast<double>(n + 1));
            ends.push_back(static_cast<std::int64_t>(n + 1));
        }
        file.doubles("/units/spike_times", times);
        file.int64s("/units/spike_times_index", ends);
    }
    REQUIRE_THROWS_AS(io::read_spikes(path), Error);
    REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path) && contains("/units/id") && contains("4"));
}

TEST_CASE("waverepo whose sCount does not match the spikes", "[hdf5][waverepo][bad-input]") {
    const test::TempDir dir;
    const std::string path = dir.file("wave.h5");
    SECTION("sum below the number of spikes") {
        {
            H5Fixture file(path);
            file.doubles("/spikes", {0.1, 0.2, 0.3, 0.4, 0.5});
            file.int64s("/sCount", {2, 2});
        }
        REQUIRE_THROWS_AS(io::read_spikes(path), Error);
        REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path) && contains("/sCount") && contains("/spikes"));
    }
    SECTION("sum above the number of spikes") {
        {
            H5Fixture file(path);
            file.doubles("/spikes", {0.1, 0.2, 0.3});
            file.int64s("/sCount", {2, 2});
        }
        REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path) && contains("/sCount") && contains("/spikes"));
    }
    SECTION("a negative count") {
        {
            H5Fixture file(path);
            file.doubles("/spikes", {0.1, 0.2, 0.3});
            file.int64s("/sCount", {4, -1});
        }
        REQUIRE_THROWS_AS(io::read_spikes(path), Error);
        REQUIRE_THROWS_WITH(io::read_spikes(path),
                            contains(path) && contains("/sCount") && contains("element 1") && contains("negative"));
    }
    SECTION("counts whose sum passes 2^63 - 1") {
        {
            H5Fixture file(path);
            file.doubles("/spikes", {0.1, 0.2, 0.3});
            file.int64s("/sCount", {1, std::numeric_limits<std::int64_t>::max(), 2});
        }
        REQUIRE_THROWS_WITH(io::read_spikes(path),
                            contains(path) && contains("/sCount") && contains("element 1") && contains("2^63 - 1") && !contains("monotone"));
    }
    SECTION("a NaN spike") {
        {
            H5Fixture file(path);
            file.doubles("/spikes", {0.1, std::numeric_limits<double>::quiet_NaN()});
            file.int64s("/sCount", {2});
        }
        REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path) && contains("/spikes") && contains("element 1"));
    }
}

TEST_CASE("spikeminer files this version cannot read", "[hdf5][spikeminer][bad-input]") {
    const test::TempDir dir;
    const std::string path = dir.file("sm.h5");
    SECTION("a newer format version") {
        {
            H5Fixture file(path);
            good_spikeminer(file, 2);
        }
        CHECK(io::detect_spike_format(path) == io::SpikeFormat::Spikeminer);
        REQUIRE_THROWS_AS(io::read_spikes(path), Error);
        REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path) && contains("version 2"));
    }
    SECTION("version 0") {
        {
            H5Fixture file(path);
            good_spikeminer(file, 0);
        }
        REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path) && contains("version 0"));
    }
    SECTION("a neuron index out of range") {
        {
            H5Fixture file(path);
            test::spikeminer_root(file);
            file.strings("/neurons/labels", {"a", "b"});
            file.int64s("/spikes/times", {10, 20, 30});
            file.uint32s("/spikes/neurons", {0, 1, 2});
        }
        REQUIRE_THROWS_AS(io::read_spikes(path), Error);
        REQUIRE_THROWS_WITH(io::read_spikes(path),
                            contains(path) && contains("/spikes/neurons") && contains("element 2"));
    }
    SECTION("times and neurons of different lengths") {
        {
            H5Fixture file(path);
            test::spikeminer_root(file);
            file.strings("/neurons/labels", {"a"});
            file.int64s("/spikes/times", {10, 20, 30});
            file.uint32s("/spikes/neurons", {0, 0});
        }
        REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path) && contains("/spikes/neurons"));
    }
    SECTION("a repeated label") {
        {
            H5Fixture file(path);
            test::spikeminer_root(file);
            file.strings("/neurons/labels", {"a", "a"});
            file.int64s("/spikes/times", {10});
            file.uint32s("/spikes/neurons", {0});
        }
        REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path) && contains("/neurons/labels"));
    }
    SECTION("no tick") {
        {
            H5Fixture file(path);
            file.int_attribute("/", "spikeminer_format_version", 1);
            file.strings("/neurons/labels", {"a"});
            file.int64s("/spikes/times", {10});
            file.uint32s("/spikes/neurons", {0});
        }
        REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path) && contains("ticks_per_second"));
    }
    SECTION("a time at the end of int64") {
        {
            H5Fixture file(path);
            test::spikeminer_root(file);
            file.strings("/neurons/labels", {"a", "b"});
            file.int64s("/spikes/times", {-5, INT64_MAX});
            file.uint32s("/spikes/neurons", {0, 1});
        }
        REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path) && contains("neuron 'b'") && contains("beyond the range"));
    }
    SECTION("a stated span reaching the start of int64") {
        {
            H5Fixture file(path);
            good_spikeminer(file);
            file.int_attribute("/", "span_start", INT64_MIN);
            file.int_attribute("/", "span_end", 0);
        }
        REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path) && contains("beyond the range"));
    }
    SECTION("times stored as floats") {
        {
            H5Fixture file(path);
            test::spikeminer_root(file);
            file.strings("/neurons/labels", {"a"});
            file.doubles("/spikes/times", {10.0});
            file.uint32s("/spikes/neurons", {0});
        }
        REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path) && contains("/spikes/times") && contains("integers"));
    }
}

TEST_CASE("a spikeminer file whose stated span ends before it starts names the file", "[hdf5][spikeminer][bad-input]") {
    const test::TempDir dir;
    const std::string path = dir.file("span.h5");
    {
        H5Fixture file(path);
        test::spikeminer_root(file);
        file.int_attribute("/", "span_start", 100);
        file.int_attribute("/", "span_end", 50);
        file.strings("/neurons/labels", {"a"});
        file.int64s("/spikes/times", {});
        file.uint32s("/spikes/neurons", {});
    }
    REQUIRE_THROWS_AS(io::read_spikes(path), Error);
    REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path) && contains("span"));
}

TEST_CASE("an HDF5 file of no known layout", "[hdf5][bad-input]") {
    const test::TempDir dir;
    const std::string path = dir.file("other.h5");
    {
        H5Fixture file(path);
        file.doubles("/traces/lfp", {0.0, 1.0});
        file.int64s("/spikes", {1, 2});  // /spikes without /sCount is not waverepo
    }
    REQUIRE_THROWS_AS(io::detect_spike_format(path), Error);
    REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path) && contains("no known layout"));
}

TEST_CASE("an HDF5 file forced to the wrong layout names what is missing", "[hdf5][bad-input]") {
    const test::TempDir dir;
    const std::string path = dir.file("wave.h5");
    {
        H5Fixture file(path);
        file.doubles("/spikes", {0.1});
        file.int64s("/sCount", {1});
    }
    io::ReadOptions options;
    options.format = io::SpikeFormat::Spikeminer;
    REQUIRE_THROWS_WITH(io::read_spikes(path, options), contains(path) && contains("spikeminer_format_version"));
    options.format = io::SpikeFormat::Nwb;
    REQUIRE_THROWS_WITH(io::read_spikes(path, options), contains(path) && contains("/units"));
}

TEST_CASE("observation intervals that belong to no unit are refused (spikeminer and NWB alike)", "[hdf5][bad-input]") {
    const test::TempDir dir;
    const std::string path = dir.file("leftover.h5");
    std::string dataset;
    SECTION("spikeminer observed_intervals") {
        dataset = "/neurons/observed_intervals_index";
        H5Fixture file(path);
        good_spikeminer(file);
        file.int64_pairs("/neurons/observed_intervals", {0, 10, 0, 20, 5, 30});
        file.int64s(dataset, {1, 2});
    }
    SECTION("NWB obs_intervals") {
        dataset = "/units/obs_intervals_index";
        H5Fixture file(path);
        good_units(file);
        file.int64_pairs("/units/obs_intervals", {0, 1, 0, 2, 1, 3});
        file.int64s(dataset, {1, 2});
    }
    REQUIRE_THROWS_AS(io::read_spikes(path), Error);
    REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path) && contains(dataset) && contains("belong to no entry"));
}

TEST_CASE("waverepo electrode positions that do not fit its units are refused", "[hdf5][waverepo][bad-input]") {
    const test::TempDir dir;
    const std::string path = dir.file("wave.h5");
    SECTION("three positions for two units") {
        {
            H5Fixture file(path);
            file.doubles("/spikes", {0.1, 0.2, 0.3});
            file.int64s("/sCount", {2, 1});
            file.double_rows("/epos", {1, 2, 3, 4, 5, 6}, 2);
        }
        REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path) && contains("/epos") && contains("3 positions") && contains("2 units"));
    }
    SECTION("units as rows instead of columns") {
        {
            H5Fixture file(path);
            file.doubles("/spikes", {0.1, 0.2, 0.3});
            file.int64s("/sCount", {1, 1, 1});
            file.double_rows("/epos", {1, 2, 3, 4, 5, 6}, 3);
        }
        REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path) && contains("/epos") && contains("3 rows, expected 2"));
    }
    SECTION("a position that is not a number") {
        {
            H5Fixture file(path);
            file.doubles("/spikes", {0.1, 0.2});
            file.int64s("/sCount", {1, 1});
            file.double_rows("/epos", {1, std::nan(""), 3, 4}, 2);
        }
        REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path) && contains("/epos") && contains("unit 1"));
    }
}

TEST_CASE("spikeminer electrode positions that do not fit its neurons are refused", "[hdf5][spikeminer][bad-input]") {
    const test::TempDir dir;
    const std::string path = dir.file("positions.h5");
    {
        H5Fixture file(path);
        good_spikeminer(file);
        file.double_rows("/neurons/positions", {1, 2, 3, 4, 5, 6}, 3);
    }
    REQUIRE_THROWS_WITH(io::read_spikes(path), contains(path) && contains("/neurons/positions") && contains("3 positions for 2 neurons"));
}

TEST_CASE("HDF5 files on whose structure the library crashes or loops are refused, naming the file", "[hdf5][bad-input]") {
    // Found by the fuzzers. The HDF5 library walks their structure in the reading child
    // first (here given 1 s before a walk counts as a loop; 10 s by default), then reads:
    // crash-3, crash-4 and the graph files pass the walk and crashed the reader itself.
    setenv("SPIKEMINER_HDF5_PROBE_SECONDS", "1", 1);
    // On the crash files the library reads memory that is not its own: whether that ends the
    // child or returns garbage the reader then refuses depends on the build and the heap, so
    // what is certain is an Error naming the file (and that this process lives).
    for (const char* name : {"hdf5-crash-1.h5", "hdf5-crash-2.nwb", "hdf5-crash-3.h5", "hdf5-crash-4.h5"}) {
        const std::string path = test::data_file(name);
        INFO(path);
        CHECK_THROWS_WITH(io::read_spikes(path), contains(path));
    }
    for (const char* name : {"hdf5-crash-graph-1.h5", "hdf5-crash-graph-2.h5"}) {
        const std::string path = test::data_file(name);
        INFO(path);
        CHECK_THROWS_WITH(io::read_graph(path), contains(path));
    }
    for (const char* name : {"hdf5-loop-1.h5", "hdf5-loop-2.nwb"}) {
        const std::string path = test::data_file(name);
        INFO(path);
        CHECK_THROWS_WITH(io::read_spikes(path), contains(path) && contains("the HDF5 library did not finish"));
    }
    // Its structure walks cleanly; the library loops reading an attribute, which the data's
    // limit (ten times the walk's) ends.
    const std::string looping_read = test::data_file("hdf5-loop-graph-1.h5");
    CHECK_THROWS_WITH(io::read_graph(looping_read), contains(looping_read) && contains("or its data in 10 s"));
    unsetenv("SPIKEMINER_HDF5_PROBE_SECONDS");
    CHECK_THROWS_WITH(io::read_spikes(test::data_file("hdf5-loop-1.h5")), contains("in 10 s"));
}
