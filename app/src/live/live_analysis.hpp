#pragma once
// The whole pipeline over a live session's spikes, reusing the windows it decided.

#include "spikeminer/app/pipeline/pipeline.hpp"

#include <optional>
#include <vector>

namespace spikeminer::live {

/// run_pipeline on `input`, window w taken from decided[w] where that holds one (in the
/// input's unit ids) and counted otherwise.
pipeline::PipelineResult analyse(const pipeline::Input& input, const pipeline::RunConfig& config,
                                 const std::vector<std::optional<mining::CofiringWindow>>& decided, Progress* progress);

}  // namespace spikeminer::live
