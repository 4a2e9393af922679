#pragma once

#include "spikeminer/app/figures/figure.hpp"
#include "spikeminer/core/spike_trains.hpp"
#include "spikeminer/mining/count.hpp"

#include <optional>
#include <span>
#include <vector>

namespace spikeminer::figures {

/// A raster plot of `excerpt` (ticks): one row per neuron, the members of each assembly
/// together at the top with their spikes in that assembly's colour and their labels, the
/// other neurons below in grey. A neuron in several assemblies is drawn with the first.
/// Each of `occurrences` (episodes' occurrences: spike indices) wholly inside the excerpt
/// is a black line through its spikes. The figure draws from `trains`, `assemblies` and
/// `occurrences`, which must outlive it; throws UsageError for an empty excerpt. At `size`
/// (points) the rows share its height and the spikes its width; else the rows are 6 points
/// high (less where they would pass 3,000) and the spikes 900 points wide.
Figure raster_figure(const SpikeTrains& trains, std::span<const std::vector<NeuronId>> assemblies, TimeSpan excerpt,
                     std::span<const mining::Occurrence> occurrences = {}, std::optional<Size> size = std::nullopt);

/// The first `seconds` (> 0) of the recording, or all of it when it is shorter (however
/// long was asked for); at least one tick.
TimeSpan opening(const SpikeTrains& trains, double seconds);

}  // namespace spikeminer::figures
