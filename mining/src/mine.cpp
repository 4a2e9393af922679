// Level-wise mining: count a level's candidates, keep the frequent, join them.
#include "spikeminer/mining/mine.hpp"

#include "pair_bound.hpp"

#include "spikeminer/core/error.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace spikeminer::mining {
namespace {

std::vector<Episode> pair_candidates(const std::vector<Episode>& singles, const std::vector<Interval>& intervals) {
    std::vector<Episode> candidates;
    for (const Episode& a : singles) {
        for (const Episode& b : singles) {
            for (const Interval& gap : intervals) candidates.push_back(Episode{{a.neurons[0], b.neurons[0]}, {gap}});
        }
    }
    return candidates;
}

}  // namespace

std::uint64_t count_for_rate(double rate_hz, const SpikeTrains& trains) {
    const double duration = trains.time_base().to_seconds(trains.span().length());
    const double product = rate_hz * duration;
    // A product within rounding of a whole number (1.1 Hz x 100 s = 110.00000000000001) is that number.
    const double nearest = std::round(product);
    const double count = std::fabs(product - nearest) <= 1e-9 * std::max(1.0, product) ? nearest : std::ceil(product);
    // A rate no count can reach: the largest threshold (a cast would wrap).
    if (!(count < 18446744073709551616.0)) return std::numeric_limits<std::uint64_t>::max();
    return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(count));
}

MiningResult mine(const SpikeTrains& trains, const MiningOptions& options,
                  const std::function<void(const LevelReport&)>& on_level) {
    if (options.intervals.empty()) throw UsageError("mining needs at least one interval");
    if (options.min_counts.empty()) throw UsageError("mining needs a minimum count (or rate)");
    if (options.max_level == 0) throw UsageError("the maximum level must be at least 1");
    for (const Interval& gap : options.intervals) {
        if (gap.lo < 0 || gap.lo >= gap.hi) throw UsageError("every interval needs 0 <= lo < hi");
    }
    std::vector<NeuronId> neurons = options.neurons;
    if (neurons.empty()) {
        for (NeuronId n = 0; n < trains.num_neurons(); ++n) neurons.push_back(n);
    }
    std::vector<Episode> candidates;
    std::vector<bool> named(trains.num_neurons(), false);
    for (NeuronId n : neurons) {
        if (n >= trains.num_neurons()) throw UsageError("neuron index " + std::to_string(n) + " is out of range");
        // Twice in the list, every episode through it would be counted and reported twice.
        if (named[n]) throw UsageError("the neurons to mine name " + trains.label(n) + " twice");
        named[n] = true;
        candidates.push_back(Episode{{n}, {}});
    }

    MiningResult result;
    EpisodeCounter counter(trains, options.count);
    std::vector<Episode> frequent;
    for (std::size_t level = 1; level <= options.max_level && !candidates.empty(); ++level) {
        const auto start = std::chrono::steady_clock::now();
        LevelReport report;
        report.level = level;
        report.candidates = candidates.size();
        report.threshold = level_threshold(options, level);
        if (level == 2) {
            if (auto kept = detail::pairs_that_can_reach(trains, candidates, report.threshold, options.intervals, options.count)) {
                report.bounded_out = candidates.size() - kept->size();
                candidates = std::move(*kept);
            }
        }
        // The frequent episodes' end lists stay with the counter: the next level extends them.
        const CountResult counted = counter.count(candidates, report.threshold);
        report.counter = counted.counter;
        report.backend = counted.backend;
        report.note = counted.note;
        std::vector<FrequentEpisode> found;
        for (std::size_t i = 0; i < candidates.size(); ++i) {
            if (counted.counts[i] >= report.threshold) found.push_back(FrequentEpisode{candidates[i], counted.counts[i], std::nullopt});
        }
        report.frequent = found.size();
        if (options.significance && level >= 2) {
            std::vector<Episode> episodes;
            std::vector<std::uint64_t> counts;
            for (const FrequentEpisode& f : found) {
                episodes.push_back(f.episode);
                counts.push_back(f.count);
            }
            report.significance_note = resolution_note(episodes.size(), *options.significance);
            const auto results = test_episodes(trains, episodes, counts, *options.significance, options.count);
            for (std::size_t i = 0; i < found.size(); ++i) found[i].significance = results[i];
            std::erase_if(found, [](const FrequentEpisode& f) { return !f.significance->significant; });
            report.significant = found.size();
        }
        frequent.clear();
        for (FrequentEpisode& f : found) {
            frequent.push_back(f.episode);
            result.episodes.push_back(std::move(f));
        }
        report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        result.levels.push_back(report);
        if (on_level) on_level(report);
        if (options.count.progress != nullptr) options.count.progress->check_cancelled();
        candidates = next_candidates(level, frequent, options.intervals);
    }
    return result;
}

std::vector<Episode> next_candidates(std::size_t level, const std::vector<Episode>& frequent, const std::vector<Interval>& intervals) {
    return level == 1 ? pair_candidates(frequent, intervals) : join_candidates(frequent);
}

std::uint64_t level_threshold(const MiningOptions& options, std::size_t level) {
    return options.min_counts[std::min(level, options.min_counts.size()) - 1];
}

}  // namespace spikeminer::mining
