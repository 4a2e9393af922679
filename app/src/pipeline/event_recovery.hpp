// The recovery of a simulation's assembly events (grows, shrinks, splits, merges, appears,
// ends) by the events a run reports.
#pragma once

#include "spikeminer/app/pipeline/pipeline.hpp"

namespace spikeminer::pipeline::detail {

/// Sets the events fields of `r` from the embedded assemblies' stretches and `result`'s
/// events (recovery.hpp's rules).
void recover_events(const simulator::GroundTruth& truth, const PipelineResult& result, const TimeBase& time_base, Recovery& r);

}  // namespace spikeminer::pipeline::detail
