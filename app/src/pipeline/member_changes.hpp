// When an assembly's membership changes: each member's share of the assembly's activations
// before and after each activation, the best split tested over all of them.
#pragma once

#include "spikeminer/core/spike_trains.hpp"

#include <vector>

namespace spikeminer::pipeline::detail {

struct MemberChange {
    NeuronId member = 0;
    Tick time = 0;       ///< the first activation after the change
    bool joined = true;  ///< joined (took part in less than half the activations before, more than half after), or left
};

/// For each member, whether it took part (fired within `within` ticks of the activation,
/// either way) in each of `activations`; the split of those into before and after that
/// maximises the binomial likelihood ratio, taken when its p-value (chi-squared with one
/// degree of freedom, Bonferroni over the splits and members) is at most `alpha`, each side
/// holds `min_side` activations or more, and the member's share crosses one half: it was a
/// member on one side only.
std::vector<MemberChange> member_changes(const SpikeTrains& trains, const std::vector<NeuronId>& members, const std::vector<Tick>& activations,
                                         Tick within, double alpha, std::size_t min_side = 5);

}  // namespace spikeminer::pipeline::detail
