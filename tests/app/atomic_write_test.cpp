// Writes are atomic: a file appears complete or not at all, an existing file survives a
// failed write, and no temporary file is left behind either way.
#include "app_test_helpers.hpp"
#include "catch.hpp"
#include "child_process.hpp"
#include "test_paths.hpp"

#include "spikeminer/app/io/atomic_output.hpp"
#include "spikeminer/app/io/read_spikes.hpp"
#include "spikeminer/app/io/write_spikes.hpp"
#include "spikeminer/core/error.hpp"

#include <sys/resource.h>

#include <csignal>
#include <filesystem>
#include <string>
#include <vector>

using namespace spikeminer;
using spikeminer::test::contains;

namespace {

struct Target {
    const char* name;
    io::SpikeFormat format;
};

const std::vector<Target>& targets() {
    static const std::vector<Target> all{{"out.csv", io::SpikeFormat::Csv},
                                         {"out.csv.gz", io::SpikeFormat::Csv},
                                         {"out.txt", io::SpikeFormat::Text},
                                         {"out.h5", io::SpikeFormat::Spikeminer},
                                         {"out.nwb", io::SpikeFormat::Nwb},
                                         {"out.waverepo.h5", io::SpikeFormat::Waverepo}};
    return all;
}

SpikeTrains small_trains() { return test::make_trains({"1", "2"}, {{0, 10}, {1, 20}, {0, 30}}); }

// 200000 spikes over 50 neurons at irregular times: megabytes in every format.
SpikeTrains big_trains() {
    std::vector<std::string> labels;
    for (int n = 0; n < 50; ++n) labels.push_back(std::to_string(n));
    std::vector<std::pair<NeuronId, Tick>> spikes;
    std::uint64_t state = 12345;
    Tick t = 0;
    for (int i = 0; i < 200'000; ++i) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        t += static_cast<Tick>((state >> 33) % 20'000);
        spikes.emplace_back(static_cast<NeuronId>((state >> 20) % 50), t);
    }
    return test::make_trains(labels, spikes);
}

}  // namespace

TEST_CASE("writing into a folder that does not exist throws and creates nothing", "[atomic]") {
    const Target& target = GENERATE(from_range(targets()));
    INFO(target.name);
    const test::TempDir dir;
    const std::string path = (dir.path() / "missing" / target.name).string();
    REQUIRE_THROWS_AS(io::write_spikes(path, small_trains(), target.format), Error);
    REQUIRE_THROWS_WITH(io::write_spikes(path, small_trains(), target.format),
                        contains(path) && contains("does not exist"));
    CHECK_FALSE(std::filesystem::exists(dir.path() / "missing"));
    CHECK(test::entry_count(dir.path()) == 0);
}

TEST_CASE("a successful write leaves exactly the target, no temporary file", "[atomic]") {
    const Target& target = GENERATE(from_range(targets()));
    INFO(target.name);
    const test::TempDir dir;
    const std::string path = dir.file(target.name);
    io::write_spikes(path, small_trains(), target.format);
    CHECK(std::filesystem::is_regular_file(path));
    CHECK(test::partial_files(dir.path()).empty());
    CHECK(test::entry_count(dir.path()) == 1);
    CHECK(io::read_spikes(path).num_spikes() == 3);
}

TEST_CASE("a successful write replaces an existing file whole", "[atomic]") {
    const Target& target = GENERATE(from_range(targets()));
    INFO(target.name);
    const test::TempDir dir;
    const std::string path = dir.file(target.name);
    // Longer than any of the new files: a write in place without truncation would leave a tail.
    test::write_file(path, std::string(1 << 20, 'x'));
    io::write_spikes(path, small_trains(), target.format);
    CHECK(std::filesystem::file_size(path) < (1u << 20));
    CHECK(io::read_spikes(path).num_spikes() == 3);
    CHECK(test::entry_count(dir.path()) == 1);
}

TEST_CASE("writing onto a folder throws and leaves the folder alone", "[atomic]") {
    const test::TempDir dir;
    const std::string path = dir.file("taken.csv");
    std::filesystem::create_directory(path);
    test::write_file(path + "/inside.txt", "keep me");
    REQUIRE_THROWS_WITH(io::write_spikes(path, small_trains(), io::SpikeFormat::Csv), contains(path));
    CHECK(std::filesystem::is_directory(path));
    CHECK(test::read_file(path + "/inside.txt") == "keep me");
    CHECK(test::partial_files(dir.path()).empty());
}

TEST_CASE("AtomicOutput: nothing appears without commit, the target appears with it", "[atomic]") {
    const test::TempDir dir;
    const std::string path = dir.file("result.txt");
    std::string temp;
    {
        io::AtomicOutput output(path);
        temp = output.temp_path();
        CHECK(std::filesystem::path(temp).parent_path() == dir.path());
        CHECK(temp != path);
        test::write_file(temp, "half");
    }
    CHECK_FALSE(std::filesystem::exists(temp));
    CHECK_FALSE(std::filesystem::exists(path));
    {
        io::AtomicOutput output(path);
        test::write_file(output.temp_path(), "whole");
        output.commit();
    }
    CHECK(test::read_file(path) == "whole");
    CHECK(test::entry_count(dir.path()) == 1);
}

TEST_CASE("a write that fails midway leaves an existing target untouched", "[atomic]") {
    // The disk "fills up" in a child process: RLIMIT_FSIZE caps every file at 16 KiB and
    // SIGXFSZ is ignored, so write() fails with EFBIG partway through the output.
    const Target& target = GENERATE(from_range(targets()));
    INFO(target.name);
    const test::TempDir dir;
    const std::string path = dir.file(target.name);
    const std::string original = "ORIGINAL CONTENT\n";
    test::write_file(path, original);
    const SpikeTrains trains = big_trains();
    const std::string message_file = (dir.path().parent_path() / (dir.path().filename().string() + ".msg")).string();

    rlimit limit{};
    const test::ChildResult result = test::run_in_child(
        [&] { io::write_spikes(path, trains, target.format); }, message_file,
        [&] {
            std::signal(SIGXFSZ, SIG_IGN);
            getrlimit(RLIMIT_FSIZE, &limit);
            rlimit capped = limit;
            capped.rlim_cur = rlim_t{16} << 10;  // the write fails after 16 KiB
            setrlimit(RLIMIT_FSIZE, &capped);
        },
        [&] { setrlimit(RLIMIT_FSIZE, &limit); });  // lift the cap again to report
    std::filesystem::remove(message_file);
    REQUIRE(result.exited);
    const std::string& message = result.message;
    INFO("child exit code " << result.code << ", message: " << message);
    CHECK(result.code == 0);
    CHECK(message.find(path) != std::string::npos);
    CHECK(test::read_file(path) == original);
    CHECK(test::partial_files(dir.path()).empty());
    CHECK(test::entry_count(dir.path()) == 1);
}
