// Every HDF5 reader against every object of its layout put in the wrong shape or type.
// Seed files come from the project's own writers (a simulation with ground truth in the
// spikeminer layout, NWB, waverepo, a graph, mining results, a pipeline run's results.h5);
// each dataset, group and attribute in them is in turn removed, or replaced by a scalar,
// an array, a 2-D table, strings, an empty or null-shaped dataset, or a group. Each mutated file must read or be
// refused with an Error that names the file: no crash, no other exception.
#include "catch.hpp"
#include "test_paths.hpp"

#include "spikeminer/app/io/edge_list.hpp"
#include "spikeminer/app/io/mining_output.hpp"
#include "spikeminer/app/io/read_spikes.hpp"
#include "spikeminer/app/io/simulation_io.hpp"
#include "spikeminer/app/io/write_spikes.hpp"
#include "spikeminer/app/pipeline/results.hpp"
#include "spikeminer/app/pipeline/results_file.hpp"
#include "spikeminer/core/error.hpp"
#include "spikeminer/graph/graph.hpp"
#include "spikeminer/mining/mine.hpp"
#include "spikeminer/simulator/simulate.hpp"

#include <hdf5.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

using namespace spikeminer;

namespace {

// Fails the test (std::runtime_error) when the HDF5 library refuses a fixture step.
hid_t checked(hid_t id, const std::string& what) {
    if (id < 0) throw std::runtime_error("test fixture: " + what);
    return id;
}

struct Objects {
    std::vector<std::string> datasets;
    std::vector<std::string> groups;                                // "/" excluded
    std::vector<std::pair<std::string, std::string>> attributes;    // (object, name)
};

Objects list_objects(const std::string& path) {
    Objects objects;
    const hid_t file = checked(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), "open " + path);
    const auto visit = [](hid_t, const char* name, const H5O_info_t* info, void* data) -> herr_t {
        auto& found = *static_cast<Objects*>(data);
        const std::string object = std::string(name) == "." ? "/" : "/" + std::string(name);
        if (info->type == H5O_TYPE_DATASET) found.datasets.push_back(object);
        if (info->type == H5O_TYPE_GROUP && object != "/") found.groups.push_back(object);
        for (hsize_t i = 0; i < info->num_attrs; ++i) found.attributes.emplace_back(object, "");
        return 0;
    };
    H5Ovisit(file, H5_INDEX_NAME, H5_ITER_INC, visit, &objects);
    // Attribute names, per object.
    std::vector<std::pair<std::string, std::string>> named;
    std::string last;
    for (const auto& [object, unused] : objects.attributes) {
        if (object == last) continue;
        last = object;
        const auto collect = [](hid_t, const char* name, const H5A_info_t*, void* data) -> herr_t {
            static_cast<std::vector<std::string>*>(data)->emplace_back(name);
            return 0;
        };
        std::vector<std::string> names;
        H5Aiterate_by_name(file, object.c_str(), H5_INDEX_NAME, H5_ITER_INC, nullptr, collect, &names, H5P_DEFAULT);
        for (const auto& name : names) named.emplace_back(object, name);
    }
    objects.attributes = named;
    H5Fclose(file);
    return objects;
}

// The shapes and types a dataset or attribute is replaced by.
enum class Shape { Removed, ScalarInt, IntArray, FloatTable, Strings, Empty, Null, Group };
constexpr Shape kShapes[] = {Shape::Removed, Shape::ScalarInt, Shape::IntArray, Shape::FloatTable,
                             Shape::Strings, Shape::Empty,     Shape::Null,     Shape::Group};

const char* shape_name(Shape shape) {
    switch (shape) {
        case Shape::Removed: return "removed";
        case Shape::ScalarInt: return "a scalar integer";
        case Shape::IntArray: return "an integer array";
        case Shape::FloatTable: return "a 2-D float table";
        case Shape::Strings: return "strings";
        case Shape::Empty: return "empty";
        case Shape::Null: return "a null dataspace";
        case Shape::Group: return "a group";
    }
    return "?";
}

// The dataspace, file type and data of a replacement (not Removed or Group).
struct Replacement {
    hid_t space;
    hid_t type;
    hid_t memory_type;
    const void* data;
};

Replacement replacement(Shape shape, hid_t string_type) {
    static const std::int64_t ints[3] = {-1, std::int64_t{1} << 40, 3};
    static const double table[6] = {std::nan(""), 1.5, -2.0, std::numeric_limits<double>::infinity(), 0.0, 7.0};
    static const char* strings[2] = {"x", "\xff\xfe"};
    const hsize_t three[1] = {3};
    const hsize_t two_by_three[2] = {2, 3};
    const hsize_t two[1] = {2};
    const hsize_t none[1] = {0};
    switch (shape) {
        case Shape::ScalarInt: return {H5Screate(H5S_SCALAR), H5T_STD_I64LE, H5T_NATIVE_INT64, ints + 1};
        case Shape::IntArray: return {H5Screate_simple(1, three, nullptr), H5T_STD_I64LE, H5T_NATIVE_INT64, ints};
        case Shape::FloatTable: return {H5Screate_simple(2, two_by_three, nullptr), H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, table};
        case Shape::Strings: return {H5Screate_simple(1, two, nullptr), string_type, string_type, strings};
        case Shape::Empty: return {H5Screate_simple(1, none, nullptr), H5T_STD_I64LE, H5T_NATIVE_INT64, nullptr};
        case Shape::Null: return {H5Screate(H5S_NULL), H5T_STD_I64LE, H5T_NATIVE_INT64, nullptr};
        default: throw std::logic_error("no replacement data");
    }
}

// Writes `mutated`: a copy of `seed` with the dataset or group `object` (name empty) or
// its attribute `name` given the shape.
void mutate(const std::string& seed, const std::string& mutated, const std::string& object, const std::string& name,
            Shape shape) {
    std::filesystem::copy_file(seed, mutated, std::filesystem::copy_options::overwrite_existing);
    const hid_t file = checked(H5Fopen(mutated.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), "open " + mutated);
    const hid_t string_type = H5Tcopy(H5T_C_S1);
    H5Tset_size(string_type, H5T_VARIABLE);
    if (name.empty()) {
        checked(H5Ldelete(file, object.c_str(), H5P_DEFAULT), "delete " + object);
        if (shape == Shape::Group) {
            H5Gclose(checked(H5Gcreate2(file, object.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "group " + object));
        } else if (shape != Shape::Removed) {
            const Replacement r = replacement(shape, string_type);
            const hid_t dataset =
                checked(H5Dcreate2(file, object.c_str(), r.type, r.space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "create " + object);
            if (r.data != nullptr) checked(H5Dwrite(dataset, r.memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, r.data), "write " + object);
            H5Dclose(dataset);
            H5Sclose(r.space);
        }
    } else {
        checked(H5Adelete_by_name(file, object.c_str(), name.c_str(), H5P_DEFAULT), "delete attribute " + name);
        if (shape != Shape::Removed && shape != Shape::Group) {
            const Replacement r = replacement(shape, string_type);
            const hid_t attribute = checked(
                H5Acreate_by_name(file, object.c_str(), name.c_str(), r.type, r.space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                "create attribute " + name);
            if (r.data != nullptr) checked(H5Awrite(attribute, r.memory_type, r.data), "write attribute " + name);
            H5Aclose(attribute);
            H5Sclose(r.space);
        }
    }
    H5Tclose(string_type);
    H5Fclose(file);
}

// Every mutation of `seed` read by `read`: it returns or throws an Error naming the file;
// removing any of the `required` datasets is refused (so the sweep reads what it mutates).
void sweep(const std::string& seed, const std::function<void(const std::string&)>& read,
           const std::vector<std::string>& required) {
    REQUIRE_NOTHROW(read(seed));
    const Objects objects = list_objects(seed);
    REQUIRE(!objects.datasets.empty());
    const std::string mutated = (std::filesystem::path(seed).parent_path() / "mutated.h5").string();
    std::vector<std::string> refused;
    const auto check = [&](const std::string& what) {
        INFO(what);
        try {
            read(mutated);
        } catch (const Error& error) {
            refused.push_back(what);
            CHECK_THAT(error.what(), test::contains("mutated.h5"));
        } catch (const std::exception& other) {
            FAIL("not an Error: " << other.what());
        }
    };
    for (const std::string& dataset : objects.datasets) {
        for (const Shape shape : kShapes) {
            mutate(seed, mutated, dataset, "", shape);
            check("dataset " + dataset + " as " + shape_name(shape));
        }
    }
    for (const std::string& group : objects.groups) {
        for (const Shape shape : {Shape::Removed, Shape::IntArray}) {
            mutate(seed, mutated, group, "", shape);
            check("group " + group + " as " + shape_name(shape));
        }
    }
    for (const auto& [object, name] : objects.attributes) {
        for (const Shape shape : kShapes) {
            if (shape == Shape::Group) continue;
            mutate(seed, mutated, object, name, shape);
            check("attribute " + name + " of " + object + " as " + shape_name(shape));
        }
    }
    for (const std::string& dataset : required) {
        CHECK(std::find(refused.begin(), refused.end(), "dataset " + dataset + " as removed") != refused.end());
    }
}

simulator::Simulation small_simulation() {
    simulator::NetworkConfig config = simulator::scenario("paper");
    config.neurons = 12;
    config.chains.resize(1);
    config.duration_s = 5.0;
    config.assemblies.push_back(simulator::Assembly{{9, 10, 11}, 2.0, 2, 1.0, {{1.0, 3.0}}});
    simulator::Simulation sim = simulator::simulate(config);
    sim.truth.config_json = simulator::to_json(config);
    return sim;
}

const auto read_recording = [](const std::string& path) { (void)io::read_recording(path); };

}  // namespace

TEST_CASE("the spikeminer layout (with ground truth and positions) never crashes on a mutated object",
          "[hdf5][bad-input][mutation]") {
    const test::TempDir dir;
    simulator::Simulation sim = small_simulation();
    NeuronTable table = sim.trains.neuron_table();
    for (std::size_t n = 0; n < table.labels.size(); ++n) table.positions.push_back({double(n), 2.0 * double(n)});
    std::vector<Spike> spikes;
    for (std::size_t i = 0; i < sim.trains.num_spikes(); ++i) spikes.push_back({sim.trains.times()[i], sim.trains.neurons()[i]});
    sim.trains = SpikeTrains::from_spikes(std::move(spikes), table, sim.trains.time_base());
    const std::string seed = dir.file("seed.h5");
    REQUIRE(io::write_simulation(seed, sim, io::SpikeFormat::Spikeminer));
    sweep(seed, read_recording, {"/spikes/times", "/spikes/neurons", "/neurons/labels", "/ground_truth/chain_neurons"});
}

TEST_CASE("NWB and waverepo files never crash on a mutated object", "[hdf5][bad-input][mutation]") {
    const test::TempDir dir;
    const simulator::Simulation sim = small_simulation();
    const auto format = GENERATE(io::SpikeFormat::Nwb, io::SpikeFormat::Waverepo);
    const std::string seed = dir.file(format == io::SpikeFormat::Nwb ? "seed.nwb" : "seed.h5");
    io::write_spikes(seed, sim.trains, format);
    // Read as the file's own layout, as detection would pick it.
    io::ReadOptions options;
    options.format = format;
    const std::vector<std::string> required = format == io::SpikeFormat::Nwb
                                                  ? std::vector<std::string>{"/units/spike_times", "/units/spike_times_index"}
                                                  : std::vector<std::string>{"/spikes", "/sCount"};
    sweep(seed, [&](const std::string& path) { (void)io::read_recording(path, options); }, required);
}

TEST_CASE("graph and mining-result files never crash on a mutated object", "[hdf5][bad-input][mutation]") {
    const test::TempDir dir;
    SECTION("graph") {
        const std::string seed = dir.file("graph.h5");
        const std::vector<std::pair<graph::Vertex, graph::Vertex>> edges{{0, 1}, {1, 2}, {0, 2}, {3, 4}};
        io::write_graph_h5(seed, graph::Graph::from_edges(6, edges));
        sweep(seed, [](const std::string& path) { (void)io::read_graph(path); }, {"/graph/edges"});
    }
    SECTION("mining results") {
        const simulator::Simulation sim = small_simulation();
        mining::MiningOptions options;
        options.intervals = {{0, 3000}, {3000, 8000}};
        options.min_counts = {5};
        options.max_level = 3;
        options.count.backend = Backend::Cpu;
        options.chance = mining::ChanceTest{{20000, 40000}};
        const mining::MiningResult result = mining::mine(sim.trains, options);
        REQUIRE(std::any_of(result.episodes.begin(), result.episodes.end(), [](const auto& e) { return e.chance.has_value(); }));
        const std::string seed = dir.file("mined.h5");
        io::write_mining_results(seed, sim.trains, result, "ms", false);
        sweep(seed, [](const std::string& path) { (void)io::read_mining_results(path); },
              {"/mining/counts", "/mining/episode_neurons"});
    }
}

TEST_CASE("a pipeline run's results.h5 never crashes on a mutated object", "[hdf5][bad-input][mutation][results-file]") {
    const test::TempDir dir;
    pipeline::RunConfig config;
    config.simulate = "demo";
    config.duration_s = 20;
    config.window_s = 10;
    config.step_s = 5;
    config.backend = "cpu";
    const pipeline::Input input = pipeline::load_input(config, nullptr);
    pipeline::write_results(dir.file("run"), input, config, pipeline::run_pipeline(input, config, nullptr), nullptr);
    // Every dataset but the optional significance and test against chance is required.
    std::vector<std::string> required = list_objects(dir.file("run/results.h5")).datasets;
    std::erase(required, "/mining/chance");
    sweep(dir.file("run/results.h5"), [](const std::string& path) { (void)pipeline::read_results(path); }, required);
}
