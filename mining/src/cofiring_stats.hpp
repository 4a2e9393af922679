#pragma once
// The edge test's arithmetic, one source for the CPU and the GPU: tail probabilities, and
// which tests of a pair are candidates and at which level of the ladder.
//
// The ladder. A window holds millions of tests and few edges; exact p-values are computed
// on the host for the few that Benjamini-Hochberg could accept. Level j of the ladder is
// the p-value bound q 2^-j. Each backend gives every test whose p-value may be within q
// the deepest level it may be within, with a margin (relative_slack) larger than the
// difference between the GPU's arithmetic and the host's: so a backend can only put a
// test at a deeper level than the host would, and keep it more, never drop one. The host
// then takes the deepest level that must still hold every test BH accepts
// (deepest_needed_level), and decides those with exact p-values.

#include "cofiring_layout.hpp"
#include "host_device.hpp"

#include <math.h>

#include <cstdint>

namespace spikeminer::mining::detail {

/// Levels of the ladder: bounds q, q/2, ..., q/2^31.
inline constexpr int kLevels = 32;
/// The least relative slack between a backend's p-value and the host's.
inline constexpr double kMargin = 1e-9;

/// The relative slack for a p-value whose terms come from ln Gamma of numbers up to x: each
/// ln Gamma(x) is about x ln x, so an ulp of it (the host's and CUDA's differ by a few) is a
/// relative error of about x ln x times the double's epsilon in the p-value.
SPIKEMINER_HOST_DEVICE inline double relative_slack(double x) {
    constexpr double kUlps = 64;  // a few ulps on each of the three ln Gamma terms, with room
    return kMargin + kUlps * 2.220446049250313e-16 * (x + 2) * log(x + 2);
}

/// ln Gamma(x) for x > 0 (the host's reentrant version: lgamma sets a global).
SPIKEMINER_HOST_DEVICE inline double log_gamma(double x) {
#ifdef __CUDA_ARCH__
    return lgamma(x);
#else
    int sign = 0;
    return lgamma_r(x, &sign);
#endif
}

/// P(X >= c) for X ~ Binomial(n, pi), 0 < pi < 1: the terms summed from c away from the
/// mean (above it: upward; at or below it: 1 minus the lower tail, summed downward) until
/// they no longer change the sum. Above the mean the sum stops early once it passes
/// `stop_above` (then the result is a lower bound of P, itself above `stop_above`).
SPIKEMINER_HOST_DEVICE inline double binomial_upper_tail(std::uint64_t c, std::uint64_t n, double pi, double stop_above = HUGE_VAL) {
    if (c == 0) return 1.0;
    if (c > n) return 0.0;
    const auto nd = static_cast<double>(n);
    const bool upper = static_cast<double>(c) > nd * pi;
    const std::uint64_t k0 = upper ? c : c - 1;
    const auto kd = static_cast<double>(k0);
    double term = exp(log_gamma(nd + 1) - log_gamma(kd + 1) - log_gamma(nd - kd + 1) + kd * log(pi) + (nd - kd) * log1p(-pi));
    double sum = term;
    const double odds = pi / (1.0 - pi);
    if (upper) {
        for (std::uint64_t k = k0; k < n && term > sum * 1e-17 && sum <= stop_above; ++k) {
            term *= static_cast<double>(n - k) / static_cast<double>(k + 1) * odds;
            sum += term;
        }
        return sum < 1.0 ? sum : 1.0;
    }
    for (std::uint64_t k = k0; k > 0 && term > sum * 1e-17; --k) {
        term *= static_cast<double>(k) / static_cast<double>(n - k + 1) / odds;
        sum += term;
    }
    return sum < 1.0 ? 1.0 - sum : 0.0;
}

/// P(X >= c) for X ~ Poisson(mu), summed the same way.
SPIKEMINER_HOST_DEVICE inline double poisson_upper_tail(std::uint64_t c, double mu, double stop_above = HUGE_VAL) {
    if (c == 0) return 1.0;
    if (!(mu > 0)) return 0.0;
    const bool upper = static_cast<double>(c) > mu;
    const std::uint64_t k0 = upper ? c : c - 1;
    const auto kd = static_cast<double>(k0);
    double term = exp(-mu + kd * log(mu) - log_gamma(kd + 1));
    double sum = term;
    if (upper) {
        for (std::uint64_t k = k0; term > sum * 1e-17 && sum <= stop_above; ++k) {
            term *= mu / static_cast<double>(k + 1);
            sum += term;
        }
        return sum < 1.0 ? sum : 1.0;
    }
    for (std::uint64_t k = k0; k > 0 && term > sum * 1e-17; --k) {
        term *= static_cast<double>(k) / mu;
        sum += term;
    }
    return sum < 1.0 ? 1.0 - sum : 0.0;
}

/// One test whose p-value may be within q: its pair as CofiringEdge has it, its counts
/// and its level. `baseline` is the pair's count at the baseline lags (both ways).
struct CofiringCandidate {
    std::uint32_t a = 0;
    std::uint32_t b = 0;
    std::int32_t interval = -1;
    std::int32_t level = 0;
    std::uint64_t count = 0;
    std::uint64_t baseline = 0;
};

/// Everything a backend needs to pick a window's candidates (copied into kernels).
struct CandidateRule {
    LagLayout layout;
    std::uint64_t neurons = 0;
    bool test_off = false;           ///< q >= 1: every test with count >= min_count, level 0
    bool independent = false;        ///< Chance::Independent
    double q = 0.01;
    std::uint64_t min_count = 1;
    /// The share of a test's grid lags among its own and the baseline's: synchrony at 0,
    /// interval k at k + 1.
    double share[1 + kMaxIntervals] = {};
    /// Baseline chance: the smallest count at level j for baseline count d,
    /// table[(type * kLevels + j) * table_d + d], for d < table_d (the rest computed).
    const std::uint32_t* table = nullptr;
    std::uint64_t table_d = 0;
    /// Independent chance: the spikes of each neuron in the window, and the window's length
    /// in grid steps.
    const std::uint64_t* window_spikes = nullptr;
    double window_lags = 1;
    /// The window's tests, all corrected together, and the correction.
    std::uint64_t tests = 0;
    bool bonferroni = false;
};

/// The grid lags a test of type `type` (0 synchrony, k + 1 interval k) spans.
SPIKEMINER_HOST_DEVICE inline std::uint64_t test_lags(const LagLayout& layout, int type) {
    return type == 0 ? layout.sync_lags : layout.interval_lags[type - 1];
}

/// The deepest level whose bound p, give or take `slack`, may be within; -1 when p surely
/// exceeds q.
SPIKEMINER_HOST_DEVICE inline int level_of(double p, double q, double slack) {
    const double room = q * (1 + slack) / p;  // infinite when p underflows to 0
    if (!(room >= 1)) return -1;
    if (room >= ldexp(1.0, kLevels - 1)) return kLevels - 1;
    return static_cast<int>(floor(log2(room)));
}

/// The level of one test with count c and baseline count d (or, for independent chance, the
/// spikes of its two neurons), or -1 when it is no candidate.
SPIKEMINER_HOST_DEVICE inline int test_level(const CandidateRule& rule, int type, std::uint64_t c, std::uint64_t d,
                                             std::uint64_t spikes_a, std::uint64_t spikes_b) {
    if (rule.test_off) return c >= rule.min_count && c > 0 ? 0 : -1;
    if (c == 0) return -1;
    const bool may_stop_at_mean = rule.q * (1 + kMargin) < 0.5;  // then a count at most its mean has p >= 1/2 > q
    if (rule.independent) {
        const double mu = static_cast<double>(spikes_a) * static_cast<double>(spikes_b) *
                          static_cast<double>(test_lags(rule.layout, type)) / rule.window_lags;
        if (may_stop_at_mean && static_cast<double>(c) <= mu) return -1;
        const double slack = relative_slack(static_cast<double>(c) > mu ? static_cast<double>(c) : mu);
        return level_of(poisson_upper_tail(c, mu, rule.q * (1 + 2 * slack)), rule.q, slack);
    }
    // c at most its mean (c+d) share, i.e. c n_b <= d n_t.
    const double share = rule.share[type];
    if (may_stop_at_mean && static_cast<double>(c) * (1 - share) <= static_cast<double>(d) * share) return -1;
    if (d < rule.table_d) {
        const std::uint32_t* column = rule.table + static_cast<std::uint64_t>(type) * kLevels * rule.table_d + d;
        if (c < column[0]) return -1;
        int level = 0;  // the tables grow with the level: the last one c reaches
        while (level + 1 < kLevels && c >= column[static_cast<std::uint64_t>(level + 1) * rule.table_d]) ++level;
        return level;
    }
    const double slack = relative_slack(static_cast<double>(c + d));
    return level_of(binomial_upper_tail(c, c + d, share, rule.q * (1 + 2 * slack)), rule.q, slack);
}

/// The deepest level that must still hold every test the correction can accept, given how
/// many candidates have each level as their deepest (`at_level`, kLevels counts). BH's
/// bound q R / m needs R accepted tests within it, so while the bound is within level j it
/// is at most q C_j / m, C_j being the candidates at level j or deeper; from j = 0 the
/// deepest level within that is taken, until it holds still. Bonferroni's bound is q / m.
/// kLevels when nothing can be accepted; 0 when the test is off.
SPIKEMINER_HOST_DEVICE inline int deepest_needed_level(const unsigned long long* at_level, const CandidateRule& rule) {
    if (rule.test_off) return 0;
    const auto m = static_cast<double>(rule.tests);
    int level = 0;
    for (;;) {
        double accepted = 1;
        if (!rule.bonferroni) {
            accepted = 0;
            for (int j = level; j < kLevels; ++j) accepted += static_cast<double>(at_level[j]);
        }
        if (accepted == 0) return kLevels;
        int deeper = level;  // the deepest j with q 2^-j >= q accepted / m
        while (deeper + 1 < kLevels && ldexp(1.0, -(deeper + 1)) >= accepted / m) ++deeper;
        if (deeper == level) return level;
        level = deeper;
    }
}

/// The counts of `row` at the slots of `run`, summed.
template <typename Count>
SPIKEMINER_HOST_DEVICE inline std::uint64_t run_sum(const Count* row, const SlotRun& run) {
    std::uint64_t total = 0;
    for (int s = run.first; s < run.last; ++s) total += row[s];
    return total;
}

/// Whether the pair x < y may hold a candidate test (for_each_candidate), given its counts
/// `yx` and `xy` as there: under baseline chance, only when some test's count reaches the
/// least count of level 0 for the pair's baseline (test_level's first look-up), or the
/// baseline is past the tables. Candidates are few, so this check, free of test_level's
/// branch on each count's mean, rules out most pairs at a cost the branch predictor does
/// not raise.
template <typename Count>
SPIKEMINER_HOST_DEVICE inline bool may_hold_candidate(const CandidateRule& rule, const Count* yx, const Count* xy) {
    if (rule.test_off || rule.independent) return true;
    const LagLayout& layout = rule.layout;
    const std::uint64_t d = run_sum(yx, layout.baseline_run) + run_sum(xy, layout.baseline_run);
    if (d >= rule.table_d) return true;
    const auto least = [&](int type) { return rule.table[static_cast<std::uint64_t>(type) * kLevels * rule.table_d + d]; };
    bool may = false;
    if (layout.synchrony) may |= yx[0] + xy[0] + run_sum(yx, layout.sync_run) + run_sum(xy, layout.sync_run) >= least(0);
    for (int k = 0; k < layout.intervals; ++k) {
        may |= run_sum(yx, layout.interval_runs[k]) >= least(k + 1);
        may |= run_sum(xy, layout.interval_runs[k]) >= least(k + 1);
    }
    return may;
}

/// Calls emit(candidate) for each candidate test of the unordered pair x < y, given its
/// window counts: `yx` the slots of occurrences x then y (ending at y), `xy` those of y
/// then x; `spikes_x`, `spikes_y` their spikes in the window (independent chance).
template <typename Count, typename Emit>
SPIKEMINER_HOST_DEVICE inline void for_each_candidate(const CandidateRule& rule, std::uint32_t x, std::uint32_t y, const Count* yx,
                                                      const Count* xy, std::uint64_t spikes_x, std::uint64_t spikes_y,
                                                      Emit&& emit) {
    const LagLayout& layout = rule.layout;
    const std::uint64_t d = run_sum(yx, layout.baseline_run) + run_sum(xy, layout.baseline_run);
    const auto offer = [&](int type, std::uint32_t a, std::uint32_t b, std::uint64_t c) {
        const int level = test_level(rule, type, c, d, spikes_x, spikes_y);
        if (level >= 0) emit(CofiringCandidate{a, b, type - 1, level, c, d});
    };
    if (layout.synchrony) {
        const std::uint64_t c = yx[0] + xy[0] + run_sum(yx, layout.sync_run) + run_sum(xy, layout.sync_run);
        offer(0, x, y, c);
    }
    for (int k = 0; k < layout.intervals; ++k) {
        offer(k + 1, x, y, run_sum(yx, layout.interval_runs[k]));
        offer(k + 1, y, x, run_sum(xy, layout.interval_runs[k]));
    }
}

}  // namespace spikeminer::mining::detail
