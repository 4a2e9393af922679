// End lists in host memory: each extension merges its prefix's list with the spikes of
// its new neuron (end_lists.hpp), extensions spread over the threads.
#include "cpu_counters.hpp"

#include "spikeminer/core/error.hpp"

#include <omp.h>

#include <atomic>
#include <exception>

namespace spikeminer::mining::detail {
namespace {

struct EndList {
    std::vector<Tick> ends;
    std::vector<Tick> starts;
};

// The list of (prefix + gap + spikes' neuron) from the prefix's list.
void extend_list(std::span<const Tick> ends, std::span<const Tick> starts, std::span<const Tick> spikes,
                 const Interval& gap, EndList& out) {
    std::size_t p = 0;
    for (std::size_t j = 0; j < ends.size() && p < spikes.size(); ++j) {
        p = first_after(spikes.data(), p, spikes.size(), ends[j] + gap.lo);
        const Tick last = last_taker(ends.data(), j, ends.size(), gap);
        for (; p < spikes.size() && spikes[p] <= last; ++p) {
            out.ends.push_back(spikes[p]);
            out.starts.push_back(starts[j]);
        }
    }
}

class CpuListStore final : public ListStore {
public:
    CpuListStore(const NeuronTimes& times, unsigned threads, Progress* progress)
        : times_(times), threads_(threads), progress_(progress) {}

    std::vector<std::uint64_t> extend(std::span<const Extension> extensions, std::uint64_t keep_at_least) override {
        std::vector<std::uint64_t> counts(extensions.size(), 0);
        std::vector<EndList> made(extensions.size());
        const int workers = threads_ == 0 ? omp_get_max_threads() : static_cast<int>(threads_);
        if (progress_ != nullptr) progress_->begin("counting", extensions.size());
        // The first thread reports progress; a Cancel it meets stops every thread.
        std::atomic<std::uint64_t> done{0};
        std::atomic<bool> stop{false};
        std::exception_ptr cancelled;
#pragma omp parallel for schedule(dynamic, 4) num_threads(workers)
        for (std::int64_t i = 0; i < static_cast<std::int64_t>(extensions.size()); ++i) {
            if (stop.load(std::memory_order_relaxed)) continue;
            const Extension& x = extensions[static_cast<std::size_t>(i)];
            EndList& list = made[static_cast<std::size_t>(i)];
            if (x.from_seed()) {
                const std::span<const Tick> spikes = times_.of(x.seed_neuron());
                extend_list(spikes, spikes, times_.of(x.neuron), x.gap, list);
            } else {
                const EndList& parent = lists_[x.parent];
                extend_list(parent.ends, parent.starts, times_.of(x.neuron), x.gap, list);
            }
            counts[static_cast<std::size_t>(i)] = greedy_count_of(list.ends.data(), list.starts.data(), list.ends.size());
            if (counts[static_cast<std::size_t>(i)] < keep_at_least) list = EndList{};
            const std::uint64_t finished = done.fetch_add(1, std::memory_order_relaxed) + 1;
            if (progress_ != nullptr && omp_get_thread_num() == 0) {
                try {
                    progress_->update(finished);
                } catch (const Cancelled&) {
                    cancelled = std::current_exception();
                    stop = true;
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
    const NeuronTimes& times_;
    unsigned threads_;
    Progress* progress_;
    std::vector<EndList> lists_;
};

}  // namespace

std::unique_ptr<ListStore> make_cpu_list_store(const NeuronTimes& times, unsigned threads, Progress* progress) {
    return std::make_unique<CpuListStore>(times, threads, progress);
}

}  // namespace spikeminer::mining::detail
