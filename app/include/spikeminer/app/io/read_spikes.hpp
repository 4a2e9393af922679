#pragma once

#include "spikeminer/app/io/spike_format.hpp"
#include "spikeminer/core/progress.hpp"
#include "spikeminer/core/spike_trains.hpp"
#include "spikeminer/simulator/simulate.hpp"

#include <optional>
#include <string>

namespace spikeminer::io {

/// How to read a spike file.
struct ReadOptions {
    /// Format to assume; detected from the content when not given.
    std::optional<SpikeFormat> format;
    /// Tick for files that store seconds (CSV, text, NWB, waverepo). Default: the tick a
    /// spikeminer CSV states in its comment line, else 1 µs. Files in ticks keep their own.
    std::optional<TimeBase> time_base;
    /// Two spikes of one neuron at one tick: keep both (default) or merge them.
    DuplicatePolicy duplicates = DuplicatePolicy::Keep;
    /// Kilosort / Phy folders: every unit, not only those labelled good.
    bool all_units = false;
    /// Receives progress; may cancel.
    Progress* progress = nullptr;
};

/// The options the reading flags (or settings) name: a format ("" to detect), a tick (""
/// for the file's own or 1 us), "keep" or "merge", and a Phy folder's units, "good" or
/// "all". Throws UsageError on a bad value.
ReadOptions read_options(const std::string& format, const std::string& tick, const std::string& duplicates, Progress* progress,
                         const std::string& units = "good");

/// Reads a spike file of any supported format. Throws Error naming the file and the
/// line or dataset at fault; Cancelled when the progress token is set.
SpikeTrains read_spikes(const std::string& path, const ReadOptions& options = {});

/// A recording with what a simulation put into it, when the file keeps that.
struct SpikeRecording {
    SpikeTrains trains;
    std::optional<simulator::GroundTruth> truth;
};

/// read_spikes, and the ground truth when the file (of the format given, or detected) is
/// spikeminer HDF5 with one (read in the same child process). Throws what read_spikes
/// throws, and Error naming the dataset when the /ground_truth group is damaged.
SpikeRecording read_recording(const std::string& path, const ReadOptions& options = {});

}  // namespace spikeminer::io
