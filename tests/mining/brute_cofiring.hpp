#pragma once
// Co-firing from the definition, for the tests: every pair of spikes, every test, every
// p-value summed term by term, and Benjamini-Hochberg or Bonferroni over all of a
// window's tests.

#include "spikeminer/mining/cofiring.hpp"

#include <string>
#include <vector>

namespace spikeminer::test {

/// P(X >= c) for X ~ Binomial(n, pi), summed term by term in long double.
double binomial_tail(std::uint64_t c, std::uint64_t n, double pi);

/// The greatest common divisor of the spike times' differences (at least 1).
Tick grid_of(const SpikeTrains& trains);

/// Lags of a grid of `grid` ticks in (lo, hi].
std::uint64_t grid_lags(const mining::Interval& range, Tick grid);

/// One test of one pair of neurons that both fire in the window, with its counts.
struct BruteTest {
    NeuronId a = 0;
    NeuronId b = 0;
    int interval = mining::kSynchrony;
    std::uint64_t count = 0;
    std::uint64_t baseline = 0;  ///< the pair's occurrences at the baseline lags, both ways
    std::uint64_t spikes_a = 0;  ///< spikes of a and b in the window
    std::uint64_t spikes_b = 0;
};

/// Every test of every pair of neurons firing in `window` (occurrences ending in it).
std::vector<BruteTest> brute_tests(const SpikeTrains& trains, const mining::CofiringLags& lags, TimeSpan window);

/// The edges of `window` as the definition gives them (sorted by a, b, interval).
std::vector<mining::CofiringEdge> brute_edges(const SpikeTrains& trains, const mining::CofiringLags& lags,
                                              const mining::EdgeTest& test, TimeSpan window);

/// Where two edge lists differ (pairs, tests and counts exactly, expectations and p-values
/// to 1e-9 relative, for arithmetic that sums in another order), or empty when they agree.
std::string edge_mismatch(const std::vector<mining::CofiringEdge>& got, const std::vector<mining::CofiringEdge>& want);

}  // namespace spikeminer::test
