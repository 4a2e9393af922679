#include "brute_cofiring.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <tuple>

namespace spikeminer::test {
namespace {

bool within(Tick lag, const mining::Interval& range) { return lag > range.lo && lag <= range.hi; }

}  // namespace

double binomial_tail(std::uint64_t c, std::uint64_t n, double pi) {
    long double sum = 0;
    for (std::uint64_t k = c; k <= n; ++k) {
        const long double log_term = std::lgammal(static_cast<long double>(n) + 1) - std::lgammal(static_cast<long double>(k) + 1) -
                                     std::lgammal(static_cast<long double>(n - k) + 1) + static_cast<long double>(k) * std::log(static_cast<long double>(pi)) +
                                     static_cast<long double>(n - k) * std::log1p(-static_cast<long double>(pi));
        sum += std::exp(log_term);
    }
    return static_cast<double>(std::min<long double>(sum, 1));
}

namespace {

double poisson_tail(std::uint64_t c, double mu) {
    if (c == 0) return 1;
    if (mu <= 0) return 0;
    long double below = 0;  // P(X < c)
    for (std::uint64_t k = 0; k < c; ++k) {
        below += std::exp(-static_cast<long double>(mu) + static_cast<long double>(k) * std::log(static_cast<long double>(mu)) -
                          std::lgammal(static_cast<long double>(k) + 1));
    }
    return static_cast<double>(std::max<long double>(0, 1 - below));
}

}  // namespace

Tick grid_of(const SpikeTrains& trains) {
    Tick grid = 0;
    for (const Tick t : trains.times()) grid = std::gcd(grid, t - trains.times().front());
    return std::max<Tick>(grid, 1);
}

std::uint64_t grid_lags(const mining::Interval& range, Tick grid) { return static_cast<std::uint64_t>(range.hi / grid - range.lo / grid); }

std::vector<BruteTest> brute_tests(const SpikeTrains& trains, const mining::CofiringLags& lags, TimeSpan window) {
    const Tick grid = grid_of(trains);
    const auto times = trains.times();
    const auto neurons = trains.neurons();
    const std::size_t n = trains.num_neurons();
    std::vector<std::uint64_t> spikes(n, 0);
    for (std::size_t i = 0; i < times.size(); ++i) {
        if (times[i] >= window.start && times[i] < window.end) ++spikes[neurons[i]];
    }
    // (first, second, what): what = -2 baseline, -1 synchrony, k interval; first < second for those two.
    std::map<std::tuple<NeuronId, NeuronId, int>, std::uint64_t> counts;
    for (std::size_t x = 0; x < times.size(); ++x) {
        for (std::size_t y = 0; y < times.size(); ++y) {
            if (x == y || neurons[x] == neurons[y]) continue;
            const Tick lag = times[y] - times[x];  // x first
            if (lag < 0 || (lag == 0 && x > y)) continue;  // each simultaneous pair once
            if (times[y] < window.start || times[y] >= window.end) continue;  // ends in the window
            const NeuronId lo = std::min(neurons[x], neurons[y]);
            const NeuronId hi = std::max(neurons[x], neurons[y]);
            if (lags.sync >= 0 && lag <= lags.sync) ++counts[{lo, hi, -1}];
            if (within(lag, lags.baseline)) ++counts[{lo, hi, -2}];
            for (std::size_t k = 0; k < lags.intervals.size(); ++k) {
                if (within(lag, lags.intervals[k])) ++counts[{neurons[x], neurons[y], static_cast<int>(k)}];
            }
        }
    }
    std::vector<BruteTest> tests;
    for (NeuronId a = 0; a < n; ++a) {
        for (NeuronId b = a + 1; b < n; ++b) {
            if (spikes[a] == 0 || spikes[b] == 0) continue;
            const std::uint64_t baseline = counts[{a, b, -2}];
            if (lags.sync >= 0) tests.push_back({a, b, mining::kSynchrony, counts[{a, b, -1}], baseline, spikes[a], spikes[b]});
            for (int k = 0; k < static_cast<int>(lags.intervals.size()); ++k) {
                const mining::Interval& range = lags.intervals[static_cast<std::size_t>(k)];
                if (range.hi / grid == range.lo / grid) continue;  // no lag of the grid: nothing to test
                tests.push_back({a, b, k, counts[{a, b, k}], baseline, spikes[a], spikes[b]});
                tests.push_back({b, a, k, counts[{b, a, k}], baseline, spikes[b], spikes[a]});
            }
        }
    }
    return tests;
}

std::vector<mining::CofiringEdge> brute_edges(const SpikeTrains& trains, const mining::CofiringLags& lags, const mining::EdgeTest& test,
                                              TimeSpan window) {
    const Tick grid = grid_of(trains);
    const std::uint64_t base_lags = 2 * grid_lags(lags.baseline, grid);
    const double window_lags = std::max(1.0, static_cast<double>(window.length() / grid));
    const std::vector<BruteTest> tests = brute_tests(trains, lags, window);
    std::vector<mining::CofiringEdge> all;
    for (const BruteTest& t : tests) {
        const std::uint64_t lags_t = t.interval == mining::kSynchrony ? 2 * static_cast<std::uint64_t>(lags.sync / grid) + 1
                                                                       : grid_lags(lags.intervals[static_cast<std::size_t>(t.interval)], grid);
        mining::CofiringEdge e{t.a, t.b, t.interval, t.count, test.chance == mining::Chance::Independent ? 0 : t.baseline, 0, 1, 1};
        if (test.chance == mining::Chance::Independent) {
            e.expected = static_cast<double>(t.spikes_a) * static_cast<double>(t.spikes_b) * static_cast<double>(lags_t) / window_lags;
            if (test.q < 1) e.p = poisson_tail(t.count, e.expected);
        } else {
            e.expected = base_lags == 0 ? 0.0 : static_cast<double>(t.baseline) * static_cast<double>(lags_t) / static_cast<double>(base_lags);
            const double pi = static_cast<double>(lags_t) / static_cast<double>(lags_t + base_lags);
            if (test.q < 1) e.p = binomial_tail(t.count, t.count + t.baseline, pi);
        }
        e.p_adjusted = e.p;
        all.push_back(e);
    }
    std::vector<bool> accepted(all.size(), test.q >= 1);
    const auto m = static_cast<double>(all.size());
    if (test.q < 1 && test.correction == mining::Correction::Bonferroni) {
        for (std::size_t i = 0; i < all.size(); ++i) {
            accepted[i] = all[i].p <= test.q / m;
            all[i].p_adjusted = std::min(1.0, all[i].p * m);
        }
    } else if (test.q < 1) {
        std::vector<std::size_t> order(all.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return all[x].p < all[y].p; });
        std::size_t r = 0;
        for (std::size_t k = 1; k <= order.size(); ++k) {
            if (all[order[k - 1]].p <= test.q * static_cast<double>(k) / m) r = k;
        }
        for (std::size_t k = 0; k < r; ++k) accepted[order[k]] = true;
        for (std::size_t k = 0; k < order.size(); ++k) {
            double least = 1;
            for (std::size_t j = k; j < order.size(); ++j) least = std::min(least, all[order[j]].p * m / static_cast<double>(j + 1));
            all[order[k]].p_adjusted = least;
        }
    }
    std::vector<mining::CofiringEdge> edges;
    for (std::size_t i = 0; i < all.size(); ++i) {
        const mining::CofiringEdge& e = all[i];
        if (!accepted[i] || e.count == 0 || e.count < test.min_count) continue;
        if (e.expected > 0 && (static_cast<double>(e.count) < test.min_ratio * e.expected ||
                               (static_cast<double>(e.count) - e.expected) / std::sqrt(e.expected) < test.min_z)) {
            continue;
        }
        edges.push_back(e);
    }
    std::sort(edges.begin(), edges.end(), [](const auto& x, const auto& y) {
        return std::tuple(x.a, x.b, x.interval) < std::tuple(y.a, y.b, y.interval);
    });
    return edges;
}

std::string edge_mismatch(const std::vector<mining::CofiringEdge>& got, const std::vector<mining::CofiringEdge>& want) {
    const auto close = [](double x, double y) { return x == y || std::abs(x - y) <= 1e-9 * std::max(std::abs(x), std::abs(y)) + 1e-300; };
    if (got.size() != want.size()) return std::to_string(got.size()) + " edges, " + std::to_string(want.size()) + " expected";
    for (std::size_t e = 0; e < got.size(); ++e) {
        const mining::CofiringEdge& g = got[e];
        const mining::CofiringEdge& w = want[e];
        if (g.a != w.a || g.b != w.b || g.interval != w.interval || g.count != w.count || !close(g.expected, w.expected) ||
            !close(g.p, w.p) || !close(g.p_adjusted, w.p_adjusted)) {
            return "edge " + std::to_string(e) + ": " + std::to_string(g.a) + "-" + std::to_string(g.b) + " interval " +
                   std::to_string(g.interval) + " count " + std::to_string(g.count) + " p " + std::to_string(g.p) + "; expected " +
                   std::to_string(w.a) + "-" + std::to_string(w.b) + " interval " + std::to_string(w.interval) + " count " +
                   std::to_string(w.count) + " p " + std::to_string(w.p);
        }
    }
    return {};
}

}  // namespace spikeminer::test
