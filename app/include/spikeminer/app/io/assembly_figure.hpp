#pragma once

#include "spikeminer/core/spike_trains.hpp"

#include <span>
#include <string>
#include <vector>

namespace spikeminer::io {

/// Throws UsageError unless `path` names an .svg file.
void check_figure_path(const std::string& path);

/// Writes an SVG raster plot of `excerpt` (ticks), atomically: one row per neuron, the
/// members of each assembly together at the top (largest assembly first) with their
/// spikes in that assembly's colour, the other neurons below in grey. A neuron in several
/// assemblies is drawn with the first.
void write_assembly_figure(const std::string& path, const SpikeTrains& trains, std::span<const std::vector<NeuronId>> assemblies,
                           TimeSpan excerpt);

}  // namespace spikeminer::io
