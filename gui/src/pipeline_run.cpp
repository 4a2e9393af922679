#include "pipeline_run.hpp"

#include "spikeminer/app/io/spike_format.hpp"
#include "spikeminer/app/pipeline/results_file.hpp"
#include "spikeminer/app/pipeline/run_figures.hpp"
#include "spikeminer/core/error.hpp"

#include <algorithm>
#include <filesystem>

namespace spikeminer::gui {
namespace {

// Adds the window graphs and the layout to a run whose result is set.
RunPtr finish_view(std::shared_ptr<PipelineRun> run, Progress& progress) {
    progress.begin("laying out the co-firing graph", 0);
    run->edges = std::make_unique<const pipeline::WindowEdges>(run->result.changes, run->result.windows.size());
    run->layout = pipeline::neuron_layout(run->trains(), run->edges->ever(), &run->at_electrodes);
    progress.finish();
    progress.check_cancelled();
    return run;
}

// Where the recording a saved run names is: as written, else (a path relative to where the
// run was started) beside the results folder or inside it.
std::optional<std::string> find_recording(const std::string& input, const std::string& results) {
    const std::filesystem::path folder = std::filesystem::path(results).parent_path();
    for (const std::filesystem::path& at : {std::filesystem::path(input), folder.parent_path() / input, folder / input}) {
        if (std::filesystem::is_regular_file(at) || io::is_sorter_folder(at.string())) return at.string();
    }
    return std::nullopt;
}

// The recording a saved run names, or why it cannot be had. A simulation is made again
// from its settings and must give the run's spikes (their checksum).
std::optional<pipeline::Input> saved_input(const pipeline::SavedRun& saved, const std::string& results, pipeline::RunConfig config,
                                           Progress& progress, std::string& missing) {
    if (config.simulate.empty()) {
        const std::optional<std::string> found = find_recording(config.input, results);
        if (!found) {
            missing = "the recording " + config.input + " is not there: the spikes are not shown";
            return std::nullopt;
        }
        config.input = *found;
    }
    try {
        pipeline::Input input = pipeline::load_input(config, &progress);
        if (input.checksum != saved.input_checksum) {
            missing = config.simulate.empty()
                          ? "the recording " + config.input + " has changed since the run (its checksum differs): the spikes are not shown"
                          : "the simulation made again is not the run's (the scenario has changed since): the spikes are not shown";
            return std::nullopt;
        }
        if (input.recording.trains.num_neurons() != saved.labels.size()) {
            missing = "the recording " + config.input + " does not have the run's neurons: the spikes are not shown";
            return std::nullopt;
        }
        return input;
    } catch (const Error& e) {
        missing = std::string("the recording could not be read again (") + e.what() + "): the spikes are not shown";
        return std::nullopt;
    }
}

}  // namespace

RunPtr run_pipeline_for_view(InputPtr input, const pipeline::RunConfig& config, Progress& progress) {
    auto run = std::make_shared<PipelineRun>();
    run->input = std::move(input);
    run->config = config;
    run->result = pipeline::run_pipeline(*run->input, config, &progress);
    return finish_view(std::move(run), progress);
}

RunPtr view_of_run(InputPtr input, const pipeline::RunConfig& config, pipeline::PipelineResult result, Progress& progress) {
    auto run = std::make_shared<PipelineRun>();
    run->input = std::move(input);
    run->config = config;
    run->result = std::move(result);
    return finish_view(std::move(run), progress);
}

RunPtr open_saved_run(const std::string& path, Progress& progress, std::string& missing) {
    pipeline::SavedRun saved = pipeline::read_results(path);
    auto run = std::make_shared<PipelineRun>();
    missing.clear();
    std::optional<pipeline::Input> input;
    try {
        pipeline::apply_json(run->config, saved.config_json, path + ": config_json");
        input = saved_input(saved, path, run->config, progress, missing);
    } catch (const UsageError& e) {  // settings of another version of the program
        run->config = {};
        missing = std::string("the run's settings are not this program's (") + e.what() + "): the spikes are not shown";
    }
    if (!input) {
        NeuronTable neurons;
        neurons.labels = saved.labels;
        input = pipeline::Input{{SpikeTrains::from_spikes({}, std::move(neurons), saved.time_base), std::nullopt}, saved.input, saved.input_checksum};
    }
    run->input = std::make_shared<const pipeline::Input>(std::move(*input));
    run->result = std::move(saved.result);
    return finish_view(std::move(run), progress);
}

}  // namespace spikeminer::gui
