#pragma once

#include "spikeminer/mining/chance.hpp"
#include "spikeminer/mining/count.hpp"
#include "spikeminer/mining/significance.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace spikeminer::mining {

struct WholeRecordingCounts;  // cofiring.hpp

/// What to mine.
struct MiningOptions {
    std::vector<Interval> intervals;        ///< allowed inter-event constraints
    std::vector<std::uint64_t> min_counts;  ///< threshold per level (the last one repeats)
    std::size_t max_level = 5;              ///< longest episode
    std::vector<NeuronId> neurons;          ///< allow-list; empty = all
    CountOptions count;                     ///< counter, backend and memory budget for each level
    /// When given (run's and mine's default), from level 2 on a candidate is counted only
    /// when it beats chance (chance.hpp), and the minimum count is a floor below which no
    /// episode is reported however improbable.
    std::optional<ChanceTest> chance;
    /// When given, from level 2 on a frequent episode is kept (reported, and joined into
    /// the next level's candidates) only when it is significant against surrogates too.
    std::optional<SignificanceOptions> significance;
    /// The whole recording's co-firing counts made already (a run's windows): level 2's
    /// sieve reads the lag slots of its own that they make up (the chance test's baseline,
    /// where the windows share it) and counts only the others. Not owned.
    const WholeRecordingCounts* pair_counts = nullptr;
};

/// Minimum count from a rate: ceil(rate_hz * duration_s), at least 1, at most 2^64 - 1.
std::uint64_t count_for_rate(double rate_hz, const SpikeTrains& trains);

/// One level of the level-wise search.
struct LevelReport {
    std::size_t level = 0;
    std::size_t candidates = 0;
    /// Level 2: candidates of two neurons with fewer pairs of spikes at their gap than the
    /// threshold, left out uncounted (they cannot be frequent; see mine()).
    std::size_t bounded_out = 0;
    /// With the test against chance: the candidates tested, corrected together (level 2:
    /// every ordered pair of neurons at every interval; those of a neuron twice are not
    /// tested), and those that beat chance (only they are counted).
    std::uint64_t chance_tests = 0;
    std::optional<std::size_t> beat_chance;
    std::size_t frequent = 0;                ///< counted at least the threshold (and, with the test, beat chance)
    std::optional<std::size_t> significant;  ///< of the frequent, when they were tested against surrogates
    std::uint64_t threshold = 0;
    Counter counter = Counter::Auto;
    Backend backend = Backend::Cpu;
    double seconds = 0;
    std::string note;               ///< why the counting fell back, if it did
    std::string significance_note;  ///< when the surrogates are too few for one episode alone to pass (resolution_note)
};

struct FrequentEpisode {
    Episode episode;
    std::uint64_t count = 0;
    std::optional<ChanceResult> chance;                 ///< its test against chance, when there was one
    std::optional<SurrogateSignificance> significance;  ///< when it was tested against surrogates
};

struct MiningResult {
    std::vector<LevelReport> levels;
    std::vector<FrequentEpisode> episodes;  ///< every frequent episode, level by level
    /// Why mining stopped before the maximum level with candidates left (a level that does
    /// not fit the memory budget); empty when it did not.
    std::string stopped;
};

/// Level-wise (Apriori) mining of frequent serial episodes: level 1 the neurons, level 2
/// every ordered pair with every interval, level k+1 the joins of level-k episodes a and b
/// where a without its first node equals b without its last node. At level 2 the co-firing
/// engine counts every pair of neurons at once: with the test against chance it is the
/// test; without, a pair is counted only when its number of spike pairs at the gap, all of
/// them, reaches the threshold (no count of its occurrences can pass that number). Each
/// level works within the memory budget (count.memory_budget), in chunks whose results are
/// those of one pass; a level whose candidates alone do not fit is not started, and
/// `stopped` says what would fit. `on_level` (optional) is told after each level.
MiningResult mine(const SpikeTrains& trains, const MiningOptions& options,
                  const std::function<void(const LevelReport&)>& on_level = {});

/// Level k+1 candidates from the frequent episodes of level k (k >= 2), sorted. `progress`
/// (optional): its Cancel stops the work within moments, also for millions of joins.
std::vector<Episode> join_candidates(const std::vector<Episode>& frequent, const Progress* progress = nullptr);

/// The candidates after level `level`: every ordered pair of the frequent neurons with
/// every interval after level 1, join_candidates after the others.
std::vector<Episode> next_candidates(std::size_t level, const std::vector<Episode>& frequent, const std::vector<Interval>& intervals);

/// How many candidates next_candidates would make, without making them (`progress` as for
/// join_candidates).
std::uint64_t count_next_candidates(std::size_t level, const std::vector<Episode>& frequent, const std::vector<Interval>& intervals,
                                    const Progress* progress = nullptr);

/// Bytes of host memory a candidate of `nodes` nodes takes while its level is mined (the
/// episode, its test and its count): what the memory budget is checked against.
std::size_t candidate_bytes(std::size_t nodes);

/// The minimum count at `level` (1-based): its own entry of min_counts, else the last one.
std::uint64_t level_threshold(const MiningOptions& options, std::size_t level);

}  // namespace spikeminer::mining
