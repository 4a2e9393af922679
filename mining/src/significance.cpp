#include "spikeminer/mining/significance.hpp"

#include "spikeminer/core/error.hpp"

#include <cmath>

namespace spikeminer::mining {

std::vector<EpisodeSignificance> test_episodes(const SpikeTrains& trains, std::span<const Episode> episodes,
                                               std::span<const std::uint64_t> counts, const SignificanceOptions& options,
                                               const CountOptions& count) {
    if (counts.size() != episodes.size()) throw Error("significance: one count per episode is needed");
    if (options.surrogates == 0 || options.enough_exceedances == 0) {
        throw UsageError("significance: give at least one surrogate and one exceedance to stop at");
    }
    std::vector<EpisodeSignificance> results(episodes.size());
    std::vector<double> sums(episodes.size(), 0.0);
    std::vector<double> squares(episodes.size(), 0.0);
    std::vector<std::size_t> open(episodes.size());  // the candidates still counted
    for (std::size_t i = 0; i < episodes.size(); ++i) {
        results[i].count = counts[i];
        open[i] = i;
    }
    EpisodeCounter counter(trains, count);
    std::vector<Episode> batch;
    for (std::size_t s = 0; s < options.surrogates && !open.empty(); ++s) {
        if (count.progress != nullptr) count.progress->check_cancelled();
        batch.clear();
        for (const std::size_t i : open) batch.push_back(episodes[i]);
        const CountResult counted = counter.count_in_surrogate(options.surrogate, s, batch);
        std::vector<std::size_t> still;
        for (std::size_t k = 0; k < open.size(); ++k) {
            EpisodeSignificance& r = results[open[k]];
            const auto c = static_cast<double>(counted.counts[k]);
            sums[open[k]] += c;
            squares[open[k]] += c * c;
            ++r.surrogates_used;
            if (counted.counts[k] >= r.count) ++r.exceedances;
            if (r.exceedances < options.enough_exceedances) still.push_back(open[k]);
        }
        open = std::move(still);
    }
    std::vector<double> p(episodes.size());
    for (std::size_t i = 0; i < episodes.size(); ++i) {
        EpisodeSignificance& r = results[i];
        const auto used = static_cast<double>(r.surrogates_used);
        r.surrogate_mean = sums[i] / used;
        r.surrogate_sd = used > 1 ? std::sqrt(std::max(0.0, (squares[i] - used * r.surrogate_mean * r.surrogate_mean) / (used - 1))) : 0.0;
        r.p = r.exceedances >= options.enough_exceedances ? static_cast<double>(r.exceedances) / used
                                                           : (1.0 + static_cast<double>(r.exceedances)) / (used + 1.0);
        p[i] = r.p;
    }
    const Corrected corrected = correct(p, options.correction, options.q, episodes.size());
    for (std::size_t i = 0; i < episodes.size(); ++i) {
        results[i].p_adjusted = corrected.adjusted[i];
        results[i].significant = corrected.passed[i];
    }
    return results;
}

}  // namespace spikeminer::mining
