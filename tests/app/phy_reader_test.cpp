// Kilosort / Phy output folders written by the test: spike times in samples, each spike's
// unit, params.py's sample rate and the curation labels; the .npy arrays in every element
// type, byte order and layout a sorter writes; and every refusal naming the file.
#include "catch.hpp"
#include "cli_runner.hpp"

#include "spikeminer/app/io/read_spikes.hpp"
#include "spikeminer/core/error.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace spikeminer;
using spikeminer::test::contains;


namespace {

// An .npy file of `descr` elements ('<u8', '>i4', ...) with the given raw bytes.
void write_npy(const std::string& path, const std::string& descr, const std::string& shape, const std::string& bytes, bool fortran = false) {
    std::string header = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': " + shape + ", }";
    while ((10 + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    std::string file = "\x93NUMPY";
    file += '\x01';
    file += '\x00';
    file += static_cast<char>(header.size() & 0xff);
    file += static_cast<char>(header.size() >> 8);
    test::write_file(path, file + header + bytes);
}

// Values as `width`-byte integers (or an 8-byte double with real), in either byte order.
template <typename T>
std::string raw(const std::vector<T>& values, bool big_endian = false) {
    std::string out;
    for (const T v : values) {
        char bytes[sizeof(T)];
        std::memcpy(bytes, &v, sizeof(T));
        if (big_endian == (std::endian::native == std::endian::little)) std::reverse(bytes, bytes + sizeof(T));
        out.append(bytes, sizeof(T));
    }
    return out;
}

const std::vector<std::uint64_t> kSamples{30, 60, 90, 3000, 30000, 60000};
const std::vector<std::int32_t> kUnits{3, 5, 7, 3, 7, 5};

// A folder Kilosort and Phy would leave: units 3 and 7 good, 5 multi-unit.
std::string phy_folder(const test::TempDir& dir, const std::string& name = "sorted") {
    const std::string folder = dir.file(name);
    std::filesystem::create_directory(folder);
    write_npy(folder + "/spike_times.npy", "<u8", "(6,)", raw(kSamples));
    write_npy(folder + "/spike_clusters.npy", "<i4", "(6,)", raw(kUnits));
    test::write_file(folder + "/params.py", "dat_path = 'continuous.dat'\nn_channels_dat = 32\ndtype = 'int16'\noffset = 0\nsample_rate = 30000.0\nhp_filtered = False\n");
    test::write_file(folder + "/cluster_group.tsv", "cluster_id\tgroup\n3\tgood\n5\tmua\n7\tgood\n");
    return folder;
}

io::ReadOptions all_units() {
    io::ReadOptions options;
    options.all_units = true;
    return options;
}

}  // namespace

TEST_CASE("phy: a Kilosort / Phy folder gives its good units, each sample a tick", "[phy]") {
    const test::TempDir dir;
    const std::string folder = phy_folder(dir);
    const SpikeTrains trains = io::read_spikes(folder);
    CHECK(trains.metadata().at("source.format") == "phy");
    CHECK(trains.time_base().ticks_per_second == 30000);
    CHECK(trains.neuron_table().labels == std::vector<std::string>{"3", "7"});
    CHECK(std::vector<Tick>(trains.times().begin(), trains.times().end()) == std::vector<Tick>{30, 90, 3000, 30000});
    CHECK(test::spike_labels(trains) == std::vector<std::string>{"3", "7", "3", "7"});

    const SpikeTrains all = io::read_spikes(folder, all_units());
    CHECK(all.neuron_table().labels == std::vector<std::string>{"3", "5", "7"});
    CHECK(all.num_spikes() == 6);

    SECTION("Kilosort's own labels when Phy's are not there") {
        std::filesystem::remove(folder + "/cluster_group.tsv");
        test::write_file(folder + "/cluster_KSLabel.tsv", "cluster_id\tKSLabel\n3\tmua\n5\tgood\n7\tmua\n");
        CHECK(io::read_spikes(folder).neuron_table().labels == std::vector<std::string>{"5"});
    }
    SECTION("Phy's table of no rows leaves Kilosort's labels to decide") {
        test::write_file(folder + "/cluster_group.tsv", "cluster_id\tgroup\n");
        test::write_file(folder + "/cluster_KSLabel.tsv", "cluster_id\tKSLabel\n3\tmua\n5\tgood\n7\tmua\n");
        CHECK(io::read_spikes(folder).neuron_table().labels == std::vector<std::string>{"5"});
    }
    SECTION("no labels: every unit") {
        std::filesystem::remove(folder + "/cluster_group.tsv");
        CHECK(io::read_spikes(folder).num_spikes() == 6);
    }
    SECTION("the templates when there are no clusters") {
        std::filesystem::rename(folder + "/spike_clusters.npy", folder + "/spike_templates.npy");
        CHECK(io::read_spikes(folder).neuron_table().labels == std::vector<std::string>{"3", "7"});
    }
    SECTION("a sample rate that is not whole: times in seconds at 1 us") {
        test::write_file(folder + "/params.py", "sample_rate = 30000.5\n");
        const SpikeTrains odd = io::read_spikes(folder);
        CHECK(odd.time_base().ticks_per_second == 1'000'000);
        CHECK(odd.times()[1] == static_cast<Tick>(std::llround(90 / 30000.5 * 1e6)));
    }
}

TEST_CASE("phy: every element type, byte order and layout a sorter writes reads alike", "[phy][npy]") {
    const test::TempDir dir;
    const std::string folder = phy_folder(dir);
    const SpikeTrains expected = io::read_spikes(folder, all_units());
    const auto check_same = [&](const std::string& what) {
        INFO(what);
        const SpikeTrains got = io::read_spikes(folder, all_units());
        CHECK(std::equal(got.times().begin(), got.times().end(), expected.times().begin(), expected.times().end()));
        CHECK(test::spike_labels(got) == test::spike_labels(expected));
    };
    write_npy(folder + "/spike_times.npy", "<u8", "(6, 1)", raw(kSamples));
    check_same("(N, 1), as MATLAB's writeNPY");
    write_npy(folder + "/spike_times.npy", "<u8", "(1, 6)", raw(kSamples), true);
    check_same("(1, N) in Fortran order");
    write_npy(folder + "/spike_times.npy", ">u8", "(6,)", raw(kSamples, true));
    check_same("big-endian");
    write_npy(folder + "/spike_times.npy", "<i4", "(6,)", raw(std::vector<std::int32_t>(kSamples.begin(), kSamples.end())));
    check_same("int32");
    write_npy(folder + "/spike_times.npy", "<f8", "(6,)", raw(std::vector<double>(kSamples.begin(), kSamples.end())));
    check_same("whole float64 samples");
    write_npy(folder + "/spike_clusters.npy", "<u2", "(6,)", raw(std::vector<std::uint16_t>(kUnits.begin(), kUnits.end())));
    check_same("uint16 units");
    write_npy(folder + "/spike_clusters.npy", "|u1", "(6,)", raw(std::vector<std::uint8_t>(kUnits.begin(), kUnits.end())));
    check_same("one-byte units");
}

TEST_CASE("phy: what is not a sorter's folder is refused, naming the file", "[phy][bad-input]") {
    const test::TempDir dir;
    const std::string folder = phy_folder(dir);
    const auto refused = [&](const std::string& file, const std::string& words, const io::ReadOptions& options = {}) {
        INFO(words);
        REQUIRE_THROWS_AS(io::read_spikes(folder, options), Error);
        REQUIRE_THROWS_WITH(io::read_spikes(folder, options), contains(file) && contains(words));
    };
    SECTION("params.py") {
        std::filesystem::remove(folder + "/params.py");
        refused(folder, "params.py");
        test::write_file(folder + "/params.py", "n_channels_dat = 32\n");
        refused("params.py", "names no sample_rate");
        test::write_file(folder + "/params.py", "sample_rate = fast\n");
        refused("params.py line 1", "'fast'");
        test::write_file(folder + "/params.py", "sample_rate = -3\n");
        refused("params.py line 1", "positive");
    }
    SECTION("the arrays") {
        write_npy(folder + "/spike_clusters.npy", "<i4", "(5,)", raw(std::vector<std::int32_t>{3, 5, 7, 3, 7}));
        refused("spike_clusters.npy", "one unit per spike");
        write_npy(folder + "/spike_clusters.npy", "<i4", "(7,)", raw(kUnits));
        refused("spike_clusters.npy", "truncated");
        test::write_file(folder + "/spike_clusters.npy", "not numpy at all");
        refused("spike_clusters.npy", "not a NumPy .npy file");
        write_npy(folder + "/spike_clusters.npy", "<c16", "(6,)", std::string(96, '\0'));
        refused("spike_clusters.npy", "'<c16'");
        write_npy(folder + "/spike_clusters.npy", "<i4", "(3, 2)", raw(kUnits));
        refused("spike_clusters.npy", "shape (3, 2)");
        write_npy(folder + "/spike_clusters.npy", "<f4", "(6,)", std::string(24, '\0'));
        refused("spike_clusters.npy", "floats");
        write_npy(folder + "/spike_clusters.npy", "<i4", "(6,)", raw(std::vector<std::int32_t>{3, 5, -7, 3, 7, 5}));
        refused("spike_clusters.npy", "negative unit id", all_units());
        write_npy(folder + "/spike_clusters.npy", "<i4", "(6,)", raw(kUnits));
        write_npy(folder + "/spike_times.npy", "<f8", "(6,)", raw(std::vector<double>{30, 60.5, 90, 3000, 30000, 60000}));
        refused("spike_times.npy", "element 1 is 60.5", all_units());
        write_npy(folder + "/spike_times.npy", "<i8", "(6,)", raw(std::vector<std::int64_t>{-30, 60, 90, 3000, 30000, 60000}));
        refused("spike_times.npy", "element 0 is -30", all_units());
        write_npy(folder + "/spike_times.npy", "<u8", "(6,)", raw(std::vector<std::uint64_t>{30, 60, 90, 3000, 30000, ~std::uint64_t{0}}));
        refused("spike_times.npy", "past 2^63 - 1");
    }
    SECTION("the labels") {
        test::write_file(folder + "/cluster_group.tsv", "cluster_id\tgroup\n3\tmua\n5\tnoise\n");
        refused("cluster_group.tsv", "--units all");
        test::write_file(folder + "/cluster_group.tsv", "cluster_id\tgroup\nthree\tgood\n");
        refused("cluster_group.tsv line 2", "'three'");
        test::write_file(folder + "/cluster_group.tsv", "cluster_id\tgroup\n3\tgood\n3\tmua\n");
        refused("cluster_group.tsv line 3", "labelled twice");
    }
    SECTION("no units") {
        std::filesystem::remove(folder + "/spike_clusters.npy");
        refused(folder, "spike_clusters.npy or spike_templates.npy");
    }
}

TEST_CASE("cli: run and info take a Phy folder; --units all reads every unit", "[cli][phy]") {
    const test::TempDir dir;
    const std::string folder = phy_folder(dir);
    const test::CliResult info = test::run_cli({"info", folder, "--units", "all"});
    INFO(info.err);
    CHECK(info.status == 0);
    CHECK(test::has(info.out, "phy"));
    CHECK(test::has(info.out, "3 (3 with spikes)"));
    const test::CliResult run = test::run_cli({"run", folder, "-o", dir.file("out")});
    INFO(run.err);
    CHECK(run.status == 0);
    CHECK(std::filesystem::exists(dir.file("out/results.h5")));
    // The checksum is that of the folder's files: another sorting gives another.
    const std::string other = phy_folder(dir, "other");
    test::write_file(other + "/params.py", "sample_rate = 20000.0\n");
    const test::CliResult again = test::run_cli({"run", other, "-o", dir.file("out2")});
    CHECK(again.status == 0);
    const auto checksum_of = [&](const std::string& out) {
        const std::string summary = test::read_file(dir.file(out + "/summary.json"));
        const auto at = summary.find("crc32:");
        return at == std::string::npos ? std::string() : summary.substr(at, 14);
    };
    CHECK(checksum_of("out").size() == 14);
    CHECK(checksum_of("out") != "crc32:00000000");
    CHECK(checksum_of("out") != checksum_of("out2"));
    const test::CliResult bad = test::run_cli({"info", folder, "--units", "some"});
    CHECK(bad.status == 2);
    const test::CliResult written = test::run_cli({"convert", folder, dir.file("copy.csv")});
    CHECK(written.status == 0);
    const test::CliResult plain = test::run_cli({"info", dir.file("out")});
    CHECK(plain.status == 1);
    CHECK(test::has(plain.err, "is a folder"));
}
