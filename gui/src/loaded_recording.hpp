#pragma once

#include "spikeminer/app/recording_summary.hpp"
#include "spikeminer/core/spike_trains.hpp"

#include <QString>

#include <memory>

namespace spikeminer::gui {

/// Loaded spike trains, shared read-only between the widgets that show them.
using TrainsPtr = std::shared_ptr<const SpikeTrains>;

/// What a finished load hands to the window: the file, its trains and their summary.
struct LoadedRecording {
    QString path;
    TrainsPtr trains;
    RecordingSummary summary;
};

}  // namespace spikeminer::gui
