// Who is a member of an assembly, and when: a neuron is one while it takes part in more than
// half of the assembly's activations. Its share before and after each activation, the best
// split tested over all of them, gives the changes; a neuron that is a member neither
// throughout nor on one side of a change is none.
#pragma once

#include "spikeminer/core/neuron_times.hpp"

#include <vector>

namespace spikeminer::pipeline::detail {

struct MemberChange {
    NeuronId member = 0;
    Tick time = 0;       ///< the first activation after the change
    bool joined = true;  ///< joined (took part in less than half the activations before, more than half after), or left
};

/// Whether `member` took part (fired within `within` ticks, either way) in each of
/// `activations`. `times` holds at least the member's spikes (as in the functions below:
/// those of the members and the others).
std::vector<std::uint8_t> took_part(const NeuronTimes& times, NeuronId member, const std::vector<Tick>& activations, Tick within);

/// For each member, whether it took part (fired within `within` ticks of the activation,
/// either way) in each of `activations`; the split of those into before and after that
/// maximises the binomial likelihood ratio, taken when its p-value (chi-squared with one
/// degree of freedom, Bonferroni over the splits and members) is at most `alpha`, each side
/// holds `min_side` activations or more, and the member's share crosses one half: it was a
/// member on one side only.
std::vector<MemberChange> member_changes(const NeuronTimes& times, const std::vector<NeuronId>& members, const std::vector<Tick>& activations,
                                         Tick within, double alpha, std::size_t min_side = 5);

/// The group that fires together around `members` (sorted) within `span`: while a member
/// takes part in at most half of the group's activations (more than half the group firing
/// within `within`) and, with `keep_changing`, no change (member_changes) makes it one on
/// one side, the one taking part least leaves; else while one of `others` takes part in more than half, the one
/// taking part most joins. A clique of the co-firing graph whose edges are pairs driven by
/// one neuron, or a strong pair and a neuron weakly linked to both, is no group that fires
/// together: its weakest member takes part in few of its activations. A window's few
/// activations give a clique of some of an assembly's members; the others of its windows
/// join it.
std::vector<NeuronId> firing_together(const NeuronTimes& times, std::vector<NeuronId> members, const std::vector<NeuronId>& others,
                                      TimeSpan span, Tick within, double alpha, bool keep_changing);

}  // namespace spikeminer::pipeline::detail
