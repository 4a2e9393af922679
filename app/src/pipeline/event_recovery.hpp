// The recovery of a simulation's assembly events (grows, shrinks, splits, merges, appears,
// ends) by the events a run reports.
#pragma once

#include "spikeminer/app/pipeline/pipeline.hpp"

namespace spikeminer::pipeline::detail {

/// The span of the embedded assembly with these `members` active in `period`, through the
/// stretches that continue it as one assembly growing or shrinking (the only related stretch
/// starting as one ends, none beside it, with other members), both ways: an assembly that
/// grows is one assembly throughout. `period` itself when none continues it.
TimeSpan continued_span(const simulator::GroundTruth& truth, TimeSpan period, const std::vector<NeuronId>& members, Tick slack);

/// Sets the events fields of `r` from the embedded assemblies' stretches and `result`'s
/// events (recovery.hpp's rules).
void recover_events(const simulator::GroundTruth& truth, const PipelineResult& result, const TimeBase& time_base, Recovery& r);

}  // namespace spikeminer::pipeline::detail
