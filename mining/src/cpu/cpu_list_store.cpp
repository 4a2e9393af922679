// End lists in host memory (end_lists.hpp), prefixes spread over the threads. A prefix
// with many extensions reads, per entry, the stream's spikes in its widest interval once
// and hands each to the extensions it closes (as the GPU does); one with few merges its
// list with each new neuron's spikes instead. The entries come in end order, so the greedy
// counts them as they come; only the extensions kept are made again, into lists.
#include "cpu_counters.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/first_failure.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <limits>

namespace spikeminer::mining::detail {
namespace {

struct EndList {
    std::vector<Tick> ends;
    std::vector<Tick> starts;
};

// A prefix's end list, read in place.
struct ListView {
    std::span<const Tick> ends;
    std::span<const Tick> starts;
};

// The entries of (prefix + gap + spikes' neuron), in end order, to emit(end, start).
template <typename Emit>
void merge(const ListView& prefix, std::span<const Tick> spikes, const Interval& gap, Emit emit) {
    std::size_t p = 0;
    const std::size_t n = prefix.ends.size();
    for (std::size_t j = 0; j < n && p < spikes.size(); ++j) {
        p = first_after(spikes.data(), p, spikes.size(), prefix.ends[j] + gap.lo);
        const Tick last = last_taker(prefix.ends[j], j + 1 < n, j + 1 < n ? prefix.ends[j + 1] : 0, gap.lo, gap.hi);
        for (; p < spikes.size() && spikes[p] <= last; ++p) emit(spikes[p], prefix.starts[j]);
    }
}

class CpuListStore final : public ListStore {
public:
    CpuListStore(const SpikeTrains& trains, const NeuronTimes& times, unsigned threads, Progress* progress)
        : trains_(trains), times_(times), threads_(threads), progress_(progress) {}

    std::vector<std::uint64_t> extend(std::span<const Extension> extensions, std::uint64_t keep_at_least) override {
        Batch batch{extensions, keep_at_least, {}, {}, std::vector<std::uint64_t>(extensions.size(), 0),
                    std::vector<EndList>(extensions.size())};
        batch.order = prefix_order(extensions, batch.groups);
        const int workers = threads_ == 0 ? omp_get_max_threads() : static_cast<int>(threads_);
        share_out(batch.groups, 2 * static_cast<std::size_t>(workers));
        if (progress_ != nullptr) progress_->begin("counting", extensions.size());
        // Threads take runs of prefixes and walk them through the recording together,
        // block by block, so that the stream's spikes a block holds are read from cache
        // by every prefix of the run (each prefix alone would stream the whole recording).
        const std::size_t run_length = std::clamp<std::size_t>(batch.groups.size() / (8 * static_cast<std::size_t>(workers)), 1, 32);
        const std::size_t runs = (batch.groups.size() + run_length - 1) / run_length;
        // The first thread reports progress; every thread checks for Cancel between runs.
        // The first failure (Cancelled, out of memory, ...) stops every thread and is
        // rethrown after the parallel region (an exception must not leave it).
        std::atomic<std::uint64_t> done{0};
        FirstFailure failure;
#pragma omp parallel num_threads(workers)
        {
            RunScratch scratch;
#pragma omp for schedule(dynamic, 1)
            for (std::int64_t r = 0; r < static_cast<std::int64_t>(runs); ++r) {
                if (failure.failed()) continue;
                failure.run([&] {
                    if (progress_ != nullptr) progress_->check_cancelled();
                    const std::size_t first = static_cast<std::size_t>(r) * run_length;
                    const std::span<const PrefixGroup> run(batch.groups.data() + first,
                                                           std::min(run_length, batch.groups.size() - first));
                    extend_run(run, batch, scratch);
                    const std::size_t members = run.back().last - run.front().first;
                    const std::uint64_t finished = done.fetch_add(members, std::memory_order_relaxed) + members;
                    if (progress_ != nullptr && omp_get_thread_num() == 0) progress_->update(finished);
                });
            }
        }
        failure.rethrow_if_failed();
        if (progress_ != nullptr) progress_->finish();
        for (std::size_t i = 0; i < extensions.size(); ++i) {
            if (batch.counts[i] < keep_at_least) continue;
            bytes_ += bytes_of(batch.made[i]);
            lists_.push_back(std::move(batch.made[i]));
        }
        return std::move(batch.counts);
    }

    void retain(std::span<const std::uint32_t> ids) override {
        std::vector<EndList> kept;
        kept.reserve(ids.size());
        bytes_ = 0;
        for (const std::uint32_t id : ids) {
            bytes_ += bytes_of(lists_[id]);
            kept.push_back(std::move(lists_[id]));
        }
        lists_ = std::move(kept);
    }

    [[nodiscard]] std::size_t size() const override { return lists_.size(); }
    [[nodiscard]] std::uint64_t length(std::uint32_t id) const override { return lists_.at(id).ends.size(); }
    [[nodiscard]] std::size_t host_bytes() const override { return bytes_; }

    [[nodiscard]] std::vector<std::span<const Tick>> ends(std::span<const std::uint32_t> ids,
                                                         std::vector<std::vector<Tick>>& /*scratch*/) const override {
        std::vector<std::span<const Tick>> views;
        views.reserve(ids.size());
        for (const std::uint32_t id : ids) views.emplace_back(lists_.at(id).ends);
        return views;
    }

private:
    // One extend() call: its extensions grouped by prefix, and what it makes (threads
    // write disjoint elements of counts and made).
    struct Batch {
        std::span<const Extension> extensions;
        std::uint64_t keep_at_least;
        std::vector<PrefixGroup> groups;
        std::vector<std::uint32_t> order;
        std::vector<std::uint64_t> counts;
        std::vector<EndList> made;
    };

    // A thread's buffers, reused from run to run.
    struct RunScratch {
        std::vector<GreedyCount> greedy;
        std::vector<std::uint32_t> kept;  // extension indices, grouped by prefix as in `order`
        std::vector<PrefixGroup> kept_groups;
    };

    // With fewer prefixes than `pieces`, splits each prefix's extensions into about
    // pieces / prefixes groups, so that every thread has work (each piece reads the
    // stream on its own).
    static void share_out(std::vector<PrefixGroup>& groups, std::size_t pieces) {
        if (groups.empty() || groups.size() >= pieces) return;
        const std::size_t per_group = (pieces + groups.size() - 1) / groups.size();
        std::vector<PrefixGroup> shared;
        for (const PrefixGroup& group : groups) {
            const std::size_t size = (group.last - group.first + per_group - 1) / per_group;
            for (std::size_t first = group.first; first < group.last; first += size) {
                shared.push_back(PrefixGroup{group.parent, first, std::min(group.last, first + size)});
            }
        }
        groups = std::move(shared);
    }

    // Counts every extension of a run of prefixes, then makes the lists of those kept.
    void extend_run(std::span<const PrefixGroup> run, Batch& batch, RunScratch& scratch) const {
        const std::span<const std::uint32_t> members(batch.order.data() + run.front().first,
                                                     run.back().last - run.front().first);
        scratch.greedy.assign(members.size(), GreedyCount{});
        scan_run(run, batch.order, batch.extensions, [&](std::uint32_t at, Tick end, Tick start) {
            scratch.greedy[at - run.front().first].offer(end, start);
        });
        scratch.kept.clear();
        scratch.kept_groups.clear();
        for (std::size_t k = 0; k < members.size(); ++k) {
            batch.counts[members[k]] = scratch.greedy[k].count;
            if (scratch.greedy[k].count < batch.keep_at_least) continue;
            const std::uint32_t parent = batch.extensions[members[k]].parent;
            if (scratch.kept_groups.empty() || scratch.kept_groups.back().parent != parent) {
                scratch.kept_groups.push_back(PrefixGroup{parent, scratch.kept.size(), scratch.kept.size()});
            }
            scratch.kept.push_back(members[k]);
            scratch.kept_groups.back().last = scratch.kept.size();
        }
        scan_run(scratch.kept_groups, scratch.kept, batch.extensions, [&](std::uint32_t at, Tick end, Tick start) {
            batch.made[scratch.kept[at]].ends.push_back(end);
            batch.made[scratch.kept[at]].starts.push_back(start);
        });
    }

    [[nodiscard]] ListView view_of(std::uint32_t parent) const {
        if ((parent & Extension::kSeed) != 0) {
            const std::span<const Tick> spikes = times_.of(parent & ~Extension::kSeed);
            return {spikes, spikes};
        }
        return {lists_[parent].ends, lists_[parent].starts};
    }

    // Spikes of the whole recording expected within `width` ticks.
    [[nodiscard]] double spikes_within(Tick width) const {
        const double span = std::max<double>(1.0, static_cast<double>(trains_.span().length()));
        return static_cast<double>(trains_.num_spikes()) * static_cast<double>(width) / span;
    }

    // One prefix's extensions through the stream's window, resumable: advance() takes the
    // prefix's entries whose window opens before a time limit.
    struct WindowScan {
        ListView prefix;
        std::uint32_t member_first = 0;        // the extensions are order[member_first + k]
        std::vector<Interval> gaps;            // of extension k
        std::vector<std::uint32_t> by_neuron;  // extensions [by_neuron[n], by_neuron[n + 1]) add neuron n
        Tick min_lo = 0;
        Tick max_hi = 0;
        std::size_t j = 0;      // next entry
        std::size_t first = 0;  // stream cursor

        template <typename Emit>
        void advance(Tick limit, std::span<const Tick> stream_times, std::span<const NeuronId> stream_neurons, Emit& emit) {
            const std::size_t n = prefix.ends.size();
            for (; j < n && prefix.ends[j] + min_lo < limit; ++j) {
                const Tick t = prefix.ends[j];
                const bool has_next = j + 1 < n;
                const Tick next = has_next ? prefix.ends[j + 1] : 0;
                first = first_after(stream_times.data(), first, stream_times.size(), t + min_lo);
                for (std::size_t q = first; q < stream_times.size() && stream_times[q] <= t + max_hi; ++q) {
                    const NeuronId neuron = stream_neurons[q];
                    for (std::uint32_t k = by_neuron[neuron]; k < by_neuron[neuron + 1]; ++k) {
                        if (takes_from(stream_times[q], t, has_next, next, gaps[k].lo, gaps[k].hi)) {
                            emit(member_first + k, stream_times[q], prefix.starts[j]);
                        }
                    }
                }
            }
        }
    };

    // Emits the entries of every extension of the groups (positions in `order`, which
    // holds extension indices; each group one prefix's, sorted by neuron): emit(position,
    // end, start), each extension's
    // entries in end order. A prefix with many extensions for the spikes within its widest
    // interval goes through the stream's window, in blocks of the recording shared by the
    // run; one with few merges its list with each new neuron's spikes.
    template <typename Emit>
    void scan_run(std::span<const PrefixGroup> run, std::span<const std::uint32_t> order,
                  std::span<const Extension> extensions, Emit emit) const {
        std::vector<WindowScan> scans;
        for (const PrefixGroup& group : run) {
            const ListView prefix = view_of(group.parent);
            Tick min_lo = extensions[order[group.first]].gap.lo;
            Tick max_hi = extensions[order[group.first]].gap.hi;
            for (std::size_t at = group.first; at < group.last; ++at) {
                min_lo = std::min(min_lo, extensions[order[at]].gap.lo);
                max_hi = std::max(max_hi, extensions[order[at]].gap.hi);
            }
            // A merge per extension costs a search per entry and extension; the window, a
            // look at each spike within the widest interval per entry.
            if (2.0 * static_cast<double>(group.last - group.first) < spikes_within(max_hi - min_lo)) {
                for (std::size_t at = group.first; at < group.last; ++at) {
                    if (progress_ != nullptr) progress_->check_cancelled();
                    const Extension& x = extensions[order[at]];
                    const auto position = static_cast<std::uint32_t>(at);
                    merge(prefix, times_.of(x.neuron), x.gap, [&](Tick end, Tick start) { emit(position, end, start); });
                }
                continue;
            }
            WindowScan& scan = scans.emplace_back();
            scan.prefix = prefix;
            scan.member_first = static_cast<std::uint32_t>(group.first);
            scan.min_lo = min_lo;
            scan.max_hi = max_hi;
            scan.by_neuron.assign(trains_.num_neurons() + std::size_t{1}, 0);
            for (std::size_t at = group.first; at < group.last; ++at) {
                scan.gaps.push_back(extensions[order[at]].gap);
                ++scan.by_neuron[extensions[order[at]].neuron + 1];
            }
            for (std::size_t n = 1; n < scan.by_neuron.size(); ++n) scan.by_neuron[n] += scan.by_neuron[n - 1];
        }
        if (scans.empty()) return;
        const std::span<const Tick> stream_times = trains_.times();
        const std::span<const NeuronId> stream_neurons = trains_.neurons();
        for (std::size_t block = kBlockSpikes; ; block += kBlockSpikes) {
            // A run walks the whole recording: Cancel is honoured block by block.
            if (progress_ != nullptr) progress_->check_cancelled();
            const bool last = block >= stream_times.size();
            const Tick limit = last ? std::numeric_limits<Tick>::max() : stream_times[block];
            for (WindowScan& scan : scans) scan.advance(limit, stream_times, stream_neurons, emit);
            if (last) break;
        }
    }

    // Spikes of the stream a block of a run holds (96 KiB of times and neurons).
    static constexpr std::size_t kBlockSpikes = 8192;

    const SpikeTrains& trains_;
    const NeuronTimes& times_;
    unsigned threads_;
    Progress* progress_;
    static std::size_t bytes_of(const EndList& list) { return sizeof(EndList) + (list.ends.capacity() + list.starts.capacity()) * sizeof(Tick); }

    std::vector<EndList> lists_;
    std::size_t bytes_ = 0;  // of lists_
};

}  // namespace

std::unique_ptr<ListStore> make_cpu_list_store(const SpikeTrains& trains, const NeuronTimes& times, unsigned threads,
                                               Progress* progress) {
    return std::make_unique<CpuListStore>(trains, times, threads, progress);
}

}  // namespace spikeminer::mining::detail
