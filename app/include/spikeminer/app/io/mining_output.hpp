#pragma once

#include "spikeminer/mining/mine.hpp"

#include <string>

namespace spikeminer::io {

/// Writes mining results, atomically, as JSON (.json) or CSV (.csv), chosen by the
/// extension; bounds in `unit`. With `with_occurrences`, the JSON lists each frequent
/// episode's selected occurrences (spike times in seconds). Throws UsageError for another
/// extension.
void write_mining_results(const std::string& path, const SpikeTrains& trains, const mining::MiningResult& result,
                          const std::string& unit, bool with_occurrences);

}  // namespace spikeminer::io
