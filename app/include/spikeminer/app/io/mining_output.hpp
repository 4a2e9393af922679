#pragma once

#include "spikeminer/mining/mine.hpp"

#include <string>

namespace spikeminer::io {

/// Writes mining results, atomically, as JSON (.json), CSV (.csv) or spikeminer HDF5
/// (.h5: the /mining group, documented in the README), chosen by the extension; bounds
/// in `unit` for the text formats, ticks in HDF5. With `with_occurrences`, the JSON lists
/// each frequent episode's selected occurrences (spike times in seconds). Throws
/// UsageError for another extension.
void write_mining_results(const std::string& path, const SpikeTrains& trains, const mining::MiningResult& result,
                          const std::string& unit, bool with_occurrences);

/// The frequent episodes (with counts) and level reports of a mining-results HDF5 file.
/// Throws Error naming the file and dataset when it is not one or is damaged.
mining::MiningResult read_mining_results(const std::string& path);

}  // namespace spikeminer::io
