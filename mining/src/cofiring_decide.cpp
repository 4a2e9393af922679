// The host's half of the edge test (cofiring_decide.hpp).
#include "cofiring_decide.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace spikeminer::mining::detail {
namespace {

int types(const LagLayout& layout) { return 1 + layout.intervals; }

double level_bound(double q, int level) { return std::ldexp(q, -level) * (1 + kMargin); }

// The expected count of a candidate and its exact p-value.
std::pair<double, double> evidence(const CofiringCandidate& c, const CandidateRule& rule) {
    const int type = c.interval + 1;
    const auto lags = static_cast<double>(test_lags(rule.layout, type));
    if (rule.independent) {
        const double mu = static_cast<double>(rule.window_spikes[c.a]) * static_cast<double>(rule.window_spikes[c.b]) * lags /
                          rule.window_lags;
        return {mu, rule.test_off ? 1.0 : poisson_upper_tail(c.count, mu)};
    }
    // No baseline lag on the time grid (a recording of a few spikes): no estimate of chance.
    const double expected = rule.layout.baseline_lags == 0 ? 0.0 : static_cast<double>(c.baseline) * lags / static_cast<double>(rule.layout.baseline_lags);
    return {expected, rule.test_off ? 1.0 : binomial_upper_tail(c.count, c.count + c.baseline, rule.share[type])};
}

bool meets_thresholds(const CofiringEdge& e, const EdgeTest& test) {
    if (e.count < test.min_count) return false;
    const auto count = static_cast<double>(e.count);
    if (e.expected > 0) {
        if (count < test.min_ratio * e.expected) return false;
        if ((count - e.expected) / std::sqrt(e.expected) < test.min_z) return false;
    }
    return true;
}

}  // namespace

CandidateRule candidate_rule(const LagLayout& layout, const EdgeTest& test, std::size_t neurons) {
    CandidateRule rule;
    rule.layout = layout;
    rule.neurons = neurons;
    rule.test_off = test.q >= 1;
    rule.independent = test.chance == Chance::Independent;
    rule.q = test.q;
    rule.min_count = std::max<std::uint64_t>(test.min_count, 1);
    const auto share = [&](std::uint64_t lags) {
        return static_cast<double>(lags) / static_cast<double>(lags + layout.baseline_lags);
    };
    rule.share[0] = share(layout.sync_lags);
    for (int k = 0; k < layout.intervals; ++k) rule.share[k + 1] = share(layout.interval_lags[k]);
    return rule;
}

std::vector<std::uint32_t> level_tables(const LagLayout& layout, const EdgeTest& test, std::uint64_t table_d, unsigned threads) {
    if (test.q >= 1 || test.chance == Chance::Independent) return {};
    const CandidateRule rule = candidate_rule(layout, test, 0);
    const int n_types = types(layout);
    std::vector<std::uint32_t> table(static_cast<std::size_t>(n_types) * kLevels * table_d);
#pragma omp parallel for collapse(2) schedule(dynamic, 1) num_threads(threads != 0 ? threads : static_cast<unsigned>(omp_get_max_threads()))
    for (int type = 0; type < n_types; ++type) {
        for (int level = 0; level < kLevels; ++level) {
            const double bound = level_bound(test.q, level);
            std::uint32_t* column = table.data() + (static_cast<std::size_t>(type) * kLevels + static_cast<std::size_t>(level)) * table_d;
            std::uint64_t c = 1;  // the smallest count grows with the baseline count
            for (std::uint64_t d = 0; d < table_d; ++d) {
                while (binomial_upper_tail(c, c + d, rule.share[type]) > bound) ++c;
                column[d] = static_cast<std::uint32_t>(c);
            }
        }
    }
    return table;
}

std::vector<CofiringEdge> decide(std::vector<CofiringCandidate> candidates, const EdgeTest& test, const CandidateRule& rule,
                                 unsigned threads) {
    // A fixed order, whatever order the backend found them in.
    const auto key = [](const CofiringCandidate& c) { return std::tuple(c.a, c.b, c.interval); };
    std::sort(candidates.begin(), candidates.end(), [&](const auto& x, const auto& y) { return key(x) < key(y); });
    std::vector<CofiringEdge> edges(candidates.size());
    const auto n = static_cast<std::ptrdiff_t>(candidates.size());
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads != 0 ? threads : static_cast<unsigned>(omp_get_max_threads()))
    for (std::ptrdiff_t i = 0; i < n; ++i) {
        const CofiringCandidate& c = candidates[static_cast<std::size_t>(i)];
        const auto [expected, p] = evidence(c, rule);
        edges[static_cast<std::size_t>(i)] = {c.a, c.b, c.interval, c.count, rule.independent ? 0 : c.baseline, expected, p, p};
    }
    if (!rule.test_off) {
        // A window's p-values, corrected together (as rule.tests tests).
        std::vector<double> p(edges.size());
        for (std::size_t i = 0; i < edges.size(); ++i) p[i] = edges[i].p;
        const Corrected corrected = correct(p, test.correction, test.q, rule.tests);
        std::vector<CofiringEdge> kept;
        for (std::size_t i = 0; i < edges.size(); ++i) {
            edges[i].p_adjusted = corrected.adjusted[i];
            if (corrected.passed[i]) kept.push_back(edges[i]);
        }
        edges = std::move(kept);
    }
    std::erase_if(edges, [&](const CofiringEdge& e) { return !meets_thresholds(e, test); });
    return edges;
}

}  // namespace spikeminer::mining::detail
