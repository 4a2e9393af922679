// See cofiring_surrogates.hpp.
#include "cofiring_surrogates.hpp"

#include "spikeminer/core/error.hpp"

#include <omp.h>

#include <algorithm>
#include <map>

namespace spikeminer::mining::detail {

PairTestLags pair_test_lags(const CofiringLags& lags, int interval) {
    if (interval == kSynchrony) return {true, lags.sync, 0, 0};
    const Interval& gap = lags.intervals[static_cast<std::size_t>(interval)];
    return {false, 0, gap.lo, gap.hi};
}

Tick longest_lag(const CofiringLags& lags) {
    Tick longest = std::max<Tick>(lags.sync, 0);
    for (const Interval& interval : lags.intervals) longest = std::max(longest, interval.hi);
    return longest;
}

SignificanceOptions edge_surrogate_options(const EdgeTest& test) {
    SignificanceOptions options = *test.surrogates;
    options.q = test.q;
    options.correction = test.correction;
    return options;
}

void keep_confirmed(CofiringWindow& window, std::span<const SurrogateSignificance> tested) {
    if (tested.size() != window.edges.size()) throw Error("surrogate edge test: one test per edge is needed");
    std::vector<CofiringEdge> kept;
    for (std::size_t i = 0; i < tested.size(); ++i) {
        if (!tested[i].significant) continue;
        CofiringEdge edge = window.edges[i];
        edge.expected = tested[i].surrogate_mean;
        edge.p = tested[i].p;
        edge.p_adjusted = tested[i].p_adjusted;
        kept.push_back(edge);
    }
    window.edges = std::move(kept);
}

void confirm_with_surrogates(const SurrogateTrains& surrogates, CofiringWindow& window, const CofiringLags& lags,
                             const EdgeTest& test, unsigned threads, Progress* progress) {
    if (window.edges.empty() || !test.surrogates) return;
    std::vector<std::uint64_t> observed;
    for (const CofiringEdge& edge : window.edges) observed.push_back(edge.count);
    const TimeSpan near{window.span.start - longest_lag(lags), window.span.end};
    const int workers = threads != 0 ? static_cast<int>(threads) : omp_get_max_threads();
    const auto count_in = [&](std::uint64_t s, std::span<const std::size_t> open) {
        // The open edges' neurons in surrogate s, near the window.
        std::vector<NeuronId> neurons;
        for (const std::size_t i : open) {
            neurons.push_back(window.edges[i].a);
            neurons.push_back(window.edges[i].b);
        }
        std::sort(neurons.begin(), neurons.end());
        neurons.erase(std::unique(neurons.begin(), neurons.end()), neurons.end());
        std::vector<std::vector<Tick>> trains(neurons.size());
#pragma omp parallel for schedule(dynamic) num_threads(workers)
        for (std::size_t k = 0; k < neurons.size(); ++k) trains[k] = surrogates.near(neurons[k], s, near);
        const auto of = [&](NeuronId n) -> const std::vector<Tick>& {
            return trains[static_cast<std::size_t>(std::lower_bound(neurons.begin(), neurons.end(), n) - neurons.begin())];
        };
        std::vector<std::uint64_t> counts(open.size());
#pragma omp parallel for schedule(dynamic) num_threads(workers)
        for (std::size_t k = 0; k < open.size(); ++k) {
            const CofiringEdge& edge = window.edges[open[k]];
            const std::vector<Tick>& first = of(edge.a);
            const std::vector<Tick>& second = of(edge.b);
            counts[k] = count_pair_test(first.data(), first.size(), second.data(), second.size(), window.span.start, window.span.end,
                                        pair_test_lags(lags, edge.interval));
        }
        return counts;
    };
    const std::vector<SurrogateSignificance> tested =
        test_against_surrogates(observed, edge_surrogate_options(test), count_in, progress, "");  // the windows show progress
    keep_confirmed(window, tested);
}

}  // namespace spikeminer::mining::detail

namespace spikeminer::mining {

std::optional<SignificanceOptions> surrogate_edge_test(const std::string& edge_test, std::size_t surrogates, const std::string& surrogate,
                                                       double dither_ms, double refractory_ms, std::uint64_t seed,
                                                       const TimeBase& time_base) {
    if (edge_test == "analytic") return std::nullopt;
    if (edge_test != "surrogate") throw UsageError("unknown edge test '" + edge_test + "': choose analytic or surrogate");
    // The edge test's own q and correction decide; the surrogates' are not used.
    return significance_options(1.0, surrogates, surrogate, dither_ms, refractory_ms, seed, time_base);
}

}  // namespace spikeminer::mining
