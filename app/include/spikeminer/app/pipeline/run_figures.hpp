#pragma once
// A pipeline run's figures beside the raster (figures/raster_figure.hpp), for the results
// folder and the desktop app. Each draws from `trains` and `result`, which must outlive it.

#include "spikeminer/app/figures/figure.hpp"
#include "spikeminer/app/pipeline/pipeline.hpp"

#include <cstddef>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace spikeminer::pipeline {

/// One row per assembly (in its colour), a bar over each run of consecutive windows where
/// it is active and a tick at each activation, the recording's time along the bottom. At
/// `size` (points) the rows share its height (as many as fit, at most 40 points each; the
/// labels on rows of 8 or more) and the time axis its width; else 16 points a row, the
/// first 200 assemblies.
figures::Figure timeline_figure(const SpikeTrains& trains, const PipelineResult& result, std::optional<figures::Size> size = std::nullopt);

/// Where each neuron of `edges` sits in [0, 1] x [0, 1] (none for the others): at its
/// electrode when the recording places neurons (`at_electrodes` set), else Graphviz's
/// layout of `edges` (neurons numbered in ascending order, so that the same graph gets the
/// same layout), else (a build without figures) on a circle. One layout for the edges of
/// every window keeps each neuron in its place from window to window.
std::vector<std::optional<figures::Point>> neuron_layout(const SpikeTrains& trains, std::span<const std::pair<NeuronId, NeuronId>> edges,
                                                         bool* at_electrodes = nullptr);

/// The co-firing graph of window `window` (none, or past the last: the window with the
/// most edges), at `layout`'s places (empty: neuron_layout of the window's own edges): the
/// window's cliques in their assemblies' colours (grey for cliques of no reported
/// assembly), the other neurons of its edges in light grey, each neuron labelled where its
/// label covers no other label and no neuron (figures::place_labels; the neurons of most
/// edges first). The layout fills the figure below its titles (figures::fit_layout): 700
/// points square, or `size` (points).
figures::Figure graph_figure(const SpikeTrains& trains, const PipelineResult& result, std::optional<std::size_t> window = std::nullopt,
                             std::span<const std::optional<figures::Point>> layout = {}, std::optional<figures::Size> size = std::nullopt);

}  // namespace spikeminer::pipeline
