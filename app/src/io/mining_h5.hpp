#pragma once

#include "spikeminer/mining/mine.hpp"

#include <string>

namespace spikeminer::io::detail {

class H5Writer;

/// The /neurons/labels and /mining datasets of a mining result, into an open file.
void write_mining_group(H5Writer& file, const SpikeTrains& trains, const mining::MiningResult& result);

/// The mining-results HDF5 layout (mining_h5.cpp has the layout).
void write_mining_h5(const std::string& path, const std::string& name, const SpikeTrains& trains,
                     const mining::MiningResult& result);
mining::MiningResult read_mining_h5(const std::string& path);

}  // namespace spikeminer::io::detail
