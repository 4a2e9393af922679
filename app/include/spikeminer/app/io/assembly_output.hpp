#pragma once

#include "spikeminer/core/spike_trains.hpp"
#include "spikeminer/graph/cofiring.hpp"

#include <span>
#include <string>
#include <vector>

namespace spikeminer::io {

/// Throws UsageError unless `path` names a .json file.
void check_assemblies_path(const std::string& path);

/// Writes the assemblies found (sorted member lists) and the co-firing graph they came
/// from (its thresholds and kept pairs, with counts and chance expectations), atomically,
/// as JSON; neurons by their labels, the window and baseline in `unit` ("ms").
void write_assemblies(const std::string& path, const SpikeTrains& trains, const graph::CofiringOptions& options,
                      const std::string& unit, const graph::CofiringGraph& cofiring,
                      std::span<const std::vector<NeuronId>> assemblies);

}  // namespace spikeminer::io
