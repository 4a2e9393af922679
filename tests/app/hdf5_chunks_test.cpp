// Large HDF5 datasets are read chunk by chunk and inflated on all cores, and written chunk
// by chunk compressed on all cores (hdf5_chunks.hpp): what comes back must be what was
// written, across many chunks and a partial last one, through this reader and the library's
// own, and a chunk that does not inflate must be refused, naming the file and the dataset.
#include "app_test_helpers.hpp"
#include "catch.hpp"
#include "hdf5_fixtures.hpp"
#include "test_paths.hpp"

#include "io/hdf5_write.hpp"
#include "spikeminer/app/io/read_spikes.hpp"
#include "spikeminer/app/io/write_spikes.hpp"
#include "spikeminer/core/error.hpp"

#include <hdf5.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>
#include <string>
#include <vector>

using namespace spikeminer;

namespace {

// 700,000 spikes of 50 neurons: two whole chunks of the writers' 2^18 values and a part.
SpikeTrains many_spikes() {
    std::mt19937 random(5);
    std::uniform_int_distribution<Tick> gap(0, 900);
    std::uniform_int_distribution<NeuronId> neuron(0, 49);
    std::vector<Spike> spikes;
    Tick t = -3'000'000;
    for (int i = 0; i < 700'000; ++i) spikes.push_back(Spike{t += gap(random), neuron(random)});
    NeuronTable table;
    for (int n = 0; n < 50; ++n) table.labels.push_back(std::to_string(n));
    return SpikeTrains::from_spikes(std::move(spikes), std::move(table), TimeBase{});
}

// Where the file stores chunk `index` of `dataset`, and its size.
std::pair<haddr_t, hsize_t> chunk_place(const std::string& path, const std::string& dataset, hsize_t index) {
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    const hid_t data = H5Dopen2(file, dataset.c_str(), H5P_DEFAULT);
    hsize_t offset = 0;
    unsigned mask = 0;
    haddr_t address = 0;
    hsize_t size = 0;
    const hid_t space = H5Dget_space(data);
    const herr_t found = H5Dget_chunk_info(data, space, index, &offset, &mask, &address, &size);
    H5Sclose(space);
    H5Dclose(data);
    H5Fclose(file);
    REQUIRE(found >= 0);
    return {address, size};
}

}  // namespace

TEST_CASE("many chunks read on all cores give back every spike, in the HDF5 formats", "[hdf5][chunks]") {
    const SpikeTrains original = many_spikes();
    const test::TempDir dir;
    for (const auto& [suffix, format] : {std::pair{".h5", io::SpikeFormat::Spikeminer}, std::pair{".nwb", io::SpikeFormat::Nwb},
                                         std::pair{".waverepo.h5", io::SpikeFormat::Waverepo}}) {
        CAPTURE(suffix);
        const std::string path = dir.file(std::string("many") + suffix);
        io::write_spikes(path, original, format);
        const SpikeTrains back = io::read_spikes(path);
        REQUIRE(back.num_spikes() == original.num_spikes());
        CHECK(std::equal(back.times().begin(), back.times().end(), original.times().begin()));
        CHECK(std::equal(back.neurons().begin(), back.neurons().end(), original.neurons().begin()));
        for (NeuronId n = 0; n < 50; ++n) CHECK(back.spike_count(n) == original.spike_count(n));
    }
}

TEST_CASE("a chunk that does not inflate is refused, naming the file and the dataset", "[hdf5][chunks]") {
    const test::TempDir dir;
    const std::string path = dir.file("damaged.h5");
    io::write_spikes(path, many_spikes(), io::SpikeFormat::Spikeminer);
    const auto [address, size] = chunk_place(path, "/spikes/times", 1);
    REQUIRE(size > 64);
    {
        std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
        file.seekp(static_cast<std::streamoff>(address + size / 2));
        const std::string noise(32, '\x5a');
        file.write(noise.data(), static_cast<std::streamsize>(noise.size()));
    }
    CHECK_THROWS_WITH(io::read_spikes(path), test::contains(path) && test::contains("/spikes/times") && test::contains("chunk 1"));
}

TEST_CASE("chunks filtered in any order or left raw at the edge read as the library reads them", "[hdf5][chunks]") {
    // 100,003 times in chunks of 4,096: the last chunk partial. Layouts other writers may
    // make: deflate before shuffle, deflate twice, shuffle alone, and the edge chunk left
    // unfiltered (H5D_CHUNK_DONT_FILTER_PARTIAL_CHUNKS).
    std::vector<std::int64_t> times(100'003);
    for (std::size_t i = 0; i < times.size(); ++i) times[i] = static_cast<std::int64_t>(i * 37 + (i % 7));
    struct Layout {
        const char* name;
        std::vector<H5Z_filter_t> filters;
        bool raw_partial_chunk;
    };
    const std::vector<Layout> layouts{{"deflate then shuffle", {H5Z_FILTER_DEFLATE, H5Z_FILTER_SHUFFLE}, false},
                                      {"deflate twice", {H5Z_FILTER_DEFLATE, H5Z_FILTER_DEFLATE}, false},
                                      {"shuffle, raw edge", {H5Z_FILTER_SHUFFLE}, true},
                                      {"shuffle and deflate, raw edge", {H5Z_FILTER_SHUFFLE, H5Z_FILTER_DEFLATE}, true},
                                      {"deflate, raw edge", {H5Z_FILTER_DEFLATE}, true}};
    const test::TempDir dir;
    for (const Layout& layout : layouts) {
        CAPTURE(layout.name);
        const std::string path = dir.file("layout.h5");
        {
            test::H5Fixture file(path);
            test::spikeminer_root(file);
            file.strings("/neurons/labels", {"a"});
            file.filtered_int64s("/spikes/times", times, 4096, layout.filters, layout.raw_partial_chunk);
            file.uint32s("/spikes/neurons", std::vector<std::uint32_t>(times.size(), 0));
        }
        const SpikeTrains back = io::read_spikes(path);
        REQUIRE(back.num_spikes() == times.size());
        CHECK(std::equal(back.times().begin(), back.times().end(), times.begin()));
    }
}

TEST_CASE("chunks compressed on all cores are what the library itself reads back", "[hdf5][chunks]") {
    // 600,001 values of each column type: two whole chunks of the writer's 2^18 values and an
    // edge chunk, shuffled and compressed in parallel and stored as they are; read back
    // through H5Dread, the library's own filters.
    const std::size_t n = 600'001;
    std::vector<std::int64_t> wide(n);
    std::vector<std::uint32_t> narrow(n);
    std::vector<double> real(n);
    std::mt19937_64 random(11);
    for (std::size_t i = 0; i < n; ++i) {
        wide[i] = static_cast<std::int64_t>(random()) >> (i % 40);
        narrow[i] = static_cast<std::uint32_t>(random() % 1000);
        real[i] = std::ldexp(static_cast<double>(random() % 100'000), -static_cast<int>(i % 20));
    }
    const test::TempDir dir;
    const std::string path = dir.file("columns.h5");
    {
        io::detail::H5Writer file(path, path);
        file.write("/wide", wide);
        file.write("/narrow", narrow);
        file.write("/real", real);
        file.close();
    }
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    REQUIRE(file >= 0);
    const auto read = [file](const char* name, hid_t type, void* out) {
        CAPTURE(name);
        const hid_t data = H5Dopen2(file, name, H5P_DEFAULT);
        REQUIRE(data >= 0);
        const hid_t properties = H5Dget_create_plist(data);
        hsize_t chunk = 0;
        CHECK(H5Pget_chunk(properties, 1, &chunk) == 1);
        CHECK(chunk == (hsize_t{1} << 18));
        REQUIRE(H5Pget_nfilters(properties) == 2);
        const auto filter = [properties](unsigned index) {
            unsigned flags = 0;
            std::size_t values = 0;  // none asked for
            return H5Pget_filter2(properties, index, &flags, &values, nullptr, 0, nullptr, nullptr);
        };
        CHECK(filter(0) == H5Z_FILTER_SHUFFLE);
        CHECK(filter(1) == H5Z_FILTER_DEFLATE);
        CHECK(H5Dread(data, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out) >= 0);
        H5Pclose(properties);
        H5Dclose(data);
    };
    std::vector<std::int64_t> wide_back(n);
    std::vector<std::uint32_t> narrow_back(n);
    std::vector<double> real_back(n);
    read("/wide", H5T_NATIVE_INT64, wide_back.data());
    read("/narrow", H5T_NATIVE_UINT32, narrow_back.data());
    read("/real", H5T_NATIVE_DOUBLE, real_back.data());
    H5Fclose(file);
    CHECK(std::ranges::equal(wide_back, wide));  // not printed whole when they differ
    CHECK(std::ranges::equal(narrow_back, narrow));
    CHECK(std::ranges::equal(real_back, real));
}
