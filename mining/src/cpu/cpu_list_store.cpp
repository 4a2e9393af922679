// End lists in host memory (end_lists.hpp), prefixes spread over the threads. A prefix
// with many extensions reads, per entry, the stream's spikes in its widest interval once
// and hands each to the extensions it closes (as the GPU does); one with few merges its
// list with each new neuron's spikes instead. The entries come in end order, so the greedy
// counts them as they come; only the extensions kept are made again, into lists.
#include "cpu_counters.hpp"

#include "spikeminer/core/error.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <exception>

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
    for (std::size_t j = 0; j < prefix.ends.size() && p < spikes.size(); ++j) {
        p = first_after(spikes.data(), p, spikes.size(), prefix.ends[j] + gap.lo);
        const Tick last = last_taker(prefix.ends.data(), j, prefix.ends.size(), gap);
        for (; p < spikes.size() && spikes[p] <= last; ++p) emit(spikes[p], prefix.starts[j]);
    }
}

class CpuListStore final : public ListStore {
public:
    CpuListStore(const SpikeTrains& trains, const NeuronTimes& times, unsigned threads, Progress* progress)
        : trains_(trains), times_(times), threads_(threads), progress_(progress) {}

    std::vector<std::uint64_t> extend(std::span<const Extension> extensions, std::uint64_t keep_at_least) override {
        std::vector<std::uint64_t> counts(extensions.size(), 0);
        std::vector<EndList> made(extensions.size());
        std::vector<PrefixGroup> groups;
        const std::vector<std::uint32_t> order = prefix_order(extensions, groups);
        const int workers = threads_ == 0 ? omp_get_max_threads() : static_cast<int>(threads_);
        if (progress_ != nullptr) progress_->begin("counting", extensions.size());
        // The first thread reports progress; a Cancel it meets stops every thread.
        std::atomic<std::uint64_t> done{0};
        std::atomic<bool> stop{false};
        std::exception_ptr cancelled;
#pragma omp parallel num_threads(workers)
        {
            std::vector<std::uint32_t> by_neuron(trains_.num_neurons() + std::size_t{1}, 0);
            std::vector<GreedyCount> greedy;
            std::vector<std::uint32_t> kept;
#pragma omp for schedule(dynamic, 1)
            for (std::int64_t g = 0; g < static_cast<std::int64_t>(groups.size()); ++g) {
                if (stop.load(std::memory_order_relaxed)) continue;
                const PrefixGroup& group = groups[static_cast<std::size_t>(g)];
                const ListView prefix = view_of(group.parent);
                const std::span<const std::uint32_t> members(order.data() + group.first, group.last - group.first);
                greedy.assign(members.size(), GreedyCount{});
                scan_group(prefix, members, extensions, by_neuron,
                           [&](std::size_t k, Tick end, Tick start) { greedy[k].offer(end, start); });
                kept.clear();
                for (std::size_t k = 0; k < members.size(); ++k) {
                    counts[members[k]] = greedy[k].count;
                    if (greedy[k].count >= keep_at_least) kept.push_back(members[k]);
                }
                scan_group(prefix, kept, extensions, by_neuron, [&](std::size_t k, Tick end, Tick start) {
                    made[kept[k]].ends.push_back(end);
                    made[kept[k]].starts.push_back(start);
                });
                const std::uint64_t finished = done.fetch_add(members.size(), std::memory_order_relaxed) + members.size();
                if (progress_ != nullptr && omp_get_thread_num() == 0) {
                    try {
                        progress_->update(finished);
                    } catch (const Cancelled&) {
                        cancelled = std::current_exception();
                        stop = true;
                    }
                }
            }
        }
        if (cancelled) std::rethrow_exception(cancelled);
        if (progress_ != nullptr) progress_->finish();
        for (std::size_t i = 0; i < extensions.size(); ++i) {
            if (counts[i] >= keep_at_least) lists_.push_back(std::move(made[i]));
        }
        return counts;
    }

    void retain(std::span<const std::uint32_t> ids) override {
        std::vector<EndList> kept;
        kept.reserve(ids.size());
        for (const std::uint32_t id : ids) kept.push_back(std::move(lists_[id]));
        lists_ = std::move(kept);
    }

    [[nodiscard]] std::size_t size() const override { return lists_.size(); }

private:
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

    // Emits the entries of one prefix's extensions `members` (sorted by neuron): emit(k,
    // end, start) for members[k], each member's entries in end order.
    template <typename Emit>
    void scan_group(const ListView& prefix, std::span<const std::uint32_t> members, std::span<const Extension> extensions,
                    std::vector<std::uint32_t>& by_neuron, Emit emit) const {
        if (members.empty()) return;
        Tick min_lo = extensions[members.front()].gap.lo;
        Tick max_hi = extensions[members.front()].gap.hi;
        for (const std::uint32_t i : members) {
            min_lo = std::min(min_lo, extensions[i].gap.lo);
            max_hi = std::max(max_hi, extensions[i].gap.hi);
        }
        // A merge per extension costs a search per entry and extension; the window, a
        // look at each spike within the widest interval per entry.
        if (2.0 * static_cast<double>(members.size()) < spikes_within(max_hi - min_lo)) {
            for (std::size_t k = 0; k < members.size(); ++k) {
                const Extension& x = extensions[members[k]];
                merge(prefix, times_.of(x.neuron), x.gap, [&](Tick end, Tick start) { emit(k, end, start); });
            }
            return;
        }
        // members[by_neuron[n] .. by_neuron[n + 1]) extend by neuron n.
        std::fill(by_neuron.begin(), by_neuron.end(), 0);
        for (const std::uint32_t i : members) ++by_neuron[extensions[i].neuron + 1];
        for (std::size_t n = 1; n < by_neuron.size(); ++n) by_neuron[n] += by_neuron[n - 1];
        const std::span<const Tick> stream_times = trains_.times();
        const std::span<const NeuronId> stream_neurons = trains_.neurons();
        const std::size_t n = prefix.ends.size();
        std::size_t first = 0;
        for (std::size_t j = 0; j < n; ++j) {
            const Tick t = prefix.ends[j];
            const bool has_next = j + 1 < n;
            const Tick next = has_next ? prefix.ends[j + 1] : 0;
            first = first_after(stream_times.data(), first, stream_times.size(), t + min_lo);
            for (std::size_t q = first; q < stream_times.size() && stream_times[q] <= t + max_hi; ++q) {
                const NeuronId neuron = stream_neurons[q];
                for (std::uint32_t k = by_neuron[neuron]; k < by_neuron[neuron + 1]; ++k) {
                    const Interval& gap = extensions[members[k]].gap;
                    if (takes_from(stream_times[q], t, has_next, next, gap.lo, gap.hi)) emit(k, stream_times[q], prefix.starts[j]);
                }
            }
        }
    }

    const SpikeTrains& trains_;
    const NeuronTimes& times_;
    unsigned threads_;
    Progress* progress_;
    std::vector<EndList> lists_;
};

}  // namespace

std::unique_ptr<ListStore> make_cpu_list_store(const SpikeTrains& trains, const NeuronTimes& times, unsigned threads,
                                               Progress* progress) {
    return std::make_unique<CpuListStore>(trains, times, threads, progress);
}

}  // namespace spikeminer::mining::detail
