#pragma once
// Which episodes occur more often than chance: each candidate's count against its counts in
// surrogate recordings (surrogates.hpp), as SPADE does with dithered surrogates, with a
// sequential stop per candidate and a correction across the candidates.

#include "spikeminer/mining/count.hpp"
#include "spikeminer/mining/episode.hpp"
#include "spikeminer/mining/multiple_testing.hpp"
#include "spikeminer/mining/surrogates.hpp"

#include <cstdint>
#include <functional>
#include <span>
#include <string>
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

/// Options from what a user writes: q in (0, 1], N >= 1 surrogates, the surrogate's name,
/// its dither (> 0) and refractory period (>= 0) in ms, converted to the ticks of
/// `time_base`, and its seed. Throws UsageError naming `prefix`'s option ("--dither-ms").
SignificanceOptions significance_options(double q, std::size_t surrogates, const std::string& surrogate, double dither_ms,
                                         double refractory_ms, std::uint64_t seed, const TimeBase& time_base,
                                         const std::string& prefix = "--");

/// One item's test (an episode, an assembly): its count against its counts in surrogates.
struct SurrogateSignificance {
    std::uint64_t count = 0;           ///< in the recording
    double surrogate_mean = 0;         ///< over the surrogates it was counted in
    double surrogate_sd = 0;
    std::size_t surrogates_used = 0;   ///< L
    std::size_t exceedances = 0;       ///< surrogates with a count >= the recording's
    double p = 1;                      ///< (1 + exceedances) / (L + 1), or h / L when it stopped early
    double p_adjusted = 1;
    bool significant = false;          ///< passed the correction at q
    bool operator==(const SurrogateSignificance&) const = default;
};

/// Counts of items in one surrogate: `count_in(s, open)` gives the counts in surrogate s of
/// the items `open` (indices into the observed counts), in that order.
using SurrogateCounts = std::function<std::vector<std::uint64_t>(std::uint64_t s, std::span<const std::size_t> open)>;

/// The sequential test of any counts against surrogates 0, 1, ...: each item is counted in
/// surrogates until `enough_exceedances` reach its observed count or N are used; then the
/// p-values are corrected together. `progress` (optional) shows the surrogates as `task`
/// (an empty task: the caller shows progress) and its Cancel stops the work between
/// surrogates.
std::vector<SurrogateSignificance> test_against_surrogates(std::span<const std::uint64_t> observed, const SignificanceOptions& options,
                                                           const SurrogateCounts& count_in, Progress* progress = nullptr,
                                                           const std::string& task = "surrogates");

/// Throws UsageError unless `options` asks for at least one surrogate and one exceedance
/// to stop at: what every sequential test needs, wherever its counts are made.
void check_sequential_test(const SignificanceOptions& options);

/// How test_against_surrogates ends, for items counted elsewhere (on a GPU): each item's
/// count, surrogates_used and exceedances set, with the sum and the sum of squares of its
/// surrogate counts. Sets the means, deviations and p-values, then corrects them together.
void settle_surrogate_tests(std::span<SurrogateSignificance> items, std::span<const double> sums, std::span<const double> squares,
                            const SignificanceOptions& options);

/// The smallest p-value N surrogates give is 1 / (N + 1); among m items corrected at q it
/// passes only when at least m / (q (N + 1)) pass together (Bonferroni: never unless
/// N + 1 >= m / q). Empty when one item alone can pass; else a note saying so and which N
/// lets one pass.
std::string resolution_note(std::size_t tested, const SignificanceOptions& options);

/// Tests `episodes` (with their `counts` in `trains`) against surrogates 0, 1, ... of
/// `trains`, counted with `count` (any backend: the surrogates are the same). The result
/// depends only on the inputs and the seed.
std::vector<SurrogateSignificance> test_episodes(const SpikeTrains& trains, std::span<const Episode> episodes,
                                               std::span<const std::uint64_t> counts, const SignificanceOptions& options,
                                               const CountOptions& count = {});

}  // namespace spikeminer::mining
