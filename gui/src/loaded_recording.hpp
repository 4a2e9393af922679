#pragma once

#include "spikeminer/app/pipeline/pipeline.hpp"
#include "spikeminer/app/recording_summary.hpp"
#include "spikeminer/core/spike_trains.hpp"

#include <QString>

#include <memory>

namespace spikeminer::gui {

/// Loaded spike trains, shared read-only between the widgets that show them.
using TrainsPtr = std::shared_ptr<const SpikeTrains>;

/// What a finished load (of a file, or a simulation) hands to the window: its name, the
/// pipeline's input (spikes, a simulation's ground truth, the file's checksum), its trains
/// (within the input), their summary, and what it was as the run's settings name it.
struct LoadedRecording {
    QString path;  ///< the file, or "simulated scenario demo, seed 1"
    std::shared_ptr<const pipeline::Input> input;
    TrainsPtr trains;
    RecordingSummary summary;
    pipeline::RunConfig source;  ///< input (the file) or simulate, seed and duration_s set
};

}  // namespace spikeminer::gui
