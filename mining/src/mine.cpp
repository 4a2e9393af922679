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

// Why level `level` was not mined, and what would fit.
std::string not_mined(std::size_t level, const std::string& why) {
    return "level " + std::to_string(level) + " was not mined: " + why +
           "; the levels before it are kept. A higher minimum count, a shorter maximum level, fewer neurons or a larger memory "
           "budget would fit";
}

// ... because its candidates alone would take more than the budget.
std::string over_budget(std::size_t level, std::uint64_t candidates, std::size_t budget) {
    const double bytes = static_cast<double>(candidates) * static_cast<double>(candidate_bytes(level));
    const auto fit = static_cast<std::uint64_t>(static_cast<double>(budget) / static_cast<double>(candidate_bytes(level)));
    return not_mined(level, "its " + thousands(candidates) + " candidates would take about " + format_bytes(bytes) +
                                ", over the memory budget (" + format_bytes(static_cast<double>(budget)) + "), which holds about " +
                                thousands(fit));
}

// Tests `candidates` against chance in `sets` (indices into them), each corrected as
// `tests[g]` tests at q shared evenly among the sets; keeps those that pass, in candidate
// order, with their results.
void keep_beating_chance(std::vector<Episode>& candidates, const std::vector<std::vector<std::size_t>>& sets,
                         const std::vector<std::uint64_t>& tests, const ChanceTest& test, EpisodeCounter& counter, Tick grid,
                         LevelReport& report, std::vector<ChanceResult>& results) {
    ChanceTest share = test;
    share.q = test.q / static_cast<double>(std::max<std::size_t>(sets.size(), 1));
    std::vector<std::pair<std::size_t, ChanceResult>> kept;
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
            if (passed[k]) kept.emplace_back(sets[g][k], decided[k]);
        }
        report.chance_tests += tests[g];
    }
    std::sort(kept.begin(), kept.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    std::vector<Episode> beating;
    for (auto& [i, result] : kept) {
        beating.push_back(std::move(candidates[i]));
        results.push_back(result);
    }
    candidates = std::move(beating);
    report.beat_chance = candidates.size();
}

// Level 2's candidates: those the co-firing engine lets through (with the test, tested
// again on both counts), or every pair when its counts would not fit. False when they do
// not fit either (`stopped` says why).
bool level_two(const SpikeTrains& trains, const std::vector<Episode>& singles, const MiningOptions& options, EpisodeCounter& counter,
               Tick grid, std::size_t budget, LevelReport& report, std::vector<Episode>& candidates,
               std::vector<ChanceResult>& results, std::string& stopped) {
    std::vector<NeuronId> neurons;
    for (const Episode& e : singles) neurons.push_back(e.neurons[0]);
    report.candidates = neurons.size() * neurons.size() * options.intervals.size();
    std::optional<detail::PairsKept> sieved =
        detail::pairs_that_can_reach(trains, neurons, report.threshold, options.intervals, options.count, options.chance, budget,
                                     options.pair_counts);
    if (!sieved) {
        if (static_cast<double>(report.candidates) * static_cast<double>(candidate_bytes(2)) > static_cast<double>(budget)) {
            stopped = over_budget(2, report.candidates, budget);
            return false;
        }
        candidates = next_candidates(1, singles, options.intervals);
        return true;
    }
    candidates = std::move(sieved->episodes);
    if (!options.chance) {
        report.bounded_out = report.candidates - candidates.size();
        return true;
    }
    std::vector<std::vector<std::size_t>> sets(sieved->group_tests.size());
    for (std::size_t i = 0; i < candidates.size(); ++i) sets[sieved->group[i]].push_back(i);
    keep_beating_chance(candidates, sets, sieved->group_tests, *options.chance, counter, grid, report, results);
    return true;
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
    for (std::size_t level = 1; level <= options.max_level; ++level) {
        const auto start = std::chrono::steady_clock::now();
        LevelReport report;
        report.level = level;
        report.threshold = level_threshold(options, level);
        std::vector<ChanceResult> chance;
        CountResult counted;
        try {
            if (level == 2) {
                if (!level_two(trains, frequent, options, counter, grid, budget, report, candidates, chance, result.stopped)) break;
            } else if (level > 2) {
                // The joins only when they fit the budget beside what is held.
                const std::uint64_t joins = count_next_candidates(level - 1, frequent, options.intervals, options.count.progress);
                if (static_cast<double>(joins) * static_cast<double>(candidate_bytes(level)) > static_cast<double>(budget)) {
                    result.stopped = over_budget(level, joins, budget);
                    break;
                }
                candidates = join_candidates(frequent, options.count.progress);
                report.candidates = candidates.size();
                if (options.chance) {
                    const std::uint64_t tests = candidates.size();
                    std::erase_if(candidates, repeats_a_neuron);  // a neuron's own repeats are chance, by the test's null
                    std::vector<std::vector<std::size_t>> all(1, std::vector<std::size_t>(candidates.size()));
                    std::iota(all[0].begin(), all[0].end(), std::size_t{0});
                    keep_beating_chance(candidates, all, {tests}, *options.chance, counter, grid, report, chance);
                }
            } else {
                report.candidates = candidates.size();
            }
            if (report.candidates == 0) break;  // nothing to mine at this level
            // The frequent episodes' end lists stay with the counter for the next level to
            // extend; the last level's are not kept.
            counted = counter.count(candidates, level == options.max_level ? kKeepNone : report.threshold);
        } catch (const MemoryBudgetExceeded& e) {
            result.stopped = not_mined(level, e.what());
            break;
        }
        report.counter = counted.counter;
        report.backend = counted.backend;
        report.note = counted.note;
        std::vector<FrequentEpisode> found;
        for (std::size_t i = 0; i < candidates.size(); ++i) {
            if (options.count.progress != nullptr && i % 4096 == 0) options.count.progress->check_cancelled();
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
        if (frequent.empty()) break;
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
