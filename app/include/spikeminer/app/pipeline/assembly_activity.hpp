#pragma once
// An assembly's activity through time: its activations (more than half its members firing
// within the synchrony lag), the rate chance gives them, and its on and off periods.
//
// Chance keeps each member's own rate through time: the activations independent neurons
// firing at the members' rates of that moment (counted over a few seconds) would make, up
// states and bursts of the whole network included.
//
// On and off: the activations counted per step go through a two-state hidden Markov model,
// off emitting Poisson(chance's count of the step), on Poisson(that plus the assembly's own
// rate, estimated from its on steps), a switch between them costing probability
// `switch_probability` a step. A second fit lets off hold a lower level of activations that
// are not the whole assembly (fewer of its members in them: its parts firing with a
// straggler); it is taken when it is better by more than its cost (BIC). The
// most likely states (Viterbi) give runs of on steps, and a run is an active period when
// its activations are improbable under chance (Poisson upper tail, Bonferroni over the
// runs). An off period of g steps inside activity at rate r is seen when r g exceeds about
// twice -ln(switch_probability): 14 s at one activation a second with the defaults.

#include "spikeminer/core/neuron_times.hpp"
#include "spikeminer/core/spike_trains.hpp"

#include <cstddef>
#include <span>
#include <vector>

namespace spikeminer::pipeline {

/// The times at which more than half of `members` fire within `within` ticks of each other
/// within `span` (the time of the group's first spike; groups do not overlap, each starts
/// after the last one's spikes). `shift` moves member j's spikes j x shift later. `sizes`,
/// when given, gets the members firing within `within` of each activation's first spike.
/// `times` holds at least the members' spikes.
std::vector<Tick> activation_times(const NeuronTimes& times, const std::vector<NeuronId>& members, TimeSpan span, Tick within,
                                   Tick shift = 0, std::vector<std::uint32_t>* sizes = nullptr);
/// The same, the members' spikes gathered from the recording first.
std::vector<Tick> activation_times(const SpikeTrains& trains, const std::vector<NeuronId>& members, TimeSpan span, Tick within,
                                   Tick shift = 0, std::vector<std::uint32_t>* sizes = nullptr);

/// Activations chance gives the members in each step of `step` ticks of `span`: with each
/// member firing as a Poisson process at its own rate there (its spikes over the steps within
/// `smooth` steps either side), m = more than half of the k members fire within `within`
/// ticks of the first at rate m e_m(r) within^(m-1), e_m the elementary symmetric polynomial
/// of the rates (the sum of their products m at a time). At least half an activation over
/// the span, spread evenly. The rate is first order in rate x within: right when chance
/// coincidences are rare, above the count otherwise (some 15% at 20 Hz within 2 ms), which
/// errs towards fewer active periods. `times` holds at least the members' spikes.
std::vector<double> chance_activations(const NeuronTimes& times, const std::vector<NeuronId>& members, TimeSpan span, Tick within,
                                       Tick step, std::size_t smooth);

struct ActivityOptions {
    Tick step = 1;                      ///< the steps activations are counted in (ticks)
    std::vector<double> chance;         ///< off's expected activations in each step of the span
    double switch_probability = 1e-3;   ///< a step's chance of switching on or off
    double alpha = 0.01;                ///< an active period's activations are at most this probable under chance (Bonferroni)
};

struct Activity {
    std::vector<TimeSpan> periods;  ///< each from its first activation to just after its last, in time order
    std::vector<TimeSpan> runs;     ///< the same periods as whole steps of the on state
};

/// The active periods of an assembly with these `activations` (sorted) within `span`, each
/// of `sizes` members (as activation_times gives them; empty: off is chance alone).
Activity active_periods(std::span<const Tick> activations, std::span<const std::uint32_t> sizes, TimeSpan span, const ActivityOptions& options);

/// Chance's expected activations over [from, to) of a span cut in steps (a step partly
/// inside counts in part).
double expected_chance(const std::vector<double>& chance, TimeSpan span, Tick step, TimeSpan piece);

}  // namespace spikeminer::pipeline
