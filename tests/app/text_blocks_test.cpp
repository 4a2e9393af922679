// Large text tables are read in blocks of a few MiB and parsed side by side: the result
// must be the file read line by line, whatever the blocks' bounds: labels numbered in
// order of first appearance, "# neuron:" comments anywhere, and the first bad line named
// with its number, in plain, gzip and BGZF files (whose members are inflated in parallel).
#include "app_test_helpers.hpp"
#include "catch.hpp"
#include "test_paths.hpp"

#include "io/bgzf.hpp"
#include "spikeminer/app/io/read_spikes.hpp"
#include "spikeminer/core/error.hpp"

#include <string>
#include <vector>

using namespace spikeminer;

namespace {

// 900,000 rows (about 14 MB, several blocks), row r at r µs: units named "cell<k>" (not
// integers, so their order is that of first appearance), cell<k> first firing at row
// 1000 k and the rows between drawn from those already seen; a comment naming a silent
// neuron before row 450,000.
struct Table {
    std::string text;
    std::vector<std::string> labels;
};

Table table(std::size_t bad_row = 0) {
    Table t;
    t.text = "unit,time_s\n";
    for (std::size_t r = 0; r < 900'000; ++r) {
        if (r == 450'000) {
            t.text += "# neuron: silent one\n";
            t.labels.push_back("silent one");
        }
        const std::size_t k = r % 1000 == 0 ? r / 1000 : (r * 7919) % (r / 1000 + 1);
        if (r % 1000 == 0) t.labels.push_back("cell" + std::to_string(k));
        const std::string time = std::to_string(static_cast<double>(r) * 1e-6);
        t.text += "cell" + std::to_string(k) + "," + (r == bad_row && r > 0 ? std::string("x") : time) + "\n";
    }
    return t;
}

enum class Packing { Plain, Gzip, Bgzf };

std::string write_packed(const test::TempDir& dir, const std::string& name, const std::string& text, Packing packing) {
    const std::string path = dir.file(name + (packing == Packing::Plain ? ".csv" : packing == Packing::Gzip ? ".csv.gz" : ".bgzf.csv.gz"));
    if (packing == Packing::Gzip) {
        test::write_gzip(path, text);
    } else if (packing == Packing::Bgzf) {
        std::string bytes;
        io::detail::append_bgzf(text, 6, bytes);
        test::write_file(path, bytes + std::string(io::detail::bgzf_end()));
    } else {
        test::write_file(path, text);
    }
    return path;
}

}  // namespace

TEST_CASE("a table of many blocks reads as it would line by line, plain, gzip and BGZF", "[text][blocks]") {
    // cell0..cell449 appear before the comment, the rest after it.
    const Table t = table();
    const std::vector<std::string>& expected = t.labels;
    REQUIRE(expected[450] == "silent one");
    const test::TempDir dir;
    for (const Packing packing : {Packing::Plain, Packing::Gzip, Packing::Bgzf}) {
        CAPTURE(static_cast<int>(packing));
        const std::string path = write_packed(dir, "many", t.text, packing);
        const SpikeTrains trains = io::read_spikes(path);
        CHECK(trains.neuron_table().labels == expected);
        REQUIRE(trains.num_spikes() == 900'000);
        CHECK(trains.times().front() == 0);
        CHECK(trains.times().back() == 899'999);
        CHECK(trains.spike_count(450) == 0);  // the silent neuron
        CHECK(trains.spike_count(451) > 0);
    }
}

TEST_CASE("the first bad row of many blocks is named with its line", "[text][blocks]") {
    const test::TempDir dir;
    const Table t = table(700'000);
    for (const Packing packing : {Packing::Plain, Packing::Gzip, Packing::Bgzf}) {
        CAPTURE(static_cast<int>(packing));
        const std::string path = write_packed(dir, "bad", t.text, packing);
        // Line 1 is the header, line 450,002 the comment: row 700,000 is line 700,003.
        CHECK_THROWS_WITH(io::read_spikes(path), test::contains(path + " line 700003: time 'x' is not a number"));
    }
}
