// HDF5 headers that claim more data than any machine holds. Read in a child process
// under a memory limit, so that a reader that allocates or crashes fails this test instead
// of taking the test program (or the machine) down.
#include "app_test_helpers.hpp"
#include "catch.hpp"
#include "child_process.hpp"
#include "hdf5_fixtures.hpp"
#include "test_paths.hpp"

#include "spikeminer/app/io/read_spikes.hpp"
#include "spikeminer/core/error.hpp"

#include <sys/resource.h>

#include <string>

using namespace spikeminer;
using spikeminer::test::good_spikeminer;
using spikeminer::test::good_units;
using spikeminer::test::H5Fixture;

namespace {

// Reads in a child process capped at 4 GiB of address space (not under ASan, which
// reserves far more), so that a reader that allocates what a header claims fails there.
test::ChildResult read_in_child(const std::string& path, const std::string& message_file) {
    return test::run_in_child([&] { (void)io::read_spikes(path); }, message_file, [] {
#if !defined(__SANITIZE_ADDRESS__)
        const rlimit memory{rlim_t{4} << 30, rlim_t{4} << 30};
        setrlimit(RLIMIT_AS, &memory);
#endif
    });
}

// Reading `path` in a child process must end in an Error naming the file, the dataset and
// (when given) `reason`, without crashing.
void check_refused_in_child(const std::string& path, const std::string& dataset, const test::TempDir& dir,
                            const std::string& reason) {
    INFO("dataset " << dataset);
    const test::ChildResult result = read_in_child(path, dir.file("message.txt"));
    INFO("child: exited " << result.exited << ", code " << result.code << ", message: " << result.message);
    REQUIRE(result.exited);
    CHECK(result.code == 0);
    CHECK(result.message.find(reason) != std::string::npos);
    CHECK(result.message.find(path) != std::string::npos);
    CHECK(result.message.find(dataset) != std::string::npos);
}

}  // namespace

TEST_CASE("a dataset claiming 2^40 elements is refused before any allocation", "[hdf5][bad-input][claims]") {
    const test::TempDir dir;
    const std::string path = dir.file("huge.h5");
    const hsize_t huge = hsize_t{1} << 40;
    std::string dataset;
    SECTION("NWB spike_times") {
        dataset = "/units/spike_times";
        H5Fixture file(path);
        test::nwb_skeleton(file);
        file.claimed(dataset, H5T_IEEE_F64LE, {huge});
        file.int64s("/units/spike_times_index", {3});
    }
    SECTION("NWB spike_times_index") {
        dataset = "/units/spike_times_index";
        H5Fixture file(path);
        test::nwb_skeleton(file);
        file.doubles("/units/spike_times", {0.1});
        file.claimed(dataset, H5T_STD_I64LE, {huge});
    }
    SECTION("NWB unit ids") {
        dataset = "/units/id";
        H5Fixture file(path);
        test::nwb_skeleton(file);
        file.doubles("/units/spike_times", {0.1});
        file.int64s("/units/spike_times_index", {1});
        file.claimed(dataset, H5T_STD_I64LE, {huge});
    }
    SECTION("waverepo sCount") {
        dataset = "/sCount";
        H5Fixture file(path);
        file.doubles("/spikes", {0.1});
        file.claimed(dataset, H5T_STD_I64LE, {huge});
    }
    SECTION("spikeminer times") {
        dataset = "/spikes/times";
        H5Fixture file(path);
        test::spikeminer_root(file);
        file.strings("/neurons/labels", {"a"});
        file.claimed(dataset, H5T_STD_I64LE, {huge});
        file.uint32s("/spikes/neurons", {0});
    }
    SECTION("spikeminer labels (variable-length strings)") {
        dataset = "/neurons/labels";
        H5Fixture file(path);
        test::spikeminer_root(file);
        const hid_t type = H5Tcopy(H5T_C_S1);
        H5Tset_size(type, H5T_VARIABLE);
        file.claimed(dataset, type, {huge});
        H5Tclose(type);
        file.int64s("/spikes/times", {1});
        file.uint32s("/spikes/neurons", {0});
    }
    SECTION("spikeminer labels (fixed-length strings)") {
        dataset = "/neurons/labels";
        H5Fixture file(path);
        test::spikeminer_root(file);
        const hid_t type = H5Tcopy(H5T_C_S1);
        H5Tset_size(type, 8);
        file.claimed(dataset, type, {huge});
        H5Tclose(type);
        file.int64s("/spikes/times", {1});
        file.uint32s("/spikes/neurons", {0});
    }
    SECTION("NWB obs_intervals (2-D)") {
        dataset = "/units/obs_intervals";
        H5Fixture file(path);
        good_units(file);
        file.claimed(dataset, H5T_IEEE_F64LE, {huge, 2});
        file.int64s("/units/obs_intervals_index", {0, 0});
    }
    check_refused_in_child(path, dataset, dir, "claims");
    // (Not repeated in this process: a reader that allocates what the header claims
    // could exhaust the machine where memory is overcommitted.)
}

TEST_CASE("a dataset claiming far more than the file stores of it is refused, not read as fill values",
          "[hdf5][bad-input][claims]") {
    // 2^24 spike times (128 MiB) in chunks never written: the file is a few KiB, and the
    // library would hand back 2^24 zeros (and a claim near the machine's memory, minutes
    // of work on nothing).
    const test::TempDir dir;
    const std::string path = dir.file("unwritten.h5");
    std::string dataset;
    SECTION("spikeminer spike times") {
        dataset = "/spikes/times";
        H5Fixture file(path);
        test::spikeminer_root(file);
        file.strings("/neurons/labels", {"a"});
        file.claimed(dataset, H5T_STD_I64LE, {hsize_t{1} << 24});
        file.uint32s("/spikes/neurons", {0});
    }
    SECTION("NWB spike_times") {
        dataset = "/units/spike_times";
        H5Fixture file(path);
        test::nwb_skeleton(file);
        file.claimed(dataset, H5T_IEEE_F64LE, {hsize_t{1} << 24});
        file.int64s("/units/spike_times_index", {3});
    }
    check_refused_in_child(path, dataset, dir, "never written");
}

TEST_CASE("a 2-D table whose claimed element count wraps around 64 bits is refused without crashing",
          "[hdf5][bad-input][claims]") {
    // (2^62 + 1) rows x 4 columns = 2^64 + 4 elements, which wraps to 4 in 64-bit
    // arithmetic. (HDF5 itself refuses to create 2-column tables of 2^63 rows or more.)
    const test::TempDir dir;
    const std::string path = dir.file("overflow.h5");
    const hsize_t rows = (hsize_t{1} << 62) + 1;
    std::string dataset;
    SECTION("spikeminer observed_intervals") {
        dataset = "/neurons/observed_intervals";
        H5Fixture file(path);
        good_spikeminer(file);
        file.claimed(dataset, H5T_STD_I64LE, {rows, 4});
        file.int64s("/neurons/observed_intervals_index", {0, 0});
    }
    SECTION("NWB obs_intervals") {
        dataset = "/units/obs_intervals";
        H5Fixture file(path);
        good_units(file);
        file.claimed(dataset, H5T_IEEE_F64LE, {rows, 4});
        file.int64s("/units/obs_intervals_index", {0, 0});
    }
    check_refused_in_child(path, dataset, dir, "");
}
