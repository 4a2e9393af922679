// Stage 7: assemblies from all the evidence, and their activity through time.
//
// Candidates: the maximal cliques of the whole recording's co-firing graph (the windows' edge
// test over the whole recording, all its power at once), and the groups the windows' cliques
// that show no such clique (parts of one, as after a split, or other groups) form from window
// to window (AssemblyTracker) when seen in at least min_windows windows, their members those
// of at least half their windows: groups active for too little of the recording to pass the
// whole recording's test. A window group that lies mostly inside a whole-recording candidate,
// over a stretch mostly in that candidate's on runs, is that assembly seen in part and is no
// candidate. Each group becomes the neurons that fire together with it (member_changes.hpp:
// more than half of its activations), over the whole recording for a clique and over its
// windows for a window group, among its neurons and their fellows in the whole recording's
// cliques: a window's clique of some of an assembly's members grows to the assembly, and a
// triangle of weak links, or a strong pair with a neuron weakly linked to both, is none.
//
// Activity: each candidate's activations over the whole recording, the rate chance gives
// them (its members' spikes shifted apart by the baseline's lags) and its active periods
// (assembly_activity.hpp). Largest first, a candidate mostly inside a larger one kept before
// (more than half its members, so that its activations while the larger is active are the
// larger's) loses the larger's active periods; what is left must still beat chance. A
// candidate with no active period left is not reported. A window group, or a part that lost
// time to a larger assembly, keeps only the pieces in which a window shows it as a group.
//
// Events: an assembly appears at the start of each active period and ends at its end, except
// that a part whose activity begins as a larger assembly's ends splits from it, and a part
// whose activity ends as a larger one's begins merges into it. A member that joins or leaves
// (its share of the assembly's activations changing at one activation, tested over all of
// them) makes the assembly grow or shrink there.
#pragma once

#include "spikeminer/app/pipeline/pipeline.hpp"

#include <vector>

namespace spikeminer::pipeline::detail {

/// The maximal cliques of at least `min_size` neurons of the co-firing graph of the whole
/// recording (the windows' test with window and step 0), sorted; `note` says where they were
/// counted when that is not what was asked.
std::vector<std::vector<NeuronId>> whole_recording_assemblies(const SpikeTrains& trains, mining::CofiringOptions cofiring,
                                                              const RunConfig& config, Progress* progress, std::string& note);

/// The same from the whole recording's window, counted already (CofiringWindows::whole_recording).
std::vector<std::vector<NeuronId>> assemblies_of_whole(const SpikeTrains& trains, const mining::CofiringWindow& whole, const RunConfig& config,
                                                       Progress* progress);

/// Whether a window's `clique` shows the group `members`: it is mostly theirs (more than
/// half its neurons) and holds more than half of them.
bool shows(const std::vector<NeuronId>& clique, const std::vector<NeuronId>& members);

/// Whether `clique` shows one of `assemblies`.
bool shows_one(const std::vector<std::vector<NeuronId>>& assemblies, const std::vector<NeuronId>& clique);

/// Builds result.assemblies (ids 0, 1, ... in time order of their first activity),
/// result.events and each window's cliques' assemblies from the whole recording's cliques
/// (`whole`), the window groups `tracker` followed, and the activity of each.
void assemblies_through_time(const SpikeTrains& trains, const RunConfig& config, const std::vector<std::vector<NeuronId>>& whole,
                             const AssemblyTracker& tracker, PipelineResult& result);

}  // namespace spikeminer::pipeline::detail
