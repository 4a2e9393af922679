#pragma once
// Which episodes occur more often than chance: each candidate's count against its counts in
// surrogate recordings (surrogates.hpp), as SPADE does with dithered surrogates, with a
// sequential stop per candidate and a correction across the candidates.

#include "spikeminer/mining/count.hpp"
#include "spikeminer/mining/episode.hpp"
#include "spikeminer/mining/multiple_testing.hpp"
#include "spikeminer/mining/surrogates.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace spikeminer::mining {

struct SignificanceOptions {
    SurrogateOptions surrogate;
    std::size_t surrogates = 1000;  ///< N: the most surrogates a candidate is counted in
    /// h: a candidate stops once this many surrogates reached its count (its p-value is
    /// then at least h / N and settled well enough: Besag and Clifford's sequential test).
    std::size_t enough_exceedances = 10;
    Correction correction = Correction::BenjaminiHochberg;
    double q = 0.05;
};

struct EpisodeSignificance {
    std::uint64_t count = 0;           ///< in the recording
    double surrogate_mean = 0;         ///< over the surrogates it was counted in
    double surrogate_sd = 0;
    std::size_t surrogates_used = 0;   ///< L
    std::size_t exceedances = 0;       ///< surrogates with a count >= the recording's
    double p = 1;                      ///< (1 + exceedances) / (L + 1), or h / L when it stopped early
    double p_adjusted = 1;
    bool significant = false;          ///< passed the correction at q
};

/// Tests `episodes` (with their `counts` in `trains`) against surrogates 0, 1, ... of
/// `trains`, counted with `count` (any backend: the surrogates are the same). The result
/// depends only on the inputs and the seed.
std::vector<EpisodeSignificance> test_episodes(const SpikeTrains& trains, std::span<const Episode> episodes,
                                               std::span<const std::uint64_t> counts, const SignificanceOptions& options,
                                               const CountOptions& count = {});

}  // namespace spikeminer::mining
