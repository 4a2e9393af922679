#pragma once
// The pipeline's figures beside the raster (assembly_figure.hpp): SVG, written atomically.

#include "spikeminer/app/pipeline/pipeline.hpp"

#include <string>

namespace spikeminer::pipeline::detail {

/// One row per assembly (in its colour), a bar over each run of consecutive windows where
/// it is active, the recording's time along the bottom.
void write_timeline_figure(const std::string& path, const SpikeTrains& trains, const PipelineResult& result);

/// The co-firing graph of the window with the most edges: its neurons on a circle
/// (assembly members together, in their colours), its edges as lines.
void write_graph_figure(const std::string& path, const SpikeTrains& trains, const PipelineResult& result);

}  // namespace spikeminer::pipeline::detail
