// Simulated spikes on disk (simulation_io.hpp): the spikeminer HDF5 format keeps the
// spikes and the /ground_truth group exactly; other formats keep only the spikes; a
// damaged /ground_truth is an Error naming the file and the dataset.
#include "app_test_helpers.hpp"
#include "catch.hpp"
#include "test_paths.hpp"

#include "spikeminer/app/io/read_spikes.hpp"
#include "spikeminer/app/io/simulation_io.hpp"
#include "spikeminer/app/io/write_spikes.hpp"
#include "spikeminer/core/error.hpp"

#include <hdf5.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

using namespace spikeminer;
using spikeminer::test::contains;

namespace {

// 12 neurons for 5 s: two chains (4 and 3 neurons, one looped with a delay range) and two
// assemblies (one of them with partial participation).
simulator::NetworkConfig small_config() {
    simulator::NetworkConfig config;
    config.neurons = 12;
    config.duration_s = 5.0;
    config.seed = 11;
    config.chains.push_back(simulator::Chain{{0, 1, 2, 3}, {0.8, 0.8, 0.8}, {{3, 3}, {3, 3}, {3, 3}}, false});
    config.chains.push_back(simulator::Chain{{4, 5, 6}, {0.6, 0.7, 0.5}, {{2, 4}, {5, 5}, {1, 6}}, true});
    config.assemblies.push_back(simulator::Assembly{{7, 8, 9}, 2.0, 2, 1.0, {}});
    config.assemblies.push_back(simulator::Assembly{{10, 11, 0}, 1.0, 0, 0.8, {{1.0, 2.5}, {3.0, 4.5}}});
    return config;
}

simulator::Simulation small_simulation() {
    const simulator::NetworkConfig config = small_config();
    simulator::Simulation sim = simulator::simulate(config);
    sim.truth.config_json = simulator::to_json(config);
    return sim;
}

std::vector<Tick> times(const SpikeTrains& trains) { return {trains.times().begin(), trains.times().end()}; }
std::vector<NeuronId> neurons(const SpikeTrains& trains) { return {trains.neurons().begin(), trains.neurons().end()}; }

// Opens an existing HDF5 file read-write, deletes `dataset` and, when `values` is given,
// recreates it as int64 with those values.
void replace_dataset(const std::string& path, const std::string& dataset,
                     const std::optional<std::vector<std::int64_t>>& values) {
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    if (file < 0) throw std::runtime_error("test: cannot open " + path);
    herr_t status = H5Ldelete(file, dataset.c_str(), H5P_DEFAULT);
    if (status >= 0 && values) {
        const hsize_t dims[1] = {values->size()};
        const hid_t space = H5Screate_simple(1, dims, nullptr);
        const hid_t data = H5Dcreate2(file, dataset.c_str(), H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        H5Sclose(space);
        status = data < 0 ? herr_t{-1}
                 : values->empty()
                     ? herr_t{0}
                     : H5Dwrite(data, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, values->data());
        if (data >= 0) H5Dclose(data);
    }
    const herr_t closed = H5Fclose(file);
    if (status < 0 || closed < 0) throw std::runtime_error("test: cannot replace " + dataset + " in " + path);
}

}  // namespace

TEST_CASE("simulation: the small config embeds what it says", "[simulation]") {
    const simulator::Simulation sim = small_simulation();
    CHECK(sim.trains.num_neurons() == 12);
    CHECK(sim.trains.span() == TimeSpan{0, 5'000'000});
    CHECK(sim.trains.num_spikes() > 0);
    REQUIRE(sim.truth.chains.size() == 2);
    CHECK(sim.truth.chains[0].neurons == std::vector<NeuronId>{0, 1, 2, 3});
    CHECK(sim.truth.chains[0].delays == std::vector<TimeSpan>(3, TimeSpan{3000, 3000}));
    CHECK(sim.truth.chains[1].delays == std::vector<TimeSpan>{{2000, 4000}, {5000, 5000}, {1000, 6000}});
    CHECK(sim.truth.chains[1].strengths == std::vector<double>{0.6, 0.7, 0.5});
    CHECK(sim.truth.chains[1].loopback);
    REQUIRE(sim.truth.assemblies.size() == 2);
    CHECK(sim.truth.assemblies[0].jitter == 2000);
    CHECK_FALSE(sim.truth.assemblies[0].activation_times.empty());
    CHECK_FALSE(sim.truth.assemblies[1].activation_times.empty());
}

TEST_CASE("simulation: the spikeminer HDF5 format keeps spikes and ground truth exactly", "[simulation]") {
    const test::TempDir dir;
    const std::string path = dir.file("sim.h5");
    const simulator::Simulation sim = small_simulation();
    REQUIRE(io::write_simulation(path, sim, io::SpikeFormat::Spikeminer));
    CHECK(test::partial_files(dir.path()).empty());

    const SpikeTrains back = io::read_spikes(path);
    CHECK(back.num_neurons() == sim.trains.num_neurons());
    CHECK(times(back) == times(sim.trains));
    CHECK(neurons(back) == neurons(sim.trains));
    CHECK(back.span() == sim.trains.span());
    CHECK(back.time_base().ticks_per_second == 1'000'000);

    const std::optional<simulator::GroundTruth> truth = io::read_ground_truth(path);
    REQUIRE(truth.has_value());
    CHECK(truth->chains == sim.truth.chains);
    REQUIRE(truth->assemblies.size() == 2);
    CHECK(truth->assemblies[0].activation_times == sim.truth.assemblies[0].activation_times);
    CHECK(truth->assemblies[1].activation_times == sim.truth.assemblies[1].activation_times);
    CHECK(truth->assemblies == sim.truth.assemblies);
    CHECK(truth->config_json == sim.truth.config_json);
    CHECK(*truth == sim.truth);
}

TEST_CASE("simulation: ground truth without chains or assemblies round-trips", "[simulation]") {
    const test::TempDir dir;
    const std::string path = dir.file("plain.h5");
    simulator::NetworkConfig config;
    config.neurons = 5;
    config.duration_s = 2.0;
    simulator::Simulation sim = simulator::simulate(config);
    SECTION("with the configuration") { sim.truth.config_json = simulator::to_json(config); }
    SECTION("with an empty configuration string") { sim.truth.config_json.clear(); }
    REQUIRE(io::write_simulation(path, sim, io::SpikeFormat::Spikeminer));
    const auto truth = io::read_ground_truth(path);
    REQUIRE(truth.has_value());
    CHECK(truth->chains.empty());
    CHECK(truth->assemblies.empty());
    CHECK(*truth == sim.truth);
}

TEST_CASE("simulation: an assembly that never activates keeps an empty list of times", "[simulation]") {
    const test::TempDir dir;
    const std::string path = dir.file("quiet.h5");
    simulator::NetworkConfig config;
    config.neurons = 6;
    config.duration_s = 1.0;
    config.assemblies.push_back(simulator::Assembly{{0, 1}, 1e-6, 1, 1.0, {}});  // essentially never
    config.assemblies.push_back(simulator::Assembly{{2, 3, 4}, 20.0, 1, 1.0, {}});
    simulator::Simulation sim = simulator::simulate(config);
    sim.truth.config_json = simulator::to_json(config);
    REQUIRE(sim.truth.assemblies[0].activation_times.empty());
    REQUIRE_FALSE(sim.truth.assemblies[1].activation_times.empty());
    REQUIRE(io::write_simulation(path, sim, io::SpikeFormat::Spikeminer));
    const auto truth = io::read_ground_truth(path);
    REQUIRE(truth.has_value());
    CHECK(*truth == sim.truth);
}

TEST_CASE("simulation: other formats keep only the spikes", "[simulation]") {
    const test::TempDir dir;
    const simulator::Simulation sim = small_simulation();
    SECTION("csv") {
        const std::string path = dir.file("sim.csv");
        CHECK_FALSE(io::write_simulation(path, sim, io::SpikeFormat::Csv));
        CHECK_FALSE(io::read_ground_truth(path).has_value());
        const SpikeTrains back = io::read_spikes(path);
        CHECK(back.num_spikes() == sim.trains.num_spikes());
        CHECK(times(back) == times(sim.trains));
    }
    SECTION("nwb") {
        const std::string path = dir.file("sim.nwb");
        CHECK_FALSE(io::write_simulation(path, sim, io::SpikeFormat::Nwb));
        CHECK_FALSE(io::read_ground_truth(path).has_value());
        CHECK(io::read_spikes(path).num_spikes() == sim.trains.num_spikes());
    }
    CHECK(test::partial_files(dir.path()).empty());
}

TEST_CASE("simulation: a spikeminer file written by write_spikes has no ground truth", "[simulation]") {
    const test::TempDir dir;
    const std::string path = dir.file("spikes.h5");
    const simulator::Simulation sim = small_simulation();
    io::write_spikes(path, sim.trains, io::SpikeFormat::Spikeminer);
    CHECK_FALSE(io::read_ground_truth(path).has_value());
    CHECK(times(io::read_spikes(path)) == times(sim.trains));
}

TEST_CASE("simulation: read_ground_truth on a missing file is an Error naming it", "[simulation]") {
    const test::TempDir dir;
    const std::string path = dir.file("absent.h5");
    REQUIRE_THROWS_AS(io::read_ground_truth(path), Error);
    REQUIRE_THROWS_WITH(io::read_ground_truth(path), contains(path));
}

TEST_CASE("simulation: a damaged /ground_truth is an Error naming the file and the dataset", "[simulation]") {
    const test::TempDir dir;
    const std::string path = dir.file("damaged.h5");
    const simulator::Simulation sim = small_simulation();
    REQUIRE(io::write_simulation(path, sim, io::SpikeFormat::Spikeminer));
    REQUIRE(io::read_ground_truth(path).has_value());
    // Chains of 4 and 3 neurons: the true chain_neurons_index is {4, 7}; 9 links in all.
    const std::size_t activations =
        sim.truth.assemblies[0].activation_times.size() + sim.truth.assemblies[1].activation_times.size();
    const auto a0 = static_cast<std::int64_t>(sim.truth.assemblies[0].activation_times.size());
    const auto total = static_cast<std::int64_t>(activations);

    std::string dataset;
    std::string why;
    SECTION("chain_neurons_index not monotone") {
        dataset = "/ground_truth/chain_neurons_index";
        why = "not monotone";
        replace_dataset(path, dataset, std::vector<std::int64_t>{5, 2});
    }
    SECTION("chain_neurons_index too long") {
        dataset = "/ground_truth/chain_neurons_index";
        why = "has 3 entries, expected 2";
        replace_dataset(path, dataset, std::vector<std::int64_t>{4, 7, 7});
    }
    SECTION("chain_neurons_index too short") {
        dataset = "/ground_truth/chain_neurons_index";
        why = "has 1 entries, expected 2";
        replace_dataset(path, dataset, std::vector<std::int64_t>{7});
    }
    SECTION("chain_neurons_index points past the neurons") {
        dataset = "/ground_truth/chain_neurons_index";
        why = "points past its data";
        replace_dataset(path, dataset, std::vector<std::int64_t>{4, 8});
    }
    SECTION("chain_neurons_index leaves neurons over") {
        dataset = "/ground_truth/chain_neurons_index";
        why = "leaves values";
        replace_dataset(path, dataset, std::vector<std::int64_t>{4, 6});
    }
    SECTION("chain_neurons_index negative") {
        dataset = "/ground_truth/chain_neurons_index";
        why = "not monotone";
        replace_dataset(path, dataset, std::vector<std::int64_t>{-1, 7});
    }
    SECTION("chain_links_index past the delays") {
        dataset = "/ground_truth/chain_links_index";
        replace_dataset(path, dataset, std::vector<std::int64_t>{3, 10});
    }
    SECTION("chain_neurons holds a negative neuron") {
        dataset = "/ground_truth/chain_neurons";
        why = "invalid neuron";
        replace_dataset(path, dataset, std::vector<std::int64_t>{0, 1, -2, 3, 4, 5, 6});
    }
    SECTION("chain_loopback missing") {
        dataset = "/ground_truth/chain_loopback";
        replace_dataset(path, dataset, std::nullopt);
    }
    SECTION("assembly_jitter not one per assembly") {
        dataset = "/ground_truth/assembly_jitter";
        why = "one entry per assembly";
        replace_dataset(path, dataset, std::vector<std::int64_t>{2000});
    }
    SECTION("assembly_members_index not monotone") {
        dataset = "/ground_truth/assembly_members_index";
        why = "not monotone";
        replace_dataset(path, dataset, std::vector<std::int64_t>{4, 3});
    }
    SECTION("activation_times_index leaves times over") {
        dataset = "/ground_truth/activation_times_index";
        why = "leaves values";
        replace_dataset(path, dataset, std::vector<std::int64_t>{a0, total - 1});
    }
    SECTION("activation_times_index too long") {
        dataset = "/ground_truth/activation_times_index";
        why = "expected 2";
        replace_dataset(path, dataset, std::vector<std::int64_t>{a0, total, total});
    }
    SECTION("activation_times_index missing") {
        dataset = "/ground_truth/activation_times_index";
        replace_dataset(path, dataset, std::nullopt);
    }
    CAPTURE(dataset);
    REQUIRE_THROWS_AS(io::read_ground_truth(path), Error);
    REQUIRE_THROWS_WITH(io::read_ground_truth(path), contains(path));
    REQUIRE_THROWS_WITH(io::read_ground_truth(path), contains(dataset));
    if (!why.empty()) REQUIRE_THROWS_WITH(io::read_ground_truth(path), contains(why));
    // The spikes themselves are still readable.
    CHECK(times(io::read_spikes(path)) == times(sim.trains));
}
