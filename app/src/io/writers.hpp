#pragma once

#include "spikeminer/core/spike_trains.hpp"
#include "spikeminer/simulator/simulate.hpp"

#include <string>

namespace spikeminer::io::detail {

/// Format writers. Each writes `path` (a temporary file; the caller renames it) and
/// names `name` (the user's target) in errors.
void write_delimited_text(const std::string& path, const std::string& name, const SpikeTrains& trains,
                          char delimiter, bool compress);
/// With `truth`, also writes the /ground_truth group.
void write_spikeminer_h5(const std::string& path, const std::string& name, const SpikeTrains& trains,
                         const simulator::GroundTruth* truth = nullptr);
void write_waverepo(const std::string& path, const std::string& name, const SpikeTrains& trains);
void write_nwb(const std::string& path, const std::string& name, const SpikeTrains& trains);

}  // namespace spikeminer::io::detail
