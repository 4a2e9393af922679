#pragma once
// Co-firing: how often every ordered pair of neurons fires at given lags, window by time
// window, and which pairs do so more often than chance. The edges of a window are the
// co-firing graph whose maximal cliques are candidate assemblies.
//
// What is counted. For neurons A != B and a lag range (lo, hi], the count is the number of
// occurrences of the two-node episode A -(lo,hi]-> B that end in the window: pairs of a
// spike of A at t_A and a spike of B at t_B with lo < t_B - t_A <= hi and t_B in the window
// (every such pair, not the non-overlapped subset: the largest non-overlapped set is not a
// sum over time, the number of occurrences is). Synchrony adds lag 0: two spikes of A and
// B at the same tick, once per such pair. An occurrence belongs to the time bin of its
// end, t_B, also when t_A lies in an earlier bin; each occurrence has one end, so the
// counts of a window are exactly the sums of its bins' counts, and windows that share bins
// share their counts. The order of simultaneous spikes and the numbering of neurons change
// no count.
//
// What is tested, per window and per unordered pair {A, B}:
//   - synchrony: spikes of A and B at most `sync` apart, either way (lags -sync..sync);
//   - each interval k, each direction: A -(lo_k,hi_k]-> B and B -(lo_k,hi_k]-> A.
// Chance is judged from the same pair's occurrences at the baseline lags, both ways: under
// chance every lag on the recording's time grid is equally likely, so of the c + d
// occurrences of a tested range (c) and the baseline (d), each falls in the tested range
// with probability pi = n_t / (n_t + n_b), n_t and n_b being the grid lags each holds. The
// p-value is P(X >= c) for X ~ Binomial(c + d, pi): the exact conditional test of two
// Poisson rates, which also carries the uncertainty of the baseline. Rates that rise and
// fall together (up and down states, stimuli) raise both counts alike and so do not count
// as co-firing. Chance::Independent instead takes trains of constant rate: c against
// Poisson(n_A n_B n_t / L) over a window of L grid steps.
// The p-values of a window's tests are corrected together: Benjamini-Hochberg at a false
// discovery rate q (at most a fraction q of the edges found are expected to be chance's),
// or Bonferroni (the chance of any false edge at most q).

#include "spikeminer/core/backend.hpp"
#include "spikeminer/core/progress.hpp"
#include "spikeminer/core/spike_trains.hpp"
#include "spikeminer/core/uninitialized.hpp"
#include "spikeminer/mining/episode.hpp"
#include "spikeminer/mining/multiple_testing.hpp"
#include "spikeminer/mining/significance.hpp"

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace spikeminer::mining {

/// The lags at which pairs are counted (ticks).
struct CofiringLags {
    /// Synchrony: spikes of two neurons at most this far apart, either way, tested as one
    /// undirected count; negative: no synchrony test.
    Tick sync = -1;
    /// Directed lag ranges (lo, hi], tested for each ordered pair; sorted, not overlapping.
    std::vector<Interval> intervals;
    /// The lags (lo, hi], both ways, whose counts give chance; beyond every tested lag.
    Interval baseline;
};

/// What chance means in the edge test.
enum class Chance {
    Baseline,     ///< the same pair at the baseline lags (default)
    Independent,  ///< independent trains of constant rate over the window
};

/// The edge test: a test passes when its corrected p-value is within q and its count meets
/// the thresholds. q >= 1 turns the statistical test off (only the thresholds decide).
struct EdgeTest {
    Chance chance = Chance::Baseline;
    Correction correction = Correction::BenjaminiHochberg;
    double q = 0.01;
    std::uint64_t min_count = 1;  ///< at least this many occurrences
    double min_ratio = 0;         ///< at least this many times the expected count
    double min_z = -std::numeric_limits<double>::infinity();  ///< at least this many Poisson standard deviations above it
    /// The surrogate edge test (--edge-test surrogate): each edge the test above finds (it
    /// screens) is counted again in its window in surrogates 0, 1, ... of the recording,
    /// with the sequential stop of significance.hpp, and kept when its surrogate p-value
    /// passes `correction` at `q` among the window's edges. The kept edges' p and p_adjusted
    /// are then the surrogates' and `expected` their mean count. The surrogates' own q and
    /// correction are not used.
    std::optional<SignificanceOptions> surrogates;
};

struct CofiringOptions {
    CofiringLags lags;
    /// Windows of `window` ticks every `step` ticks over the recording; `window` must be a
    /// whole number of steps. 0 and 0: the whole recording as one window.
    Tick window = 0;
    Tick step = 0;
    /// For the latest windows of a longer recording (a live source's), counted from its
    /// spikes since a little before them: bin 0 starts at `origin` instead of the first
    /// spike (earlier spikes only start pairs), and the lags lie on the longer recording's
    /// time grid `grid` (ticks) instead of these spikes' own. Both unset: the trains' own.
    std::optional<Tick> origin;
    std::optional<Tick> grid;
    EdgeTest test;
    Backend backend = Backend::Auto;
    unsigned threads = 0;          ///< CPU threads; 0: all
    /// Bytes of host memory the CPU counter's counts may take (0: host_memory_budget's
    /// default); more is refused before the work (MemoryBudgetExceeded).
    std::size_t memory_budget = 0;
    Progress* progress = nullptr;  ///< per window; its Cancel stops the work
};

/// The test index of synchrony in CofiringEdge::interval (intervals are 0, 1, ...).
inline constexpr int kSynchrony = -1;

/// A test that passed: its pair, what was compared, and the evidence.
struct CofiringEdge {
    NeuronId a = 0;            ///< synchrony: the lower id; an interval: the neuron firing first
    NeuronId b = 0;
    int interval = kSynchrony; ///< kSynchrony, or the index of the interval
    std::uint64_t count = 0;   ///< occurrences in the window
    std::uint64_t baseline = 0;  ///< occurrences at the baseline lags, both ways (baseline chance)
    double expected = 0;       ///< the count chance gives
    double p = 1;              ///< the test's p-value (1 when the test is off)
    double p_adjusted = 1;     ///< corrected for the window's tests (BH q-value, or Bonferroni's p m)
    bool operator==(const CofiringEdge&) const = default;
};

/// Part of the whole recording's co-firing counts (CofiringWindows::whole_recording_share):
/// the counts of the steps a counter added, and how many steps those were.
struct WholeRecordingShare {
    std::vector<std::uint64_t> counts;  ///< (end neuron, start neuron, slot), row-major; empty: none added
    std::size_t steps = 0;
    /// Adds `other`'s steps to these (throws Error when their counts are not of one size).
    void add(WholeRecordingShare other);
};

/// The whole recording's co-firing counts as a run's windows summed them
/// (CofiringWindows::take_whole_recording_counts), for another test over the same spikes
/// (level 2's sieve: MiningOptions::pair_counts): counts[(b n + a) lags.size() + s] holds
/// the pairs of a spike of a before one of b at a lag in lags[s] = (lo, hi] ((-1, 0]: lag
/// 0, a's spike first in the stream), n the recording's neurons; over `span`, which holds
/// `spikes` spikes.
struct WholeRecordingCounts {
    std::vector<Interval> lags;  ///< in increasing lag, not overlapping
    UninitializedVector<std::uint64_t> counts;
    TimeSpan span;
    std::uint64_t spikes = 0;
};

/// One window's result.
struct CofiringWindow {
    std::size_t index = 0;
    TimeSpan span;                   ///< [start, end) of the window
    std::uint64_t tests = 0;         ///< tests corrected together: pairs of neurons firing in the window, times tests per pair
    std::vector<CofiringEdge> edges; ///< sorted by (a, b, interval)
};

/// The undirected pairs {a, b}, a < b, that have at least one edge: the co-firing graph.
std::vector<std::pair<NeuronId, NeuronId>> joined_pairs(const CofiringWindow& window);

/// The default lags, in ms: synchrony within 2 ms; the intervals (0,2], (2,5], (5,10]; chance
/// from 20-40 ms.
inline constexpr const char* kDefaultSyncMs = "2";
inline constexpr const char* kDefaultIntervalsMs = "0-2,2-5,5-10";
inline constexpr const char* kDefaultBaselineMs = "20-40";

/// Lags written in `unit`: synchrony within `sync` ("2"; "off" for none), the intervals
/// "0-2,2-5,5-10" (empty for none) and the baseline "20-40", converted exactly to ticks.
/// Throws UsageError naming what is wrong (see validate()).
CofiringLags parse_lags(const std::string& sync, const std::string& intervals, const std::string& baseline,
                        const TimeBase& time_base, const std::string& unit = "ms");

/// EdgeTest::surrogates for --edge-test `edge_test`: none for "analytic", the surrogates'
/// settings (as significance_options takes them) for "surrogate". Throws UsageError.
std::optional<SignificanceOptions> surrogate_edge_test(const std::string& edge_test, std::size_t surrogates, const std::string& surrogate,
                                                       double dither_ms, double refractory_ms, std::uint64_t seed,
                                                       const TimeBase& time_base);

/// Checks options against a recording: lags (sync >= 0 or off, intervals sorted, not
/// overlapping, lo < hi, baseline beyond every tested lag and wider than nothing), window and
/// step (both 0, or both positive with window a multiple of step), q > 0. Throws UsageError.
void validate(const CofiringOptions& options);

/// The windows of a recording, one after another: counts are kept per step (bin) for the
/// bins of one window only, so memory is (neuron pairs) x (lag slots) x (bins in a window),
/// whatever the recording's length; each step adds the bin that enters and takes away the
/// bin that leaves. CPU (all threads) and GPU give identical windows.
class CofiringWindows {
public:
    /// Validates (UsageError), chooses the backend (Error when the GPU is asked for and none
    /// can be used). The trains must outlive this object.
    CofiringWindows(const SpikeTrains& trains, const CofiringOptions& options);
    ~CofiringWindows();
    CofiringWindows(const CofiringWindows&) = delete;
    CofiringWindows& operator=(const CofiringWindows&) = delete;

    /// Number of windows (at least one: a recording shorter than one window is one window).
    [[nodiscard]] std::size_t size() const;
    /// Computes the next window into `window`; false after the last. Throws Cancelled.
    bool next(CofiringWindow& window);
    /// Computes the next windows into `windows`, as many as it holds and are left, and
    /// returns how many. With the surrogate edge test, their edges are tested together: on
    /// the GPU, in one pass over the surrogates for all of them. Throws Cancelled.
    std::size_t next(std::span<CofiringWindow> windows);
    /// Makes window `index` the next one (a window does not depend on those before it):
    /// for a part of the windows, as the ranks of an MPI run compute them.
    void skip_to(std::size_t index);
    /// Where the counting runs, and why when that is not what was asked.
    [[nodiscard]] const BackendChoice& backend() const;
    /// Remarks on the windows (a recording shorter than one window), or empty.
    [[nodiscard]] const std::string& note() const;
    /// Bytes of device memory the GPU counter's window and bin counts take (most of its
    /// memory), and the surrogate edge test's where it runs there: for choosing how many
    /// counters a device can hold.
    [[nodiscard]] std::size_t gpu_count_bytes() const;
    /// Before the first window: asks the counter to sum its steps' counts as the windows
    /// come, for whole_recording() (on the GPU, its share of them: whole_recording_share()).
    /// False, and nothing kept, where the windows are one, or the CPU's sum would pass the
    /// memory budget.
    bool keep_whole_recording();
    /// After every window was taken in order (the last one last), with the steps kept: the
    /// window over the whole recording, what cofiring_whole_recording() gives with these
    /// options, without counting the spikes again. False when it cannot be made so.
    bool whole_recording(CofiringWindow& window);
    /// After every window was taken in order, where the CPU kept the steps: the whole
    /// recording's counts, moved out (the counts of the windows are freed); nullopt
    /// elsewhere. whole_recording() can no longer be made afterwards.
    std::optional<WholeRecordingCounts> take_whole_recording_counts();
    /// The window over the whole recording from counts of the same spikes: these options'
    /// lag slots that a run of their slots makes up are read from them, only the others
    /// counted (on the CPU). False where they are not counts of this recording (its neurons,
    /// span and spikes) or their lags are not in increasing order without overlap.
    bool whole_recording_from(const WholeRecordingCounts& counted, CofiringWindow& window);
    /// Where the GPU counts the windows, kept (keep_whole_recording): this object's share
    /// of the whole recording's counts, after the windows it took (each once, in any order
    /// and chunks); no steps when it took none. nullopt where none is kept (the CPU counts,
    /// or counted after the GPU gave way).
    [[nodiscard]] std::optional<WholeRecordingShare> whole_recording_share();
    /// The window over the whole recording from the sum of the shares of objects with these
    /// options that took every window once between them (whole_recording_share). False
    /// when the sum is not every step once, or not counts of this recording.
    bool whole_recording_of(const WholeRecordingShare& sum, CofiringWindow& window);

private:
    struct State;
    std::unique_ptr<State> state_;
};

/// One window over the whole recording: CofiringWindows(trains, options with window and
/// step 0).next(); with `counted`, the lags it holds read from it (whole_recording_from),
/// only the others counted.
CofiringWindow cofiring_whole_recording(const SpikeTrains& trains, CofiringOptions options, const WholeRecordingCounts* counted = nullptr);

}  // namespace spikeminer::mining
