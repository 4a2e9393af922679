#pragma once

#include "spikeminer/app/recording_summary.hpp"
#include "spikeminer/core/spike_trains.hpp"

#include <QMetaType>
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

/// Registers the value types passed by queued signals; call once before the first load.
inline void register_metatypes() {
    qRegisterMetaType<TrainsPtr>("spikeminer::gui::TrainsPtr");
    qRegisterMetaType<LoadedRecording>("spikeminer::gui::LoadedRecording");
}

}  // namespace spikeminer::gui

Q_DECLARE_METATYPE(spikeminer::gui::TrainsPtr)
Q_DECLARE_METATYPE(spikeminer::gui::LoadedRecording)
