// The CPU co-firing counter. Each spike, as the end of occurrences, looks back over the
// spikes within the counted lags (two cursors per run of adjacent slots, moving forward
// with it) and adds one to its row: (its neuron, the earlier spike's neuron, the lag's
// slot). The threads take groups of end neurons, so each row has one writer and the rows
// being written stay in cache. A slot whose lags hold many spikes against the neurons
// there are is counted densely instead: its start spikes are kept per neuron as the end
// spikes walk forward (each spike enters and leaves once), and each end spike adds that
// whole vector to its row, a vector add in place of hundreds of scattered increments.
#include "../cofiring_counter.hpp"
#include "../tuning.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/first_failure.hpp"
#include "spikeminer/core/uninitialized.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <limits>
#include <optional>

namespace spikeminer::mining::detail {
namespace {

using tuning::kDenseSlot;
using tuning::kGroupsPerThread;
using tuning::kRowsCache;

// Neurons a side of the tiles of pairs the candidates are read in.
constexpr std::size_t kTile = 64;

// row[k] += add[k] for k < n, in the widest vectors the processor has (x86-64: one copy
// for each vector width, chosen when the program loads).
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
void add_row(std::uint32_t* __restrict row, const std::uint32_t* __restrict add, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) row[k] += add[k];
}

class CpuCofiringCounter final : public CofiringCounter {
public:
    CpuCofiringCounter(const SpikeTrains& trains, const LagLayout& lags, const BinLayout& bins, unsigned threads, std::size_t budget,
                       CounterProgress progress, bool whole, CountedElsewhere* elsewhere)
        : trains_(trains), lags_(lags), bins_(bins),
          skipped_(elsewhere != nullptr ? elsewhere->slots : std::vector<bool>{}), runs_(look_backs(lags, skipped_)), progress_(progress),
          threads_(threads != 0 ? threads : static_cast<unsigned>(omp_get_max_threads())),
          cells_(trains.num_neurons() * trains.num_neurons() * static_cast<std::size_t>(lags.slots)) {
        whole = whole && bins_.windows > 1;  // one window: it is the whole recording
        check_memory(cpu_counter_bytes(trains.num_neurons(), lags, bins, whole), trains.num_neurons(), bins_.per_window, budget);
        // Bins are kept (for their subtraction later) only when windows slide.
        const std::size_t kept = bins_.windows > 1 ? bins_.per_window : 0;
        if (elsewhere != nullptr) {
            if (bins_.windows != 1 || elsewhere->counts.size() != cells_) throw Error("counts made elsewhere that are not one window's");
            window_ = std::move(elsewhere->counts);
        } else {
            window_.assign(cells_, 0);
        }
        if (whole) total_.assign(cells_, 0);
        ring_.resize(kept);
        for (auto& slot : ring_) slot.assign(cells_, 0);
        if (kept != 0) fresh_.assign(cells_, 0);
    }

    // Every window holds per_window bins (lay_out_bins), so each bin that leaves gives its
    // ring slot to one that enters, which takes it away there (count_kept).
    void move_to(std::size_t first, std::size_t last) override {
        for (std::size_t b = first; b < last; ++b) {
            if (b >= first_bin_ && b < last_bin_) continue;
            if (ring_.empty()) count_bin(b); else count_kept(b);
        }
        first_bin_ = first;
        last_bin_ = last;
        // The whole recording's sum takes windows that follow the bins summed so far without
        // overlap (every per_window-th from the first), and what is left at the end.
        if (!total_.empty() && first == summed_) {
            parallel_cells([&](std::size_t c) { total_[c] += window_[c]; });
            summed_ = last;
        }
    }

    std::vector<CofiringCandidate> candidates(const CandidateRule& rule) override { return candidates_of_counts(window_.data(), trains_.num_neurons(), lags_.slots, rule, threads_); }

    std::optional<WholeRecordingCounts> take_whole_recording() override {
        if (total_.empty() || last_bin_ != bins_.bins || summed_ < first_bin_) return std::nullopt;
        for (std::size_t b = summed_; b < last_bin_; ++b) {
            const std::uint32_t* kept = ring_[b % bins_.per_window].data();
            parallel_cells([&](std::size_t c) { total_[c] += kept[c]; });
        }
        summed_ = last_bin_;
        return WholeRecordingCounts{slot_ranges(lags_), std::move(total_), {bins_.origin, bins_.end}, trains_.num_spikes()};
    }

private:
    template <typename F>
    void parallel_cells(F f) {
#pragma omp parallel for num_threads(threads_) schedule(static)
        for (std::size_t c = 0; c < cells_; ++c) f(c);
    }

    // Counts bin b straight into the window (one window, the whole recording).
    void count_bin(std::size_t b) {
        const auto pieces = bin_pieces(trains_.times(), bins_.bin(b), reach(), false, std::numeric_limits<std::size_t>::max(), threads_);
        UninitializedVector<std::uint32_t> counts(cells_, 0);
        for (const auto& [first, last] : pieces) {
            count_ends(first, last, counts.data());
            parallel_cells([&](std::size_t c) {
                window_[c] += counts[c];
                counts[c] = 0;
            });
        }
    }

    // Counts bin b (windows that slide) and keeps it in its ring slot for its subtraction
    // later. The bin it replaces there (b - per_window when the windows move a step; none
    // at the first window) leaves the window in the same pass over the counts as b enters.
    void count_kept(std::size_t b) {
        const auto pieces = bin_pieces(trains_.times(), bins_.bin(b), reach(), true, std::numeric_limits<std::size_t>::max(), threads_);
        for (const auto& [first, last] : pieces) count_ends(first, last, fresh_.data());
        const std::size_t slot = b % bins_.per_window;
        std::uint32_t* entering = fresh_.data();
        std::uint32_t* leaving = ring_[slot].data();
        if (last_bin_ == first_bin_) {  // the first window: the slot holds no bin yet
            parallel_cells([&](std::size_t c) { window_[c] += entering[c]; });
        } else {
            parallel_cells([&](std::size_t c) {
                window_[c] += entering[c];
                window_[c] -= leaving[c];
                leaving[c] = 0;
            });
        }
        ring_[slot].swap(fresh_);  // the emptied counts are the next bin's
    }

    // The longest lag counted (none: 0).
    [[nodiscard]] Tick reach() const { return runs_.count == 0 ? 0 : runs_.runs[runs_.count - 1].hi; }

    // Adds the occurrences ending at spikes [first, last) to `counts`. The end neurons go in
    // groups whose rows fit in a core's cache together; each group passes over the piece's
    // spikes and takes its own (a pass costs little: the spikes one end looks back over are
    // mostly those the previous end of its group looked back over).
    void count_ends(std::size_t first, std::size_t last, std::uint32_t* counts) {
        if (first == last) return;
        const PieceLookBacks looks = piece_look_backs(first, last);
        const std::size_t n = trains_.num_neurons();
        // A group's rows: its counts, and those of its dense slots apart (contiguous, to add).
        const std::size_t row_bytes = n * (static_cast<std::size_t>(lags_.slots) + looks.dense) * sizeof(std::uint32_t);
        const std::size_t balanced = (n + kGroupsPerThread * threads_ - 1) / (kGroupsPerThread * threads_);
        const std::size_t group = std::max<std::size_t>(1, std::min(kRowsCache / row_bytes, balanced));
        const auto groups = static_cast<std::ptrdiff_t>((n + group - 1) / group);
        // Per thread, for each dense slot: the start spikes within its lags, and the group's rows.
        const std::size_t scratch = looks.dense * (1 + group) * n;
        if (scratch_.size() < threads_) scratch_.resize(threads_);
        for (auto& mine : scratch_) {
            if (mine.size() < scratch) mine.resize(scratch);
        }
        FirstFailure failure;
        std::atomic<std::size_t> done{0};
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads_)
        for (std::ptrdiff_t g = 0; g < groups; ++g) {
            if (failure.failed()) continue;
            failure.run([&] {
                const auto low = static_cast<NeuronId>(static_cast<std::size_t>(g) * group);
                const auto high = static_cast<NeuronId>(std::min(n, static_cast<std::size_t>(g + 1) * group));
                count_group(first, last, low, high, looks, counts, scratch_[static_cast<std::size_t>(omp_get_thread_num())].data());
                const std::size_t finished = ++done;
                if (progress_.progress != nullptr && omp_get_thread_num() == 0) {
                    report(first + (last - first) * finished / static_cast<std::size_t>(groups));
                }
            });
        }
        failure.rethrow_if_failed();
        if (progress_.progress != nullptr) progress_.progress->check_cancelled();
    }

    // The look-backs of a piece: those of the layout, but a slot whose lags hold, on the
    // piece's mean rate, at least a kDenseSlot-th as many spikes as there are neurons is
    // its own look-back, counted densely (from lag 1 on: lag 0 takes no vector).
    struct PieceLookBacks {
        LookBacks runs;
        bool dense_run[kMaxSlots] = {};
        std::size_t dense = 0;  // how many
    };

    [[nodiscard]] PieceLookBacks piece_look_backs(std::size_t first, std::size_t last) const {
        const auto times = trains_.times();
        const double rate = static_cast<double>(last - first) / static_cast<double>(times[last - 1] - times[first] + 1);
        std::vector<bool> dense(static_cast<std::size_t>(lags_.slots), false);
        for (int s = 0; s < lags_.slots; ++s) {
            dense[static_cast<std::size_t>(s)] = lags_.lo[s] >= 0 && rate * static_cast<double>(lags_.hi[s] - lags_.lo[s]) * kDenseSlot >=
                                                                         static_cast<double>(trains_.num_neurons());
        }
        PieceLookBacks out{look_backs(lags_, skipped_, dense)};
        for (int r = 0; r < out.runs.count; ++r) {
            out.dense_run[r] = dense[static_cast<std::size_t>(out.runs.runs[r].last_slot)];
            out.dense += out.dense_run[r] ? 1 : 0;
        }
        return out;
    }

    // The occurrences ending at the spikes of neurons [low, high) among [first, last).
    // `scratch`: room for each dense look-back's n counts, then the group's rows of n.
    void count_group(std::size_t first, std::size_t last, NeuronId low, NeuronId high, const PieceLookBacks& looks,
                     std::uint32_t* counts, std::uint32_t* scratch) const {
        const auto times = trains_.times();
        const auto neurons = trains_.neurons();
        const std::size_t n = trains_.num_neurons();
        const auto slots = static_cast<std::size_t>(lags_.slots);
        const LookBacks& runs = looks.runs;
        const std::size_t rows = static_cast<std::size_t>(high - low) * n;
        // Per look-back: the first spike at or after t - hi, and at or after t - lo. A dense
        // one starts empty, both at t - hi, and takes its spikes in as t moves.
        std::size_t from[kMaxSlots];
        std::size_t to[kMaxSlots];
        std::uint32_t* within[kMaxSlots];
        std::uint32_t* dense_rows[kMaxSlots];
        std::uint32_t* next = scratch;
        for (int r = 0; r < runs.count; ++r) {
            from[r] = first_at_or_after(times, times[first] - runs.runs[r].hi);
            to[r] = looks.dense_run[r] ? from[r] : first_at_or_after(times, times[first] - runs.runs[r].lo);
            if (!looks.dense_run[r]) continue;
            within[r] = next;
            dense_rows[r] = next + n;
            std::fill(next, next + n + rows, 0U);
            next += n + rows;
        }
        for (std::size_t i = first; i < last; ++i) {
            // A group passes over the whole piece: Cancel is honoured every 64 Ki spikes.
            if ((i & 0xFFFF) == 0 && progress_.progress != nullptr) progress_.progress->check_cancelled();
            const NeuronId end = neurons[i];
            if (end < low || end >= high) continue;
            const Tick t = times[i];
            std::uint32_t* row = counts + static_cast<std::size_t>(end) * n * slots;
            for (int r = 0; r < runs.count; ++r) {
                const LookBack& run = runs.runs[r];
                if (looks.dense_run[r]) {
                    std::uint32_t* in = within[r];
                    for (; to[r] < i && times[to[r]] < t - run.lo; ++to[r]) ++in[neurons[to[r]]];
                    for (; times[from[r]] < t - run.hi; ++from[r]) --in[neurons[from[r]]];
                    add_row(dense_rows[r] + static_cast<std::size_t>(end - low) * n, in, n);
                    dense_rows[r][static_cast<std::size_t>(end - low) * n + end] -= in[end];  // no pairs of a neuron with itself
                    continue;
                }
                while (times[from[r]] < t - run.hi) ++from[r];
                while (to[r] < times.size() && times[to[r]] < t - run.lo) ++to[r];
                int s = run.last_slot;
                for (std::size_t j = from[r], stop = std::min(to[r], i); j < stop; ++j) {
                    const NeuronId start = neurons[j];
                    if (start == end) continue;
                    const Tick lag = t - times[j];
                    while (lag <= lags_.lo[s]) --s;
                    ++row[static_cast<std::size_t>(start) * slots + static_cast<std::size_t>(s)];
                }
            }
        }
        // The dense slots' rows into the counts.
        for (int r = 0; r < runs.count; ++r) {
            if (!looks.dense_run[r]) continue;
            const auto s = static_cast<std::size_t>(runs.runs[r].last_slot);
            for (NeuronId end = low; end < high; ++end) {
                const std::uint32_t* dense = dense_rows[r] + static_cast<std::size_t>(end - low) * n;
                std::uint32_t* row = counts + static_cast<std::size_t>(end) * n * slots + s;
                for (std::size_t start = 0; start < n; ++start) row[start * slots] += dense[start];
            }
        }
    }

    void report(std::size_t done) {
        if (progress_.report_spikes) {
            progress_.progress->update(done);
        } else {
            progress_.progress->check_cancelled();
        }
    }

    const SpikeTrains& trains_;
    LagLayout lags_;
    BinLayout bins_;
    std::vector<bool> skipped_;  // slots counted elsewhere
    LookBacks runs_;
    CounterProgress progress_;
    unsigned threads_;
    std::size_t cells_;
    // The counts on huge pages where the system gives them: the candidates read them down
    // columns of rows, a page apart.
    UninitializedVector<std::uint64_t> window_;
    UninitializedVector<std::uint64_t> total_;  // the whole recording's counts, when kept: the sum of bins [0, summed_)
    std::size_t summed_ = 0;
    std::vector<UninitializedVector<std::uint32_t>> ring_;  // windows that slide: bin b's counts at slot b mod per_window
    UninitializedVector<std::uint32_t> fresh_;             // zero: where the next bin is counted
    std::vector<UninitializedVector<std::uint32_t>> scratch_;  // per thread: the dense slots' counts (count_group)
    std::size_t first_bin_ = 0;  // the current window's bins
    std::size_t last_bin_ = 0;
};

}  // namespace

std::vector<CofiringCandidate> candidates_of_counts(const std::uint64_t* counts, std::size_t n, int slot_count, const CandidateRule& rule,
                                                    unsigned threads) {
    const auto slots = static_cast<std::size_t>(slot_count);
    std::vector<CofiringCandidate> found;
    // Pairs in tiles of kTile x kTile neurons: the counts of y then x, read down a column
    // of rows, stay in cache from one x to the next.
    const std::size_t tiles = (n + kTile - 1) / kTile;
#pragma omp parallel num_threads(threads != 0 ? threads : static_cast<unsigned>(omp_get_max_threads()))
    {
        std::vector<CofiringCandidate> mine;
#pragma omp for schedule(dynamic, 1) nowait
        for (std::size_t tx = 0; tx < tiles; ++tx) {
            for (std::size_t ty = tx; ty < tiles; ++ty) {
                for (std::size_t x = tx * kTile; x < std::min(n, (tx + 1) * kTile); ++x) {
                    if (rule.window_spikes[x] == 0) continue;
                    for (std::size_t y = std::max(x + 1, ty * kTile); y < std::min(n, (ty + 1) * kTile); ++y) {
                        if (rule.window_spikes[y] == 0) continue;
                        const std::uint64_t* yx = counts + (y * n + x) * slots;
                        const std::uint64_t* xy = counts + (x * n + y) * slots;
                        if (!may_hold_candidate(rule, yx, xy)) continue;
                        for_each_candidate(rule, static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y), yx, xy, rule.window_spikes[x],
                                           rule.window_spikes[y], [&mine](const CofiringCandidate& c) { mine.push_back(c); });
                    }
                }
            }
        }
#pragma omp critical
        found.insert(found.end(), mine.begin(), mine.end());
    }
    unsigned long long at_level[kLevels] = {};
    for (const CofiringCandidate& c : found) ++at_level[c.level];
    const int level = deepest_needed_level(at_level, rule);
    std::erase_if(found, [level](const CofiringCandidate& c) { return c.level < level; });
    return found;
}

std::size_t cpu_counter_bytes(std::size_t neurons, const LagLayout& lags, const BinLayout& bins, bool whole) {
    const std::size_t cells = neurons * neurons * static_cast<std::size_t>(lags.slots);
    const std::size_t kept = bins.windows > 1 ? bins.per_window : 0;  // and one more where the next is counted
    return cells * ((whole && bins.windows > 1 ? 2 : 1) * sizeof(std::uint64_t) + (kept + 1) * sizeof(std::uint32_t));
}

std::unique_ptr<CofiringCounter> make_cpu_cofiring_counter(const SpikeTrains& trains, const LagLayout& lags, const BinLayout& bins,
                                                           unsigned threads, std::size_t budget, CounterProgress progress, bool whole,
                                                           CountedElsewhere* elsewhere) {
    return std::make_unique<CpuCofiringCounter>(trains, lags, bins, threads, budget, progress, whole, elsewhere);
}

}  // namespace spikeminer::mining::detail
