// Level-wise mining: test a level's candidates against chance, count those that beat it,
// keep the frequent, join them.
#include "spikeminer/mining/mine.hpp"

#include "chance_results.hpp"
#include "cofiring_layout.hpp"
#include "pair_bound.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/memory.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>

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

std::string thousands(std::uint64_t n) {
    std::string digits = std::to_string(n);
    for (auto at = static_cast<std::ptrdiff_t>(digits.size()) - 3; at > 0; at -= 3) digits.insert(static_cast<std::size_t>(at), ",");
    return digits;
}

// Why level `level` is not mined: its candidates alone would take more than the budget.
std::string over_budget(std::size_t level, std::uint64_t candidates, std::size_t budget) {
    const double bytes = static_cast<double>(candidates) * static_cast<double>(candidate_bytes(level));
    const auto fit = static_cast<std::uint64_t>(static_cast<double>(budget) / static_cast<double>(candidate_bytes(level)));
    return "level " + std::to_string(level) + " was not mined: its " + thousands(candidates) + " candidates would take about " +
           format_bytes(bytes) + ", over the memory budget (" + format_bytes(static_cast<double>(budget)) + "), which holds about " +
           thousands(fit) + "; the levels before it are kept. A higher minimum count, a shorter maximum level, fewer neurons or a "
           "larger memory budget would fit";
}

// The candidates that beat chance, with their results: level 2 from the co-firing engine,
// the levels after from the counter's lag counts. The others are dropped.
void keep_beating_chance(const SpikeTrains& trains, std::size_t level, std::vector<Episode>& candidates, const MiningOptions& options,
                         EpisodeCounter& counter, Tick grid, std::size_t budget, LevelReport& report,
                         std::vector<ChanceResult>& results) {
    const ChanceTest& test = *options.chance;
    const std::size_t all = candidates.size();
    std::erase_if(candidates, repeats_a_neuron);  // a neuron's own repeats are chance, by the test's null
    // The candidates tested together: all of them, or at level 2 those of each group of
    // intervals the co-firing engine let through (the others cannot pass), at its share of q.
    std::vector<std::vector<std::size_t>> sets;
    std::vector<std::uint64_t> tests;
    ChanceTest share = test;
    if (level == 2) {
        const detail::PairsKept pairs = *detail::pairs_that_can_reach(trains, candidates, report.threshold, options.intervals,
                                                                      options.count, test, budget);
        sets.resize(pairs.group_tests.size());
        for (std::size_t k = 0; k < pairs.kept.size(); ++k) sets[pairs.group[k]].push_back(pairs.kept[k]);
        tests = pairs.group_tests;
        share.q = test.q / static_cast<double>(sets.size());
    } else {
        sets.emplace_back(candidates.size());
        std::iota(sets[0].begin(), sets[0].end(), std::size_t{0});
        tests.push_back(all);
    }
    std::vector<std::size_t> kept;
    for (std::size_t g = 0; g < sets.size(); ++g) {
        std::vector<Episode> tested;
        std::vector<Interval> gaps;
        for (const std::size_t i : sets[g]) {
            tested.push_back(candidates[i]);
            gaps.push_back(candidates[i].gaps.back());
        }
        const std::vector<LagCounts> lags = counter.lag_counts(tested, test.baseline);
        std::vector<bool> passed;
        const std::vector<ChanceResult> decided = detail::chance_results(lags, gaps, share, grid, tests[g], passed);
        for (std::size_t k = 0; k < sets[g].size(); ++k) {
            if (!passed[k]) continue;
            kept.push_back(sets[g][k]);
            results.push_back(decided[k]);
        }
        report.chance_tests += tests[g];
    }
    // In candidate order (the sets of level 2's groups interleave).
    std::vector<std::size_t> order(kept.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return kept[x] < kept[y]; });
    std::vector<Episode> beating;
    std::vector<ChanceResult> beating_results;
    for (const std::size_t k : order) {
        beating.push_back(std::move(candidates[kept[k]]));
        beating_results.push_back(results[k]);
    }
    candidates = std::move(beating);
    results = std::move(beating_results);
    report.beat_chance = candidates.size();
}

}  // namespace

std::uint64_t count_for_rate(double rate_hz, const SpikeTrains& trains) {
    const double duration = trains.time_base().to_seconds(trains.span().length());
    const double product = rate_hz * duration;
    // A product within rounding of a whole number (1.1 Hz x 100 s = 110.00000000000001) is that number.
    const double nearest = std::round(product);
    const double count = std::fabs(product - nearest) <= 1e-9 * std::max(1.0, product) ? nearest : std::ceil(product);
    if (!(count < 18446744073709551616.0)) {
        throw UsageError("a rate of " + std::to_string(rate_hz).substr(0, 12) + " Hz over " + std::to_string(duration).substr(0, 12) +
                         " s is more occurrences than can be counted");
    }
    return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(count));
}

MiningResult mine(const SpikeTrains& trains, const MiningOptions& options,
                  const std::function<void(const LevelReport&)>& on_level) {
    if (options.intervals.empty()) throw UsageError("mining needs at least one interval");
    if (options.min_counts.empty()) throw UsageError("mining needs a minimum count (or rate)");
    if (options.max_level == 0) throw UsageError("the maximum level must be at least 1");
    for (const std::uint64_t count : options.min_counts) {
        if (count == 0) throw UsageError("a minimum count of 0 lets every candidate through: give 1 or more");
    }
    std::vector<Interval> sorted = options.intervals;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t k = 0; k < sorted.size(); ++k) {
        const Interval& gap = sorted[k];
        if (gap.lo < 0 || gap.lo >= gap.hi) throw UsageError("every interval needs 0 <= lo < hi");
        // Twice in the list, every episode through it would be counted and reported twice.
        if (k > 0 && gap == sorted[k - 1]) throw UsageError("an interval is given twice: give each once");
    }
    if (options.chance) validate(*options.chance, options.intervals);
    std::vector<NeuronId> neurons = options.neurons;
    if (neurons.empty()) {
        for (NeuronId n = 0; n < trains.num_neurons(); ++n) neurons.push_back(n);
    }
    std::vector<Episode> candidates;
    std::vector<bool> named(trains.num_neurons(), false);
    for (NeuronId n : neurons) {
        if (n >= trains.num_neurons()) throw UsageError("neuron index " + std::to_string(n) + " is out of range");
        if (named[n]) throw UsageError("the neurons to mine name " + trains.label(n) + " twice");
        named[n] = true;
        candidates.push_back(Episode{{n}, {}});
    }

    MiningResult result;
    const std::size_t budget = host_memory_budget(options.count.memory_budget);
    CountOptions count_options = options.count;
    count_options.memory_budget = budget;
    EpisodeCounter counter(trains, count_options);
    // The chance test's grid lags are the co-firing engine's: those of the recording's grid.
    const Tick grid = options.chance ? detail::time_grid(trains.times(), options.count.threads) : 1;
    std::vector<Episode> frequent;
    for (std::size_t level = 1; level <= options.max_level && !candidates.empty(); ++level) {
        const auto start = std::chrono::steady_clock::now();
        LevelReport report;
        report.level = level;
        report.candidates = candidates.size();
        report.threshold = level_threshold(options, level);
        std::vector<ChanceResult> chance;
        if (options.chance && level >= 2) {
            keep_beating_chance(trains, level, candidates, options, counter, grid, budget, report, chance);
        } else if (level == 2) {
            if (auto kept = detail::pairs_that_can_reach(trains, candidates, report.threshold, options.intervals, options.count,
                                                         std::nullopt, budget)) {
                report.bounded_out = candidates.size() - kept->kept.size();
                std::vector<Episode> bounded;
                for (const std::size_t i : kept->kept) bounded.push_back(std::move(candidates[i]));
                candidates = std::move(bounded);
            }
        }
        // The frequent episodes' end lists stay with the counter: the next level extends them.
        const CountResult counted = counter.count(candidates, report.threshold);
        report.counter = counted.counter;
        report.backend = counted.backend;
        report.note = counted.note;
        std::vector<FrequentEpisode> found;
        for (std::size_t i = 0; i < candidates.size(); ++i) {
            if (counted.counts[i] < report.threshold) continue;
            found.push_back(FrequentEpisode{candidates[i], counted.counts[i], chance.empty() ? std::nullopt : std::optional(chance[i]),
                                            std::nullopt});
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
        if (level == options.max_level) break;
        // The next level only when its candidates fit the budget beside what is held.
        const std::uint64_t next = count_next_candidates(level, frequent, options.intervals);
        if (static_cast<double>(next) * static_cast<double>(candidate_bytes(level + 1)) > static_cast<double>(budget)) {
            result.stopped = over_budget(level + 1, next, budget);
            break;
        }
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
