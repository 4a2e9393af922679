#pragma once
// The pieces of a batch that run_batch and its MPI form share (batch.hpp).

#include "spikeminer/app/pipeline/batch.hpp"

#include <string>
#include <vector>

namespace spikeminer::pipeline::detail {

/// One recording through the pipeline into `dir`/entry.name, or "done earlier" when that
/// folder holds complete results; a failure (anything but Cancelled) is its outcome.
BatchOutcome run_entry(const BatchEntry& entry, const std::string& dir, Progress* progress, double figure_seconds);

/// Makes `dir` when it is missing; UsageError when it is a file.
void make_batch_dir(const std::string& dir);

/// batch-summary.csv and .json in `dir`, both or neither, never over `manifest`.
void write_batch_summary(const std::string& dir, const std::vector<BatchOutcome>& outcomes, const std::string& manifest);

/// An outcome as one line of JSON and back (what the ranks of a batch send each other).
std::string outcome_text(const BatchOutcome& outcome);
BatchOutcome outcome_from_text(const std::string& text);

}  // namespace spikeminer::pipeline::detail
