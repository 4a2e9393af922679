#pragma once
// A pipeline run's figures beside the raster (figures/raster_figure.hpp), for the results
// folder and the desktop app. Each draws from `trains` and `result`, which must outlive it.

#include "spikeminer/app/figures/figure.hpp"
#include "spikeminer/app/pipeline/pipeline.hpp"

#include <cstddef>
#include <optional>

namespace spikeminer::pipeline {

/// One row per assembly (in its colour), a bar over each run of consecutive windows where
/// it is active and a tick at each activation, the recording's time along the bottom.
figures::Figure timeline_figure(const SpikeTrains& trains, const PipelineResult& result);

/// The co-firing graph of window `window` (none, or past the last: the window with the most edges), laid
/// out by Graphviz or at the electrodes: the window's cliques in their assemblies' colours
/// (grey for cliques of no reported assembly), the other neurons of its edges in light
/// grey, each neuron labelled.
figures::Figure graph_figure(const SpikeTrains& trains, const PipelineResult& result, std::optional<std::size_t> window = std::nullopt);

}  // namespace spikeminer::pipeline
