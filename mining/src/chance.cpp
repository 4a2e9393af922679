// The test against chance (chance.hpp): checks, and p-values from lag counts.
#include "chance_results.hpp"

#include "cofiring_layout.hpp"
#include "cofiring_stats.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/mining/tails.hpp"

#include <algorithm>

namespace spikeminer::mining {

bool repeats_a_neuron(const Episode& episode) {
    std::vector<NeuronId> neurons = episode.neurons;
    std::sort(neurons.begin(), neurons.end());
    return std::adjacent_find(neurons.begin(), neurons.end()) != neurons.end();
}

void validate(const ChanceTest& test, const std::vector<Interval>& intervals) {
    if (!(test.q > 0 && test.q <= 1)) throw UsageError("the test against chance needs a rate q in (0, 1]");
    if (test.baseline.lo < 0 || test.baseline.lo >= test.baseline.hi) throw UsageError("the baseline lags need 0 <= lo < hi");
    for (const Interval& gap : intervals) {
        if (gap.hi > test.baseline.lo) {
            throw UsageError("the baseline lags must lie beyond every delay tested: a delay reaches " + std::to_string(gap.hi) +
                             " ticks, the baseline starts at " + std::to_string(test.baseline.lo));
        }
    }
}

double binomial_tail(std::uint64_t c, std::uint64_t n, double pi) { return detail::binomial_upper_tail(c, n, pi); }

double poisson_tail(std::uint64_t c, double mu) { return detail::poisson_upper_tail(c, mu); }

namespace detail {

std::vector<ChanceResult> chance_results(std::span<const LagCounts> counts, std::span<const Interval> gaps, const ChanceTest& test,
                                         Tick grid, std::size_t tests, std::vector<bool>& passed) {
    const auto baseline_lags = static_cast<double>(2 * grid_lags(test.baseline, grid));
    std::vector<ChanceResult> results(counts.size());
    std::vector<double> p(counts.size());
    for (std::size_t i = 0; i < counts.size(); ++i) {
        const auto lags = static_cast<double>(grid_lags(gaps[i], grid));
        ChanceResult& r = results[i];
        r.count = counts[i].tested;
        r.reversed = counts[i].reversed;
        r.baseline = counts[i].baseline;
        // A delay or a baseline that holds no lag of the time grid: no evidence either way.
        if (lags == 0 || baseline_lags == 0) {
            p[i] = 1;
        } else {
            r.expected = static_cast<double>(r.baseline) * lags / baseline_lags;
            const double timing = binomial_upper_tail(r.count, r.count + r.baseline, lags / (lags + baseline_lags));
            const double order = binomial_upper_tail(r.count, r.count + r.reversed, 0.5);
            p[i] = std::max(timing, order);
        }
        r.p = p[i];
    }
    const Corrected corrected = correct(p, test.correction, test.q, tests);
    for (std::size_t i = 0; i < counts.size(); ++i) results[i].p_adjusted = corrected.adjusted[i];
    passed = corrected.passed;
    return results;
}

}  // namespace detail
}  // namespace spikeminer::mining
