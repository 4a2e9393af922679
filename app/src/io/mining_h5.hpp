#pragma once

#include "spikeminer/mining/mine.hpp"

#include <string>

namespace spikeminer::io::detail {

/// The mining-results HDF5 layout (mining_h5.cpp has the layout).
void write_mining_h5(const std::string& path, const std::string& name, const SpikeTrains& trains,
                     const mining::MiningResult& result);
mining::MiningResult read_mining_h5(const std::string& path);

}  // namespace spikeminer::io::detail
