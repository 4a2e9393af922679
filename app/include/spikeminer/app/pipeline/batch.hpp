#pragma once
// Batch runs: many recordings through the pipeline, each into its own results folder, one
// summary across them. A batch resumes (a recording with complete results is not run
// again) and goes on past a recording that fails.

#include "spikeminer/app/pipeline/run_config.hpp"
#include "spikeminer/core/progress.hpp"

#include <functional>
#include <string>
#include <vector>

namespace spikeminer::pipeline {

/// One recording of a batch: its results folder's name and its whole config.
struct BatchEntry {
    std::string name;
    RunConfig config;
};

/// Reads a manifest: a JSON object
///   {"recordings": ["a.h5", {"input": "b.nwb", "name": "b2", "cofiring": {"q": 0.05}}, ...],
///    ... run config keys shared by every recording ...}
/// A recording is a path, or an object with "input" (or "simulate"), an optional "name"
/// (default: the file's name without its extension; not starting with "batch-summary")
/// and run config keys of its own.
/// Relative paths are taken from the manifest's folder. Each config is `base`, then the
/// shared keys, the recording's own keys, and `last` (the command line's settings).
/// Throws UsageError naming the manifest, the recording and the key: unknown keys, a
/// missing input, a name used twice or one that is not a plain folder name.
std::vector<BatchEntry> read_manifest(const std::string& path, const RunConfig& base,
                                      const std::function<void(RunConfig&)>& last = {});

/// What became of one recording.
struct BatchOutcome {
    enum class Status { Done, DoneEarlier, Failed };
    std::string name;
    std::string input;     ///< the file, or the scenario simulated
    Status status = Status::Done;
    std::string error;     ///< why it failed
    double seconds = 0;    ///< this run's (0 when done earlier)
    std::size_t neurons = 0;
    std::size_t spikes = 0;
    std::size_t windows = 0;
    std::size_t assemblies = 0;
};

/// "done", "done earlier" or "failed".
std::string status_name(BatchOutcome::Status status);

/// Runs every entry into `dir`/name (made when missing): a folder that already holds
/// complete results is reported done earlier and not run; a recording that fails (bad
/// file, bad setting, anything but Cancel) is reported and the others go on. Writes
/// `dir`/batch-summary.csv and batch-summary.json (one row per recording) at the end,
/// both or neither, never over `manifest`. `on_outcome` (optional) hears each outcome as
/// it comes. Throws Cancelled when `progress` says so (the recordings finished keep their
/// results; no summary).
std::vector<BatchOutcome> run_batch(const std::vector<BatchEntry>& entries, const std::string& dir, const std::string& manifest,
                                    Progress* progress, double figure_seconds = 10,
                                    const std::function<void(const BatchOutcome&)>& on_outcome = {});

}  // namespace spikeminer::pipeline
