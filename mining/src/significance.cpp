#include "spikeminer/mining/significance.hpp"

#include "spikeminer/core/error.hpp"

#include <algorithm>
#include <cmath>

namespace spikeminer::mining {

SignificanceOptions significance_options(double q, std::size_t surrogates, const std::string& surrogate, double dither_ms,
                                         double refractory_ms, std::uint64_t seed, const TimeBase& time_base,
                                         const std::string& prefix) {
    if (!(q > 0 && q <= 1)) throw UsageError(prefix + "significance: give a rate q in (0, 1]");
    if (surrogates == 0) throw UsageError(prefix + "surrogates: give at least one");
    if (!(dither_ms > 0 && std::isfinite(dither_ms))) throw UsageError(prefix + "dither-ms: give a positive number of ms");
    if (!(refractory_ms >= 0 && std::isfinite(refractory_ms))) throw UsageError(prefix + "refractory-ms: give a number of ms, not negative");
    SignificanceOptions options;
    options.q = q;
    options.surrogates = surrogates;
    options.surrogate.kind = parse_surrogate(surrogate);
    options.surrogate.dither = time_base.from_seconds(dither_ms / 1000);
    if (options.surrogate.dither <= 0) throw UsageError(prefix + "dither-ms: " + std::to_string(dither_ms) + " ms is less than one tick");
    options.surrogate.refractory = time_base.from_seconds(refractory_ms / 1000);
    options.surrogate.seed = seed;
    return options;
}

void check_sequential_test(const SignificanceOptions& options) {
    if (options.surrogates == 0 || options.enough_exceedances == 0) {
        throw UsageError("significance: give at least one surrogate and one exceedance to stop at");
    }
}

std::vector<SurrogateSignificance> test_against_surrogates(std::span<const std::uint64_t> observed, const SignificanceOptions& options,
                                                           const SurrogateCounts& count_in, Progress* progress,
                                                           const std::string& task) {
    check_sequential_test(options);
    std::vector<SurrogateSignificance> results(observed.size());
    std::vector<double> sums(observed.size(), 0.0);
    std::vector<double> squares(observed.size(), 0.0);
    std::vector<std::size_t> open(observed.size());  // the items still counted
    for (std::size_t i = 0; i < observed.size(); ++i) {
        results[i].count = observed[i];
        open[i] = i;
    }
    const bool shown = progress != nullptr && !task.empty();
    if (shown) progress->begin(task, options.surrogates);
    for (std::size_t s = 0; s < options.surrogates && !open.empty(); ++s) {
        if (shown) progress->update(s);
        if (progress != nullptr) progress->check_cancelled();
        const std::vector<std::uint64_t> counted = count_in(s, open);
        if (counted.size() != open.size()) throw Error("significance: one surrogate count per open item is needed");
        std::vector<std::size_t> still;
        for (std::size_t k = 0; k < open.size(); ++k) {
            SurrogateSignificance& r = results[open[k]];
            const auto c = static_cast<double>(counted[k]);
            sums[open[k]] += c;
            squares[open[k]] += c * c;
            ++r.surrogates_used;
            if (counted[k] >= r.count) ++r.exceedances;
            if (r.exceedances < options.enough_exceedances) still.push_back(open[k]);
        }
        open = std::move(still);
    }
    if (shown) progress->finish();
    settle_surrogate_tests(results, sums, squares, options);
    return results;
}

void settle_surrogate_tests(std::span<SurrogateSignificance> items, std::span<const double> sums, std::span<const double> squares,
                            const SignificanceOptions& options) {
    if (sums.size() != items.size() || squares.size() != items.size()) throw Error("significance: one sum and one square per item are needed");
    std::vector<double> p(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
        SurrogateSignificance& r = items[i];
        const auto used = static_cast<double>(r.surrogates_used);
        r.surrogate_mean = sums[i] / used;
        r.surrogate_sd = used > 1 ? std::sqrt(std::max(0.0, (squares[i] - used * r.surrogate_mean * r.surrogate_mean) / (used - 1))) : 0.0;
        r.p = r.exceedances >= options.enough_exceedances ? static_cast<double>(r.exceedances) / used
                                                           : (1.0 + static_cast<double>(r.exceedances)) / (used + 1.0);
        p[i] = r.p;
    }
    const Corrected corrected = correct(p, options.correction, options.q, items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
        items[i].p_adjusted = corrected.adjusted[i];
        items[i].significant = corrected.passed[i];
    }
}

std::string resolution_note(std::size_t tested, const SignificanceOptions& options) {
    const double needed = static_cast<double>(tested) / options.q;  // N + 1 for one item to pass
    if (static_cast<double>(options.surrogates) + 1 >= needed) return {};
    const auto together = static_cast<std::size_t>(std::ceil(needed / (static_cast<double>(options.surrogates) + 1)));
    const std::string how = options.correction == Correction::Bonferroni
                                ? "none can pass"
                                : "they pass only when " + std::to_string(together) + " or more pass together";
    return std::to_string(tested) + " tested at q = " + std::to_string(options.q).substr(0, 6) + " against " +
           std::to_string(options.surrogates) + " surrogates: " + how + "; " +
           std::to_string(static_cast<std::size_t>(std::ceil(needed)) - 1) + " surrogates let a single one pass";
}

std::vector<SurrogateSignificance> test_episodes(const SpikeTrains& trains, std::span<const Episode> episodes,
                                                 std::span<const std::uint64_t> counts, const SignificanceOptions& options,
                                                 const CountOptions& count) {
    if (counts.size() != episodes.size()) throw Error("significance: one count per episode is needed");
    EpisodeCounter counter(trains, count);
    std::vector<Episode> batch;
    const auto count_in = [&](std::uint64_t s, std::span<const std::size_t> open) {
        batch.clear();
        for (const std::size_t i : open) batch.push_back(episodes[i]);
        return counter.count_in_surrogate(options.surrogate, s, batch).counts;
    };
    return test_against_surrogates(counts, options, count_in, count.progress, "episodes against surrogates");
}

}  // namespace spikeminer::mining
