#pragma once

#include "spikeminer/core/spike_trains.hpp"
#include "spikeminer/mining/cofiring.hpp"

#include <span>
#include <string>
#include <vector>

namespace spikeminer::io {

/// Throws UsageError unless `path` names a .json file.
void check_assemblies_path(const std::string& path);

/// Writes the assemblies found (sorted member lists) and the co-firing window they came
/// from (the lags, the edge test and its edges, with counts, chance expectations and
/// p-values), atomically, as JSON; neurons by their labels, lags in `unit` ("ms").
void write_assemblies(const std::string& path, const SpikeTrains& trains, const mining::CofiringOptions& options,
                      const std::string& unit, const mining::CofiringWindow& cofiring,
                      std::span<const std::vector<NeuronId>> assemblies);

/// "sync" or the interval as "lo-hi" in `unit`: what a co-firing edge tested.
std::string tested_lags(const mining::CofiringEdge& edge, const mining::CofiringLags& lags, const TimeBase& time_base,
                        const std::string& unit);

}  // namespace spikeminer::io
