// The Python module `spikeminer` (its compiled part, `spikeminer._spikeminer`): recordings
// from files, simulations or numpy arrays, and the pipeline's stages on them. The package's
// __init__.py gives the calls their Python shape (inputs of every kind, settings as keyword
// arguments, a progress bar).
#include "interruptible.hpp"
#include "spike_arrays.hpp"
#include "to_python.hpp"

#include "spikeminer/app/io/read_spikes.hpp"
#include "spikeminer/app/pipeline/pipeline.hpp"
#include "spikeminer/app/pipeline/results.hpp"
#include "spikeminer/app/pipeline/run_config.hpp"
#include "spikeminer/core/error.hpp"
#include "spikeminer/graph/cliques.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <memory>
#include <mutex>

namespace py = pybind11;

namespace spikeminer::python {
namespace {

// A recording and the settings that say where it came from (its input or scenario and how
// it was read), which a run's settings start from.
struct Recording {
    std::shared_ptr<const pipeline::Input> input;
    pipeline::RunConfig origin;
    [[nodiscard]] const SpikeTrains& trains() const { return input->recording.trains; }
};

// The settings of a call: the recording's origin, then the JSON object of the call's keys.
pipeline::RunConfig settings_of(const Recording& recording, const std::string& settings_json) {
    pipeline::RunConfig config = recording.origin;
    try {
        pipeline::apply_json(config, settings_json, "settings");
        const pipeline::RunConfig& o = recording.origin;
        if (config.input != o.input || config.simulate != o.simulate || config.seed != o.seed || config.duration_s != o.duration_s) {
            throw UsageError("settings: give the recording as the first argument, not as 'input' or 'simulate'");
        }
        if (config.format != o.format || config.tick != o.tick || config.duplicates != o.duplicates || config.units != o.units) {
            throw UsageError("settings: 'read' settings apply where the recording is read (spikeminer.read, spikeminer.recording), "
                             "not to a recording already read");
        }
        pipeline::validate(config);
    } catch (const UsageError& e) {
        throw py::value_error(e.what());
    }
    return config;
}

Recording load(const pipeline::RunConfig& origin, const py::object& progress) {
    try {
        pipeline::validate(origin);
    } catch (const UsageError& e) {
        throw py::value_error(e.what());
    }
    Recording recording{nullptr, origin};
    run_interruptible(progress, ErrorKind::File, [&](Progress& p) {
        recording.input = std::make_shared<const pipeline::Input>(pipeline::load_input(origin, &p));
    });
    return recording;
}

Recording read_file(const std::string& path, const std::string& format, const std::string& tick, const std::string& duplicates,
               const std::string& units, const py::object& progress) {
    pipeline::RunConfig origin;
    origin.input = path;
    origin.format = format;
    origin.tick = tick;
    origin.duplicates = duplicates;
    origin.units = units;
    return load(origin, progress);
}

Recording simulate(const std::string& scenario, std::uint64_t seed, std::optional<double> duration_s, const py::object& progress) {
    pipeline::RunConfig origin;
    origin.simulate = scenario;
    origin.seed = seed;
    origin.duration_s = duration_s;
    return load(origin, progress);
}

Recording from_arrays(py::array times, py::array units, std::optional<std::vector<std::string>> labels, const std::string& tick,
                      const std::string& duplicates, const std::string& source) {
    const SpikeArrays arrays = check_spike_arrays(std::move(times), std::move(units), std::move(labels));
    io::ReadOptions options;
    try {
        options = io::read_options("", tick, duplicates, nullptr);
    } catch (const UsageError& e) {
        throw py::value_error(e.what());
    }
    Recording recording;
    recording.origin.input = source;
    recording.origin.tick = tick;
    recording.origin.duplicates = duplicates;
    run_interruptible(py::none(), ErrorKind::Runtime, [&](Progress&) {
        SpikeTrains trains = trains_from_arrays(arrays, options.time_base.value_or(TimeBase{}), options.duplicates);
        recording.input = std::make_shared<const pipeline::Input>(pipeline::input_from_trains(std::move(trains), source));
    });
    return recording;
}

py::dict mine(const Recording& recording, const std::string& settings_json, const py::object& progress) {
    const pipeline::RunConfig config = settings_of(recording, settings_json);
    mining::MiningResult result;
    run_interruptible(progress, ErrorKind::Runtime, [&](Progress& p) { result = pipeline::mine_episodes(recording.trains(), config, &p); });
    py::dict d;
    d["episodes"] = episodes_to_python(recording.trains(), result);
    d["levels"] = levels_to_python(result);
    d["stopped"] = result.stopped;
    return d;
}

py::list cofiring(const Recording& recording, const std::string& settings_json, const py::object& progress) {
    const pipeline::RunConfig config = settings_of(recording, settings_json);
    std::vector<mining::CofiringWindow> windows;
    run_interruptible(progress, ErrorKind::Runtime, [&](Progress& p) {
        mining::CofiringOptions options = pipeline::cofiring_options(config, recording.trains());
        options.progress = &p;
        mining::CofiringWindows counter(recording.trains(), options);
        for (mining::CofiringWindow window; counter.next(window);) windows.push_back(window);
    });
    py::list list;
    for (const auto& window : windows) list.append(window_to_python(recording.trains(), window));
    return list;
}

py::list cliques(const py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>& edges, std::int64_t vertices, std::size_t min_size,
                 const std::string& backend) {
    if (edges.ndim() != 2 || edges.shape(1) != 2) throw py::value_error("edges: expected an array of shape (m, 2)");
    auto e = edges.unchecked<2>();
    std::int64_t largest = -1;
    for (py::ssize_t i = 0; i < e.shape(0); ++i) {
        for (int side = 0; side < 2; ++side) {
            if (e(i, side) < 0) throw py::value_error("edges[" + std::to_string(i) + "]: vertex " + std::to_string(e(i, side)) + " is negative");
            largest = std::max(largest, e(i, side));
        }
    }
    if (vertices < 0) vertices = largest + 1;
    if (largest >= vertices) throw py::value_error("edges: vertex " + std::to_string(largest) + " is not below vertices=" + std::to_string(vertices));
    if (vertices > std::int64_t{std::numeric_limits<graph::Vertex>::max()}) throw py::value_error("vertices: too many for a graph");
    std::vector<std::pair<graph::Vertex, graph::Vertex>> pairs(static_cast<std::size_t>(e.shape(0)));
    for (py::ssize_t i = 0; i < e.shape(0); ++i) pairs[static_cast<std::size_t>(i)] = {static_cast<graph::Vertex>(e(i, 0)), static_cast<graph::Vertex>(e(i, 1))};
    graph::CliqueOptions options;
    options.min_size = std::max<std::size_t>(min_size, 1);
    std::vector<std::vector<graph::Vertex>> found;
    std::mutex mutex;
    run_interruptible(py::none(), ErrorKind::Runtime, [&](Progress& p) {
        options.backend = parse_backend(backend);
        options.progress = &p;
        const graph::Graph graph = graph::Graph::from_edges(static_cast<graph::Vertex>(vertices), pairs);
        (void)graph::enumerate_maximal_cliques(graph, options, [&](std::span<const graph::Vertex> clique) {
            const std::lock_guard lock(mutex);
            found.emplace_back(clique.begin(), clique.end());
        });
        std::sort(found.begin(), found.end());
    });
    py::list list;
    for (const auto& clique : found) list.append(py::cast(clique));
    return list;
}

py::dict run(const Recording& recording, const std::string& settings_json, const std::string& output, double figure_seconds,
             const py::object& progress) {
    const pipeline::RunConfig config = settings_of(recording, settings_json);
    if (!output.empty()) {
        try {
            pipeline::check_results_dir(output, config);
        } catch (const UsageError& e) {
            throw py::value_error(e.what());
        }
    }
    pipeline::PipelineResult result;
    run_interruptible(progress, ErrorKind::Runtime, [&](Progress& p) { result = pipeline::run_pipeline(*recording.input, config, &p); });
    py::dict d = run_to_python(*recording.input, config, result);
    if (!output.empty()) {
        std::vector<std::string> written;
        run_interruptible(progress, ErrorKind::File, [&](Progress& p) {
            written = pipeline::write_results(output, *recording.input, config, result, &p, figure_seconds);
        });
        d["written"] = written;
    }
    return d;
}

}  // namespace
}  // namespace spikeminer::python

PYBIND11_MODULE(_spikeminer, m) {
    using namespace spikeminer::python;
    namespace sm = spikeminer;
    m.doc() = "spikeminer's compiled core; use the spikeminer package";
    m.attr("__version__") = SPIKEMINER_VERSION;

    py::class_<Recording>(m, "Recording", "Spike trains: read, simulated or made from arrays")
        .def_property_readonly("source", [](const Recording& r) { return r.input->source; })
        .def_property_readonly("checksum", [](const Recording& r) { return r.input->checksum; })
        .def_property_readonly("num_neurons", [](const Recording& r) { return r.trains().num_neurons(); })
        .def_property_readonly("num_spikes", [](const Recording& r) { return r.trains().num_spikes(); })
        .def_property_readonly("labels", [](const Recording& r) { return r.trains().neuron_table().labels; })
        .def_property_readonly("tick", [](const Recording& r) { return r.trains().time_base().describe(); })
        .def_property_readonly("span_s", [](const Recording& r) {
            const auto& tb = r.trains().time_base();
            return py::make_tuple(tb.to_seconds(r.trains().span().start), tb.to_seconds(r.trains().span().end));
        })
        .def_property_readonly("has_ground_truth", [](const Recording& r) { return r.input->recording.truth.has_value(); })
        .def("times", [](const Recording& r) { return stream_seconds(r.trains()); }, "every spike's time in s, in time order")
        .def("neurons", [](const Recording& r) {
            const auto neurons = r.trains().neurons();
            return numpy_column<std::uint32_t>(neurons.size(), [&](std::size_t i) { return neurons[i]; });
        }, "every spike's neuron (a position in labels), in time order")
        .def("trains", [](const Recording& r) { return train_seconds(r.trains()); }, "each neuron's spike times in s");

    m.def("_read", &read_file, py::arg("path"), py::arg("format"), py::arg("tick"), py::arg("duplicates"), py::arg("units"), py::arg("progress"));
    m.def("_simulate", &simulate, py::arg("scenario"), py::arg("seed"), py::arg("duration_s"), py::arg("progress"));
    m.def("_from_arrays", &from_arrays, py::arg("times"), py::arg("units"), py::arg("labels"), py::arg("tick"), py::arg("duplicates"),
          py::arg("source"));
    m.def("_mine", &mine, py::arg("recording"), py::arg("settings"), py::arg("progress"));
    m.def("_cofiring", &cofiring, py::arg("recording"), py::arg("settings"), py::arg("progress"));
    m.def("_cliques", &cliques, py::arg("edges"), py::arg("vertices"), py::arg("min_size"), py::arg("backend"));
    m.def("_run", &run, py::arg("recording"), py::arg("settings"), py::arg("output"), py::arg("figure_seconds"), py::arg("progress"));
    m.def("config_keys", &sm::pipeline::config_keys, "the settings' keys (as in a run config file), each with what it sets");
}
