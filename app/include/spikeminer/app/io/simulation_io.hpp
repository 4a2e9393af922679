#pragma once

#include "spikeminer/app/io/spike_format.hpp"
#include "spikeminer/simulator/simulate.hpp"

#include <optional>
#include <string>

namespace spikeminer::io {

/// Writes simulated spikes, atomically. The spikeminer HDF5 format also keeps the ground
/// truth (the /ground_truth group, documented in the README); returns whether it did.
bool write_simulation(const std::string& path, const simulator::Simulation& simulation, SpikeFormat format);

/// The ground truth stored in a spikeminer HDF5 file, or nullopt when it has none.
/// Throws Error naming the file and dataset when the group is damaged.
std::optional<simulator::GroundTruth> read_ground_truth(const std::string& path);

}  // namespace spikeminer::io
