#pragma once
// The pipeline's figures beside the raster (figures/raster_figure.hpp). Each draws from
// `trains` and `result`, which must outlive it.

#include "spikeminer/app/figures/figure.hpp"
#include "spikeminer/app/pipeline/pipeline.hpp"

namespace spikeminer::pipeline::detail {

/// One row per assembly (in its colour), a bar over each run of consecutive windows where
/// it is active and a tick at each activation, the recording's time along the bottom.
figures::Figure timeline_figure(const SpikeTrains& trains, const PipelineResult& result);

/// The co-firing graph of the window with the most edges, laid out by Graphviz: the
/// window's cliques in their assemblies' colours (grey for cliques of no reported
/// assembly), the other neurons of its edges in light grey, each neuron labelled.
figures::Figure graph_figure(const SpikeTrains& trains, const PipelineResult& result);

}  // namespace spikeminer::pipeline::detail
