#pragma once
// The time scales a recording can resolve: its time grid (imaging frames, a coarse clock)
// bounds which delays, synchrony and baseline lags mean anything, so the defaults ("auto")
// are made from it and lags finer than it are refused.

#include "spikeminer/app/pipeline/run_config.hpp"
#include "spikeminer/core/spike_trains.hpp"

#include <string>

namespace spikeminer::pipeline {

/// Grids at or finer than this take the default lags in ms (1 ms).
inline constexpr double kFineGridSeconds = 1e-3;

/// The spacing of the recording's distinct spike times when nearly all of them lie on a grid
/// (differences that are whole multiples of the smallest one, within rounding), in ticks;
/// it may be fractional (30 frames a second in µs: 33,333.3). 0 when they lie on none
/// coarser than one tick.
double spike_time_grid(const SpikeTrains& trains);

/// Replaces the lags given as "auto" (the episodes' delays, synchrony, the baseline) with
/// those the recording resolves, written in ms: on a grid at most kFineGridSeconds, delays
/// 0-5,5-10 and synchrony 2; on a coarser one (of step g), delays of one and two steps
/// ((g/2, 3g/2], (3g/2, 5g/2]) and synchrony within the same step (g/2). The baseline runs
/// from twice to four times the longest lag tested (20-40 ms at the defaults; 6 to 10
/// steps of a coarse grid). On a coarse grid each bound lies half a step from a grid lag,
/// so that rounded times fall on the right side. Then refuses (UsageError) a delay, lag or
/// baseline that holds no lag of the grid. Auto co-firing windows (0) hold 50 spikes of the
/// median neuron and last at least 10 s, in ten steps of whole seconds (10 s every 1 s at
/// 5 Hz and more); a given window or step decides the other. Returns a note saying what was
/// chosen and why.
std::string resolve_time_scales(RunConfig& config, const SpikeTrains& trains);

}  // namespace spikeminer::pipeline
