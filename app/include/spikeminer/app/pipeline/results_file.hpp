#pragma once
// A finished pipeline run read back from its results.h5 (README, "A pipeline run's
// results.h5"), so that it can be shown again without recomputing it.

#include "spikeminer/app/pipeline/pipeline.hpp"
#include "spikeminer/core/time_base.hpp"

#include <string>
#include <vector>

namespace spikeminer::pipeline {

/// A finished run read back from its results.h5. The file does not hold, so these stay
/// default: result.cofiring (config_json has the settings it came from), result.recovery,
/// result.stages and result.notes (summary.json has the first two); each assembly's
/// track.members (its clique in each window); of each episode level, bounded_out,
/// significant, counter, backend and the notes; of each assembly's significance,
/// exceedances and significant (count is its number of activations, which the test
/// counted); of each episode's, exceedances (significant is true: only episodes that
/// passed are kept). Each window's index is its row.
struct SavedRun {
    std::string input;           ///< the input's name, as written ("simulated scenario demo, seed 1" for a simulation)
    std::string input_checksum;  ///< "crc32:..." of the input file, "crc32-spikes:..." of a simulation's spikes
    std::string config_json;     ///< the run's settings
    std::string created_by;      ///< "spikeminer VERSION"
    TimeBase time_base;          ///< from ticks_per_second
    std::vector<std::string> labels;  ///< /neurons/labels: one per neuron id
    /// Episodes with their counts and levels; windows with their cliques and assemblies;
    /// edge changes; assemblies (id, windows, members, span, activations, significance when
    /// tested); events.
    PipelineResult result;
};

/// Reads the results.h5 at `path` in a child process (the HDF5 library can crash on a
/// damaged file) and checks it whole. Throws Error naming the file, and the dataset or
/// attribute, for anything that is not a valid results file: a wrong spikeminer_format or
/// a version it does not know, missing datasets or ones of the wrong type or shape, tables
/// of one group with different lengths, indexes that are not cumulative ends of their
/// data, and neuron, window or assembly ids that name none.
SavedRun read_results(const std::string& path);

}  // namespace spikeminer::pipeline
