// The test against chance (chance.hpp): p-values from lag counts.
#pragma once

#include "spikeminer/mining/chance.hpp"

#include <span>
#include <vector>

namespace spikeminer::mining::detail {

/// The results of candidates from their lag counts at their last gaps: exact p-values with
/// the grid lags of spikes on a grid of `grid` ticks, corrected together as `tests` tests
/// (at least counts.size(): candidates not listed count too). `passed` says which pass.
std::vector<ChanceResult> chance_results(std::span<const LagCounts> counts, std::span<const Interval> gaps, const ChanceTest& test,
                                         Tick grid, std::size_t tests, std::vector<bool>& passed);

}  // namespace spikeminer::mining::detail
