// CofiringWindows: windows one after another on the chosen backend, each decided on the
// host (cofiring_decide.cpp).
#include "spikeminer/mining/cofiring.hpp"

#include "cofiring_counter.hpp"
#include "cofiring_decide.hpp"
#include "cofiring_surrogates.hpp"
#include "tuning.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/memory.hpp"

#include <algorithm>
#include <functional>

namespace spikeminer::mining {

struct CofiringWindows::State {
    const SpikeTrains& trains;
    CofiringOptions options;
    detail::LagLayout lags;
    detail::BinLayout bins;
    std::string note;
    std::vector<std::uint32_t> table;
    BackendChoice choice;
    detail::CounterProgress counter_progress;
    std::unique_ptr<detail::CofiringCounter> gpu;
    std::unique_ptr<detail::CofiringCounter> cpu;
    // With the surrogate edge test: where it runs (the GPU where the windows are counted
    // there, for dither and isi surrogates), and its surrogates there.
    BackendChoice surrogate_choice;
    std::unique_ptr<SurrogateTrains> cpu_surrogates;
#ifdef SPIKEMINER_HAVE_CUDA
    std::unique_ptr<detail::GpuEdgeSurrogates> gpu_surrogates;
#endif
    std::size_t next = 0;
    bool keep_whole = false;   // the counter sums the bins for the whole recording (or, on the GPU, its share of them)
    bool share_on_gpu = false;  // kept as the GPU counter's share: a CPU that takes over keeps none
    std::optional<WholeRecordingCounts> whole_counts;  // the CPU's sum, once taken from its counter

    State(const SpikeTrains& t, const CofiringOptions& o) : trains(t), options(o) {}

    detail::CofiringCounter& on_cpu() {
        // A GPU's share left with it: the CPU's sum is only made where the CPU counts from the start.
        if (!cpu) cpu = detail::make_cpu_cofiring_counter(trains, lags, bins, options.threads, host_memory_budget(options.memory_budget),
                                                          counter_progress, keep_whole && !share_on_gpu);
        return *cpu;
    }

    detail::CofiringCounter& on_gpu() {
#ifdef SPIKEMINER_HAVE_CUDA
        if (!gpu) gpu = detail::make_gpu_cofiring_counter(trains, lags, bins, counter_progress, keep_whole);
        return *gpu;
#else
        throw Error("this build has no GPU engines");
#endif
    }

    // Spikes of each neuron within the window, from the trains' per-neuron index: two
    // cursors per neuron, into its spikes, that move forward with the windows (from the
    // first spikes again when a window comes after a later one), by galloping: a step's
    // few spikes cost a few reads, the whole recording's window a search.
    std::vector<std::uint32_t> window_starts;
    std::vector<std::uint32_t> window_ends;
    Tick cursors_at = 0;
    std::vector<std::uint64_t> window_spikes(TimeSpan span) {
        const auto all = trains.times();
        const std::size_t n = trains.num_neurons();
        if (window_starts.size() != n || span.start < cursors_at) {
            window_starts.assign(n, 0);
            window_ends.assign(n, 0);
        }
        cursors_at = span.start;
        std::vector<std::uint64_t> spikes(n);
        for (NeuronId neuron = 0; neuron < n; ++neuron) {
            const auto of = trains.spikes_of(neuron);
            // The first of the neuron's spikes from `from` on at or after t.
            const auto first_at = [&](std::uint32_t from, Tick t) {
                std::size_t lo = from;  // every spike before lo is before t
                std::size_t step = 1;
                while (lo + step <= of.size() && all[of[lo + step - 1]] < t) {
                    lo += step;
                    step *= 2;
                }
                const std::size_t hi = std::min(of.size(), lo + step - 1);  // of[hi] (when there) is at or after t
                return static_cast<std::uint32_t>(
                    std::partition_point(of.begin() + static_cast<std::ptrdiff_t>(lo), of.begin() + static_cast<std::ptrdiff_t>(hi),
                                         [&](std::uint32_t i) { return all[i] < t; }) -
                    of.begin());
            };
            std::uint32_t& start = window_starts[neuron];
            std::uint32_t& end = window_ends[neuron];
            start = first_at(start, span.start);
            end = first_at(std::max(end, start), span.end);
            spikes[neuron] = end - start;
        }
        return spikes;
    }

    // The rule for `window`'s candidate tests, its neurons having fired `spikes` times in
    // it; sets the window's tests.
    detail::CandidateRule rule_for(CofiringWindow& window, const std::vector<std::uint64_t>& spikes) const {
        const auto firing = static_cast<std::uint64_t>(std::count_if(spikes.begin(), spikes.end(), [](std::uint64_t n) { return n > 0; }));
        window.tests = (firing < 2 ? 0 : firing * (firing - 1) / 2) * static_cast<std::uint64_t>(lags.tests_per_pair());
        detail::CandidateRule rule = detail::candidate_rule(lags, options.test, trains.num_neurons());
        rule.table = table.empty() ? nullptr : table.data();
        rule.table_d = table.empty() ? 0 : detail::kTableBaselines;
        rule.window_spikes = spikes.data();
        rule.window_lags = std::max(1.0, static_cast<double>(window.span.length() / lags.grid));
        rule.tests = window.tests;
        rule.bonferroni = options.test.correction == Correction::Bonferroni;
        return rule;
    }

    // Takes the CPU's sum of every step from its counter, where it kept one and took the
    // last window (the counter, its windows counted, goes); false where it did not.
    bool take_from_cpu() {
        if (whole_counts) return true;
        if (!keep_whole || !cpu) return false;
        whole_counts = cpu->take_whole_recording();
        if (whole_counts) cpu.reset();
        return whole_counts.has_value();
    }

    // The window over the whole recording from counts at these lags' slots.
    bool decide_whole_of(const std::uint64_t* counts, CofiringWindow& window) {
        return decide_whole(window, [&](const detail::CandidateRule& rule) {
            return std::optional(detail::candidates_of_counts(counts, trains.num_neurons(), lags.slots, rule, options.threads));
        });
    }

    // The window over the whole recording, its candidates picked by `pick` with its rule.
    template <typename Pick>
    bool decide_whole(CofiringWindow& window, Pick pick) {
        CofiringWindow whole;
        whole.span = {bins.origin, bins.end};
        const std::vector<std::uint64_t> spikes = window_spikes(whole.span);
        const detail::CandidateRule rule = rule_for(whole, spikes);
        std::optional<std::vector<detail::CofiringCandidate>> candidates = pick(rule);
        if (!candidates) return false;
        decide(whole, std::move(*candidates), rule);
        confirm(std::span(&whole, 1));
        window = std::move(whole);
        return true;
    }

    // The window's edges from its candidates (before the surrogate edge test).
    void decide(CofiringWindow& window, std::vector<detail::CofiringCandidate> candidates, const detail::CandidateRule& rule) {
        window.edges = detail::decide(std::move(candidates), options.test, rule, options.threads);
    }

    // The surrogate edge test of `windows`' edges, when asked for: of all of them at once on
    // the GPU, else window by window.
    void confirm(std::span<CofiringWindow> windows) {
        const auto has_edges = [](const CofiringWindow& window) { return !window.edges.empty(); };
        if (!options.test.surrogates || std::none_of(windows.begin(), windows.end(), has_edges)) return;
        run_with_fallback(
            surrogate_choice,
            [&] {
#ifdef SPIKEMINER_HAVE_CUDA
                if (!gpu_surrogates) gpu_surrogates = std::make_unique<detail::GpuEdgeSurrogates>(trains, options.test.surrogates->surrogate);
                gpu_surrogates->confirm(windows, options.lags, options.test, options.progress);
#else
                throw Error("this build has no GPU engines");
#endif
            },
            [&] {
#ifdef SPIKEMINER_HAVE_CUDA
                gpu_surrogates.reset();
#endif
                if (!cpu_surrogates) cpu_surrogates = std::make_unique<SurrogateTrains>(trains, options.test.surrogates->surrogate);
                for (CofiringWindow& window : windows) {
                    detail::confirm_with_surrogates(*cpu_surrogates, window, options.lags, options.test, options.threads, options.progress);
                }
            });
    }

    // The next window's edges before the surrogate edge test; false after the last.
    bool count_next(CofiringWindow& window) {
        if (next >= bins.windows) return false;
        Progress* progress = options.progress;
        if (progress != nullptr && next == 0) {
            if (counter_progress.report_spikes) {
                progress->begin("co-firing: spikes counted", trains.num_spikes());
            } else {
                progress->begin("co-firing windows", bins.windows);
            }
        }
        const std::size_t w = next++;
        window.index = w;
        window.span = bins.window(w);
        const std::vector<std::uint64_t> spikes = window_spikes(window.span);
        const detail::CandidateRule rule = rule_for(window, spikes);
        const std::size_t first = w;
        const std::size_t last = bins.last_bin(w);
        std::vector<detail::CofiringCandidate> candidates = run_with_fallback(
            choice,
            [&] {
                detail::CofiringCounter& counter = on_gpu();
                counter.move_to(first, last);
                return counter.candidates(rule);
            },
            [&] {
                gpu.reset();
                detail::CofiringCounter& counter = on_cpu();
                counter.move_to(first, last);
                return counter.candidates(rule);
            });
        decide(window, std::move(candidates), rule);
        if (progress != nullptr && !counter_progress.report_spikes) progress->update(w + 1);
        return true;
    }
};

CofiringWindows::CofiringWindows(const SpikeTrains& trains, const CofiringOptions& options)
    : state_(std::make_unique<State>(trains, options)) {
    validate(options);
    State& s = *state_;
    const bool small = trains.num_spikes() < tuning::kSmallCofiringRecording;
    s.choice = choose_backend(options.backend,
                              small ? std::to_string(trains.num_spikes()) + " spikes, which the CPU counts before a GPU starts" : "");
    s.lags = detail::lay_out(options.lags, options.grid ? *options.grid : detail::time_grid(trains.times(), options.threads));
    if (s.lags.baseline_lags == 0 && options.test.chance == Chance::Baseline && options.test.q < 1) {
        throw UsageError("the co-firing baseline holds no lag of this recording's time grid (" + std::to_string(s.lags.grid) +
                         " ticks): widen it");
    }
    s.bins = detail::lay_out_bins(trains, options, s.note);
    for (int k = 0; k < s.lags.intervals; ++k) {
        if (s.lags.interval_lags[k] != 0) continue;
        const Interval& interval = options.lags.intervals[static_cast<std::size_t>(k)];
        s.note += (s.note.empty() ? "" : "; ") + std::string("interval (") + std::to_string(interval.lo) + ", " + std::to_string(interval.hi) +
                  "] ticks holds no lag of this recording's time grid (" + std::to_string(s.lags.grid) + " ticks): not tested";
    }
    s.table = detail::level_tables(s.lags, options.test, detail::kTableBaselines, options.threads);
    s.counter_progress = {options.progress, s.bins.windows == 1};
    if (options.test.surrogates) {
        s.surrogate_choice = s.choice;
        if (s.choice.backend == Backend::Cuda && options.test.surrogates->surrogate.kind == SurrogateKind::Shift) {
            s.surrogate_choice = {Backend::Cpu, "the surrogate edge test's shift surrogates are made on the CPU"};
            s.note += (s.note.empty() ? "" : "; ") + s.surrogate_choice.note;
        }
    }
}

CofiringWindows::~CofiringWindows() = default;

std::size_t CofiringWindows::size() const { return state_->bins.windows; }

void CofiringWindows::skip_to(std::size_t index) { state_->next = std::min(index, state_->bins.windows); }

const BackendChoice& CofiringWindows::backend() const { return state_->choice; }

const std::string& CofiringWindows::note() const { return state_->note; }

std::size_t CofiringWindows::gpu_count_bytes() const {
    const State& s = *state_;
    const std::size_t n = s.trains.num_neurons();
    const std::size_t cells = n * n * static_cast<std::size_t>(s.lags.slots);
    const std::size_t kept_bins = s.bins.windows > 1 ? s.bins.per_window : 1;  // as the GPU counter keeps them
    const std::size_t share = s.share_on_gpu ? cells * sizeof(unsigned long long) : 0;
    // The surrogate edge test's pass of surrogate spikes (the spikes by neuron it reads are
    // the recording's, one copy a device, as the recording's own copy).
    const std::size_t surrogates = s.options.test.surrogates && s.surrogate_choice.backend == Backend::Cuda ? tuning::kEdgeSurrogateBytes : 0;
    return cells * sizeof(unsigned long long) + share + kept_bins * cells * sizeof(std::uint32_t) + surrogates;
}

bool CofiringWindows::next(CofiringWindow& window) { return next(std::span(&window, 1)) == 1; }

std::size_t CofiringWindows::next(std::span<CofiringWindow> windows) {
    State& s = *state_;
    std::size_t made = 0;
    while (made < windows.size() && s.count_next(windows[made])) ++made;
    s.confirm(windows.first(made));
    if (made != 0 && s.next == s.bins.windows && s.options.progress != nullptr) s.options.progress->finish();
    return made;
}

bool CofiringWindows::keep_whole_recording() {
    State& s = *state_;
    if (s.next != 0 || s.cpu || s.gpu || s.bins.windows == 1) return false;
    if (s.choice.backend == Backend::Cuda) {
        s.keep_whole = s.share_on_gpu = true;  // on the device, beside the window (gpu_count_bytes)
    } else {
        s.keep_whole = detail::cpu_counter_bytes(s.trains.num_neurons(), s.lags, s.bins, true) <= host_memory_budget(s.options.memory_budget);
    }
    return s.keep_whole;
}

std::optional<WholeRecordingShare> CofiringWindows::whole_recording_share() {
    State& s = *state_;
    if (!s.share_on_gpu || s.cpu) return std::nullopt;
    if (!s.gpu) return WholeRecordingShare{};  // no window taken: nothing to add
    return s.gpu->whole_recording_share();
}

bool CofiringWindows::whole_recording(CofiringWindow& window) {
    State& s = *state_;
    if (!s.keep_whole) return false;
    if (s.cpu || s.whole_counts) return s.take_from_cpu() && s.decide_whole_of(s.whole_counts->counts.data(), window);
    const std::optional<WholeRecordingShare> share = whole_recording_share();
    return share && whole_recording_of(*share, window);
}

std::optional<WholeRecordingCounts> CofiringWindows::take_whole_recording_counts() {
    State& s = *state_;
    if (!s.take_from_cpu()) return std::nullopt;
    std::optional<WholeRecordingCounts> counts = std::move(s.whole_counts);
    s.whole_counts.reset();
    s.keep_whole = false;
    return counts;
}

bool CofiringWindows::whole_recording_from(const WholeRecordingCounts& counted, CofiringWindow& window) {
    State& s = *state_;
    const std::size_t n = s.trains.num_neurons();
    const std::vector<Interval>& lags = counted.lags;
    if (lags.empty() || counted.counts.size() != n * n * lags.size() || counted.spikes != s.trains.num_spikes() ||
        counted.span != TimeSpan{s.bins.origin, s.bins.end}) {
        return false;
    }
    for (std::size_t k = 0; k < lags.size(); ++k) {
        if (lags[k].lo < -1 || lags[k].lo >= lags[k].hi || (k > 0 && lags[k].lo < lags[k - 1].hi)) return false;
    }
    Progress* progress = s.options.progress;
    detail::CountedElsewhere elsewhere;
    elsewhere.counts = detail::project_counts(counted.counts, lags, s.lags, n, s.options.threads, elsewhere.slots);
    if (std::all_of(elsewhere.slots.begin(), elsewhere.slots.end(), [](bool held) { return held; })) {
        if (progress != nullptr) progress->check_cancelled();
        return s.decide_whole_of(elsewhere.counts.data(), window);
    }
    // The other slots counted over the whole recording, on top of those.
    detail::BinLayout whole = s.bins;
    whole.per_window = whole.bins;
    whole.windows = 1;
    const std::unique_ptr<detail::CofiringCounter> rest = detail::make_cpu_cofiring_counter(
        s.trains, s.lags, whole, s.options.threads, host_memory_budget(s.options.memory_budget), {progress, true}, false, &elsewhere);
    if (progress != nullptr) progress->begin("co-firing: spikes counted", s.trains.num_spikes());
    rest->move_to(0, whole.bins);
    if (progress != nullptr) progress->finish();
    return s.decide_whole(window, [&](const detail::CandidateRule& rule) { return std::optional(rest->candidates(rule)); });
}

bool CofiringWindows::whole_recording_of(const WholeRecordingShare& sum, CofiringWindow& window) {
    State& s = *state_;
    const std::size_t n = s.trains.num_neurons();
    if (sum.steps != s.bins.bins || sum.counts.size() != n * n * static_cast<std::size_t>(s.lags.slots)) return false;
    return s.decide_whole_of(sum.counts.data(), window);
}

void WholeRecordingShare::add(WholeRecordingShare other) {
    if (counts.empty()) {
        counts = std::move(other.counts);
    } else if (!other.counts.empty()) {
        if (other.counts.size() != counts.size()) throw Error("shares of the whole recording's co-firing counts of different sizes");
        std::transform(counts.begin(), counts.end(), other.counts.begin(), counts.begin(), std::plus<>());
    }
    steps += other.steps;
}

std::vector<std::pair<NeuronId, NeuronId>> joined_pairs(const CofiringWindow& window) {
    std::vector<std::pair<NeuronId, NeuronId>> pairs;
    pairs.reserve(window.edges.size());
    for (const CofiringEdge& e : window.edges) pairs.push_back(std::minmax(e.a, e.b));
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    return pairs;
}

CofiringWindow cofiring_whole_recording(const SpikeTrains& trains, CofiringOptions options, const WholeRecordingCounts* counted) {
    options.window = 0;
    options.step = 0;
    CofiringWindows windows(trains, options);
    CofiringWindow window;
    if (counted == nullptr || !windows.whole_recording_from(*counted, window)) windows.next(window);
    return window;
}

}  // namespace spikeminer::mining
