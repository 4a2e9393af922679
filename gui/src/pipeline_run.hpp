#pragma once
// A pipeline run as the window shows it: the input, the settings, the result, each
// window's graph on demand, and where each neuron sits in the co-firing graph view.

#include "spikeminer/app/figures/figure.hpp"
#include "spikeminer/app/pipeline/pipeline.hpp"
#include "spikeminer/app/pipeline/window_edges.hpp"
#include "spikeminer/core/progress.hpp"

#include <memory>
#include <optional>
#include <vector>

namespace spikeminer::gui {

using InputPtr = std::shared_ptr<const pipeline::Input>;

/// Made once by run_pipeline_for_view and then only read (shared between the views).
struct PipelineRun {
    PipelineRun() = default;
    PipelineRun(PipelineRun&&) = delete;  // edges points into result
    PipelineRun& operator=(PipelineRun&&) = delete;

    InputPtr input;
    pipeline::RunConfig config;
    pipeline::PipelineResult result;
    std::unique_ptr<const pipeline::WindowEdges> edges;  ///< over result.changes
    /// Per neuron, where the graph view draws it in [0, 1]^2; none for a neuron no window joins.
    std::vector<std::optional<figures::Point>> layout;
    bool at_electrodes = false;  ///< the layout is the recording's electrode positions

    [[nodiscard]] const SpikeTrains& trains() const { return input->recording.trains; }
};
using RunPtr = std::shared_ptr<const PipelineRun>;

/// Runs stages 2-7 on `input` and lays out every neuron some window joins: at its
/// electrode when the recording places neurons, else by Graphviz over all windows' edges
/// together (one layout, so that neurons keep their places while the time slider moves),
/// else (a build without figures) on a circle. Throws what run_pipeline throws.
RunPtr run_pipeline_for_view(InputPtr input, const pipeline::RunConfig& config, Progress& progress);

/// A run whose result is already known (a live session's latest search), laid out as above.
RunPtr view_of_run(InputPtr input, const pipeline::RunConfig& config, pipeline::PipelineResult result, Progress& progress);
/// A finished run read back from the results.h5 at `path`, laid out as above. Its
/// recording is read again (a simulation made again from its settings) when the file its
/// settings name is there (as written, or relative to the results folder's parent or the
/// folder) and it has the checksum the results give; otherwise
/// the run comes with the neurons but none of the spikes, and `missing` says why (else it
/// is left empty). Throws what read_results throws.
RunPtr open_saved_run(const std::string& path, Progress& progress, std::string& missing);

}  // namespace spikeminer::gui
