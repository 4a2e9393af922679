#pragma once
// An assembly's activity through time: its activations (more than half its members firing
// within the synchrony lag), the rate chance gives them, and its on and off periods.
//
// Chance keeps each member's own firing: the same rule counted with member j's spikes moved
// j x `shift` later (lags beyond any co-firing tested, short beside rate changes), over a
// few shifts, gives the activations the members' rates alone would make at that moment of
// the recording's life, bursts and up states included.
//
// On and off: the activations counted per step go through a two-state hidden Markov model,
// off emitting Poisson(chance rate), on Poisson(the assembly's own rate, estimated from its
// on steps), a switch between them costing probability `switch_probability` a step; the
// most likely states (Viterbi) give runs of on steps, and a run is an active period when
// its activations are improbable under chance (Poisson upper tail, Bonferroni over the
// runs). An off period of g steps inside activity at rate r is seen when r g exceeds about
// twice -ln(switch_probability): 14 s at one activation a second with the defaults.

#include "spikeminer/core/spike_trains.hpp"

#include <span>
#include <vector>

namespace spikeminer::pipeline {

/// The times at which more than half of `members` fire within `within` ticks of each other
/// within `span` (the time of the group's first spike; groups do not overlap, each starts
/// after the last one's spikes). `shift` moves member j's spikes j x shift later.
std::vector<Tick> activation_times(const SpikeTrains& trains, const std::vector<NeuronId>& members, TimeSpan span, Tick within,
                                   Tick shift = 0);

/// Activations chance gives the members, per tick: activation_times with `shift` = each of
/// `shifts`, averaged, over the span's length.
double chance_activation_rate(const SpikeTrains& trains, const std::vector<NeuronId>& members, TimeSpan span, Tick within,
                              std::span<const Tick> shifts);

struct ActivityOptions {
    Tick step = 1;                     ///< the steps activations are counted in (ticks)
    double chance_per_tick = 0;        ///< off's rate (at least half an activation over the span is assumed)
    double switch_probability = 1e-3;  ///< a step's chance of switching on or off
    double alpha = 0.01;               ///< an active period's activations are at most this probable under chance (Bonferroni)
};

/// The active periods of an assembly with these `activations` (sorted) within `span`: each
/// from its first activation to just after its last, in time order.
std::vector<TimeSpan> active_periods(std::span<const Tick> activations, TimeSpan span, const ActivityOptions& options);

}  // namespace spikeminer::pipeline
