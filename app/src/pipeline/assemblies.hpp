// Stage 7: assemblies from all the evidence, and their activity through time.
//
// Membership: the maximal cliques of the whole recording's co-firing graph (the windows'
// edge test over the whole recording, all its power at once) are the assemblies. A window's
// clique that is a subset of one is that assembly seen in part, never a new one. A window
// clique that belongs to none (a group active for too little of the recording to pass the
// whole recording's test) is followed from window to window as before, and a group seen
// in enough windows is an assembly too, its members those of at least half its windows.
//
// Activity: every assembly's activations over the whole recording, the rate chance gives
// them (its members' spikes shifted apart by the baseline's lags), and its active periods
// (assembly_activity.hpp); an assembly with no active period is not reported. It appears
// at the start of each active period and ends at its end.
#pragma once

#include "spikeminer/app/pipeline/pipeline.hpp"

#include <optional>
#include <vector>

namespace spikeminer::pipeline::detail {

/// The maximal cliques of at least `min_size` neurons of the co-firing graph of the whole
/// recording (the windows' test with window and step 0), sorted; `note` says where they were
/// counted when that is not what was asked.
std::vector<std::vector<NeuronId>> whole_recording_assemblies(const SpikeTrains& trains, mining::CofiringOptions cofiring,
                                                              const RunConfig& config, Progress* progress, std::string& note);

/// The index in `assemblies` (sorted member lists) of the smallest that holds every neuron of
/// `clique`, or none.
std::optional<std::uint32_t> holding(const std::vector<std::vector<NeuronId>>& assemblies, const std::vector<NeuronId>& clique);

/// Builds result.assemblies and result.events, and each window's cliques' assemblies, from
/// the whole recording's assemblies (`whole`; ids 0, 1, ...), the windows' cliques given
/// to `tracker` (those none of them holds; ids after) and the activity of each.
void assemblies_through_time(const SpikeTrains& trains, const RunConfig& config, const std::vector<std::vector<NeuronId>>& whole,
                             const AssemblyTracker& tracker, PipelineResult& result);

}  // namespace spikeminer::pipeline::detail
