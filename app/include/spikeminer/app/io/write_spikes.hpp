#pragma once

#include "spikeminer/app/io/spike_format.hpp"
#include "spikeminer/core/spike_trains.hpp"

#include <string>

namespace spikeminer::io {

/// Writes spike trains in `format`, atomically: the file appears complete or not at all.
/// A `.gz` ending compresses the text formats. Throws Error when the format cannot be
/// written or the disk refuses.
void write_spikes(const std::string& path, const SpikeTrains& trains, SpikeFormat format);

}  // namespace spikeminer::io
