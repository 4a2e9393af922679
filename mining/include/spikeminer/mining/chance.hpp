#pragma once
// The test of every candidate episode against chance that keeps each neuron's own firing:
// what makes an episode worth reporting, beyond its count reaching a floor.
//
// An episode E is its prefix P (all nodes but the last) followed, after a delay in
// (lo, hi], by a spike of its last neuron X. The occurrences of P end at times t_1..t_n
// (the end events that close one; for a one-node P, every spike of its neuron). Counted
// are the pairs (t_j, a spike s of X):
//   c, at the delay:          lo < s - t_j <= hi;
//   r, at the mirrored delay: lo < t_j - s <= hi (X as long before the end as E says after);
//   d, at the baseline lags:  blo < |s - t_j| <= bhi, before and after t_j.
// E claims that X follows P at its delay. Chance keeps X's whole firing (its rate, its
// bursts, its rate changes slower than bhi) and leaves only its timing relative to P to
// chance, in two ways, and E must beat both:
//   - timing: X's spikes near P's ends fall at any lag within +-bhi alike, so each of the
//     c + d pairs lies at the delay with probability pi = n_t / (n_t + n_b), the grid lags
//     each holds: p_t = P(C >= c), C ~ Binomial(c + d, pi), the co-firing engine's exact
//     conditional test (cofiring.hpp), asked of an episode's last step;
//   - order: X fires as often just before P's end as just after it (neurons that fire
//     together, an assembly, do so both ways and are no sequence): p_o = P(C >= c),
//     C ~ Binomial(c + r, 1/2).
// The episode's p-value is max(p_t, p_o) (an intersection-union test: each null alone is
// rejected at that level), and the p-values of a level's candidates are corrected together
// (Benjamini-Hochberg at q by default). At level 2 (P one neuron A) c is the pair's
// co-firing count at the delay and the timing test is the co-firing edge test over the
// whole recording.
//
// Candidates are joined level by level from the episodes reported at the level before
// (Apriori), so a reported episode's prefix and suffix beat chance too; an episode whose
// parts do not is not looked for. An episode that visits a neuron twice is neither tested
// nor reported: a neuron's own repeats are chance by this null's definition, and they
// would bias the test of a step that returns to it.

#include "spikeminer/mining/episode.hpp"
#include "spikeminer/mining/multiple_testing.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace spikeminer::mining {

/// The test of each candidate against chance.
struct ChanceTest {
    Interval baseline;  ///< lags (lo, hi], taken both ways, whose counts give chance; beyond every delay tested
    Correction correction = Correction::BenjaminiHochberg;
    double q = 0.01;
    bool operator==(const ChanceTest&) const = default;
};

/// Pairs (end t of an occurrence of the prefix, spike s of the last neuron): `tested` with
/// lo < s - t <= hi (the last delay), `reversed` with lo < t - s <= hi, `baseline` with
/// blo < |s - t| <= bhi.
struct LagCounts {
    std::uint64_t tested = 0;
    std::uint64_t reversed = 0;
    std::uint64_t baseline = 0;
    bool operator==(const LagCounts&) const = default;
};

/// One candidate's test.
struct ChanceResult {
    std::uint64_t count = 0;     ///< pairs (end of an occurrence of the prefix, spike of the last neuron) at the last delay
    std::uint64_t reversed = 0;  ///< the same pairs at the mirrored delay (the neuron before the end)
    std::uint64_t baseline = 0;  ///< the same pairs at the baseline lags, both ways
    double expected = 0;         ///< the count the baseline's rate gives at the tested delays
    double p = 1;                ///< the larger of the timing and order tests' p-values
    double p_adjusted = 1;       ///< corrected among the level's candidates
    bool operator==(const ChanceResult&) const = default;
};

/// Whether an episode names a neuron twice (such are not tested against chance).
bool repeats_a_neuron(const Episode& episode);

/// Checks a test against the intervals mined: a baseline beyond every interval, 0 < q <= 1.
/// Throws UsageError naming what is wrong.
void validate(const ChanceTest& test, const std::vector<Interval>& intervals);

}  // namespace spikeminer::mining
