// End lists on the device (end_lists.hpp): extensions grouped by prefix, counted and
// written by extend_kernels.cuh, the kept lists appended to one pair of arrays.
#include "../gpu_counting.hpp"
#include "../tuning.hpp"
#include "device_arena.hpp"
#include "device_calls.cuh"
#include "extend_kernels.cuh"
#include "lag_count_kernels.cuh"

#include <cub/device/device_scan.cuh>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <bit>
#include <limits>

namespace spikeminer::mining::detail {
namespace {

using spikeminer::detail::allocate_or_oom;
using spikeminer::detail::blocks_for;
using spikeminer::detail::check_launch;
using spikeminer::detail::DeviceBuffer;
using spikeminer::detail::download;
using spikeminer::detail::read_one;
using spikeminer::detail::run_cub;
using spikeminer::detail::upload;
using spikeminer::detail::Widen;

using tuning::kBlock;
using tuning::kMaxTableEntries;

// Lists one after another in a pair of arrays.
struct ListArrays {
    DeviceBuffer<Tick> ends;
    DeviceBuffer<Tick> starts;
    std::uint64_t used = 0;

    // Room for `n` entries in all (doubling), keeping the used ones; unchanged when the
    // device is full.
    void reserve(std::uint64_t n) {
        if (ends.size() >= n) return;
        const std::uint64_t size = std::max<std::uint64_t>(n, 2 * ends.size());
        DeviceBuffer<Tick> grown[2] = {allocate_or_oom<Tick>(size, "end lists"), allocate_or_oom<Tick>(size, "end lists")};
        if (used != 0) {
            SPIKEMINER_CUDA_CHECK(cudaMemcpy(grown[0].get(), ends.get(), used * sizeof(Tick), cudaMemcpyDeviceToDevice));
            SPIKEMINER_CUDA_CHECK(cudaMemcpy(grown[1].get(), starts.get(), used * sizeof(Tick), cudaMemcpyDeviceToDevice));
        }
        ends = std::move(grown[0]);
        starts = std::move(grown[1]);
    }
};

// Where a list lies: in the arrays kept from the last call, or in this call's.
struct Location {
    bool fresh = false;
    std::uint64_t offset = 0;
    std::uint64_t length = 0;
};

// One prefix of an extend call: its extensions are order[first, last).
struct PrefixPlan {
    std::uint32_t parent;
    std::uint64_t length;
    std::size_t first;
    std::size_t last;
};

class GpuListStore final : public ListStore {
public:
    // Over spikes on the device that another owner keeps.
    GpuListStore(const DeviceSpikes& spikes, const NeuronTimes& times, std::size_t budget, Progress* progress)
        : times_(times),
          progress_(progress),
          neurons_(static_cast<std::uint32_t>(times.offsets.size() - 1)),
          budget_(budget != 0 ? budget : default_gpu_budget()),
          spikes_(spikes) {}

    // Over its own copy of the recording.
    GpuListStore(const SpikeTrains& trains, const NeuronTimes& times, std::size_t budget, Progress* progress)
        : GpuListStore(DeviceSpikes{}, times, budget, progress) {
        own_times_ = upload(times.times, "spike times");
        own_stream_times_ = upload(trains.times().data(), trains.num_spikes(), "spike stream");
        own_stream_neurons_ = upload(trains.neurons().data(), trains.num_spikes(), "spike stream");
        spikes_ = DeviceSpikes{own_times_.get(), own_stream_times_.get(), own_stream_neurons_.get(), trains.num_spikes()};
    }

    std::vector<std::uint64_t> extend(std::span<const Extension> extensions, std::uint64_t keep_at_least) override {
        std::vector<std::uint64_t> counts(extensions.size(), 0);
        if (extensions.empty()) return counts;
        // Extensions by (prefix, neuron), and the prefixes.
        std::vector<PrefixGroup> groups;
        const std::vector<std::uint32_t> order = prefix_order(extensions, groups);
        std::vector<PrefixPlan> plans;
        std::uint64_t entries = 0;
        std::uint64_t weighted = 0;  // entries x extensions: the cells at one entry a chunk
        for (const PrefixGroup& group : groups) {
            plans.push_back(PrefixPlan{group.parent, length_of(extensions[order[group.first]]), group.first, group.last});
            entries += plans.back().length;
            weighted += plans.back().length * (group.last - group.first);
        }
        // Entries a chunk: enough chunks to fill the device (about 2^20), few enough cells
        // (about eight per entry).
        const std::uint64_t for_threads = std::bit_ceil(std::max<std::uint64_t>(1, entries >> 20));
        const std::uint64_t for_cells = std::bit_ceil(std::max<std::uint64_t>(1, weighted / std::max<std::uint64_t>(1, 8 * entries)));
        const auto per_chunk = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(std::max(for_threads, for_cells), 4, 4096));

        std::vector<Location> fresh(extensions.size());
        if (progress_ != nullptr) progress_->begin("counting on the GPU", extensions.size());
        const std::uint64_t table_limit = std::max<std::uint64_t>(1, kMaxTableEntries / (neurons_ + 1));
        std::size_t first = 0;
        while (first < plans.size()) {
            std::size_t last = first;
            std::uint64_t cells = 0;
            while (last < plans.size() && (last == first || (cells + cells_of(plans[last], per_chunk) <= cell_limit() &&
                                                             last - first < table_limit))) {
                cells += cells_of(plans[last], per_chunk);
                ++last;
            }
            run_groups(std::span<const PrefixPlan>(plans).subspan(first, last - first), extensions, order, per_chunk,
                       keep_at_least, counts, fresh);
            first = last;
            if (progress_ != nullptr) progress_->update(first < plans.size() ? plans[first].first : extensions.size());
        }
        if (progress_ != nullptr) progress_->finish();
        for (std::size_t i = 0; i < extensions.size(); ++i) {
            if (counts[i] >= keep_at_least) lists_.push_back(fresh[i]);
        }
        return counts;
    }

    void retain(std::span<const std::uint32_t> ids) override {
        // The lists stay where this call's extensions put them; the older arrays go.
        std::vector<Location> kept;
        kept.reserve(ids.size());
        for (const std::uint32_t id : ids) {
            if (!lists_[id].fresh) throw Error("end list store: retain() takes only lists made since the last retain()");
            kept.push_back(Location{false, lists_[id].offset, lists_[id].length});
        }
        kept_ = ids.empty() ? ListArrays{} : std::move(fresh_);
        fresh_ = ListArrays{};
        lists_ = std::move(kept);
    }

    [[nodiscard]] std::size_t size() const override { return lists_.size(); }
    [[nodiscard]] std::uint64_t length(std::uint32_t id) const override { return lists_.at(id).length; }
    [[nodiscard]] std::size_t host_bytes() const override { return lists_.capacity() * sizeof(Location); }

    [[nodiscard]] std::vector<std::span<const Tick>> ends(std::span<const std::uint32_t> ids,
                                                         std::vector<std::vector<Tick>>& scratch) const override {
        scratch.resize(ids.size());
        std::vector<std::span<const Tick>> views;
        views.reserve(ids.size());
        for (std::size_t i = 0; i < ids.size(); ++i) {
            const Location& at = lists_.at(ids[i]);
            const ListArrays& arrays = at.fresh ? fresh_ : kept_;
            scratch[i].resize(at.length);
            if (at.length != 0) {
                SPIKEMINER_CUDA_CHECK(cudaMemcpy(scratch[i].data(), arrays.ends.get() + at.offset, at.length * sizeof(Tick),
                                                 cudaMemcpyDeviceToHost));
            }
            views.emplace_back(scratch[i]);
        }
        return views;
    }

    [[nodiscard]] std::optional<std::vector<LagCounts>> lag_counts_here(std::span<const LagQuery> queries,
                                                                       const Interval& baseline) const override {
        std::vector<LagCounts> counts(queries.size());
        if (queries.empty()) return counts;
        const auto spikes_of = [&](NeuronId n) {
            return std::pair{spikes_.by_neuron + times_.offsets[n], times_.offsets[n + 1] - times_.offsets[n]};
        };
        std::vector<DeviceLagQuery> table;
        table.reserve(queries.size());
        std::uint64_t runs = 0;
        for (const LagQuery& query : queries) {
            std::pair<const Tick*, std::uint64_t> ends;
            if ((query.prefix & Extension::kSeed) != 0) {
                ends = spikes_of(query.prefix & ~Extension::kSeed);
            } else {
                const Location& at = lists_.at(query.prefix);
                ends = {(at.fresh ? fresh_ : kept_).ends.get() + at.offset, at.length};
            }
            const auto [spikes, spikes_length] = spikes_of(query.neuron);
            table.push_back(DeviceLagQuery{ends.first, ends.second, spikes, spikes_length, query.gap.lo, query.gap.hi, runs});
            runs += (ends.second + kLagRun - 1) / kLagRun;
        }
        if (runs == 0) return counts;
        const auto d_table = upload(table, "chance test plan");
        auto d_counts = allocate_or_oom<unsigned long long>(3 * queries.size(), "chance test counts");
        SPIKEMINER_CUDA_CHECK(cudaMemset(d_counts.get(), 0, 3 * queries.size() * sizeof(unsigned long long)));
        lag_counts_kernel<<<blocks_for(runs, kBlock), kBlock>>>(d_table.get(), static_cast<std::uint32_t>(table.size()), runs,
                                                              baseline.lo, baseline.hi, d_counts.get());
        check_launch();
        const std::vector<unsigned long long> sums = download(d_counts.get(), 3 * queries.size());
        for (std::size_t q = 0; q < queries.size(); ++q) counts[q] = LagCounts{sums[3 * q], sums[3 * q + 1], sums[3 * q + 2]};
        return counts;
    }

private:
    [[nodiscard]] std::uint64_t length_of(const Extension& x) const {
        return x.from_seed() ? times_.of(x.seed_neuron()).size() : lists_[x.parent].length;
    }

    static std::uint64_t cells_of(const PrefixPlan& plan, std::uint32_t per_chunk) {
        return (plan.last - plan.first) * ((plan.length + per_chunk - 1) / per_chunk);
    }

    static void copy_lists(const Tick* src_ends, const Tick* src_starts, const std::vector<std::uint64_t>& from,
                           const std::vector<std::uint64_t>& to, const std::vector<std::uint64_t>& length,
                           Tick* dst_ends, Tick* dst_starts) {
        if (from.empty()) return;
        const auto d_from = upload(from, "list copies");
        const auto d_to = upload(to, "list copies");
        const auto d_length = upload(length, "list copies");
        copy_lists_kernel<<<static_cast<unsigned>(from.size()), kBlock>>>(src_ends, src_starts, d_from.get(), d_to.get(),
                                                                          d_length.get(), dst_ends, dst_starts);
        check_launch();
        SPIKEMINER_CUDA_CHECK(cudaDeviceSynchronize());  // before the index arrays are freed
    }

    // run_group, halving the group (its prefixes, or one prefix's extensions) while its
    // cells or new lists exceed the budget.
    void run_groups(std::span<const PrefixPlan> plans, std::span<const Extension> extensions,
                    const std::vector<std::uint32_t>& order, std::uint32_t per_chunk, std::uint64_t keep_at_least,
                    std::vector<std::uint64_t>& counts, std::vector<Location>& fresh) {
        if (run_group(plans, extensions, order, per_chunk, keep_at_least, counts, fresh)) return;
        if (plans.size() > 1) {
            const std::size_t half = plans.size() / 2;
            run_groups(plans.first(half), extensions, order, per_chunk, keep_at_least, counts, fresh);
            run_groups(plans.subspan(half), extensions, order, per_chunk, keep_at_least, counts, fresh);
            return;
        }
        const PrefixPlan& plan = plans.front();
        if (plan.last - plan.first == 1) {
            throw GpuOutOfMemory("the end list of one extension needs more than the memory budget");
        }
        const std::size_t middle = (plan.first + plan.last) / 2;
        const PrefixPlan halves[2] = {PrefixPlan{plan.parent, plan.length, plan.first, middle},
                                      PrefixPlan{plan.parent, plan.length, middle, plan.last}};
        for (const PrefixPlan& half : halves) {
            run_groups(std::span<const PrefixPlan>(&half, 1), extensions, order, per_chunk, keep_at_least, counts, fresh);
        }
    }

    // A group's cells: a quarter of the budget (12 bytes each).
    [[nodiscard]] std::uint64_t cell_limit() const { return std::max<std::uint64_t>(1024, budget_ / 4 / 12); }

    // Counts the extensions of a group of prefixes; their kept lists go to the store's end
    // and `fresh` records where. False, with nothing done, when the group's cells or new
    // lists would exceed the budget and the group can be split.
    bool run_group(std::span<const PrefixPlan> plans, std::span<const Extension> extensions,
                   const std::vector<std::uint32_t>& order, std::uint32_t per_chunk, std::uint64_t keep_at_least,
                   std::vector<std::uint64_t>& counts, std::vector<Location>& fresh) {
        const std::size_t base = plans.front().first;
        const auto group_extensions = static_cast<std::uint32_t>(plans.back().last - base);
        std::vector<PrefixInfo> infos;
        std::vector<std::uint32_t> by_neuron(plans.size() * (neurons_ + std::size_t{1}), 0);
        std::vector<Tick> lo(group_extensions);
        std::vector<Tick> hi(group_extensions);
        std::vector<std::uint32_t> owner(group_extensions);
        std::uint64_t chunks = 0;
        std::uint64_t cells = 0;
        for (std::size_t p = 0; p < plans.size(); ++p) {
            const PrefixPlan& plan = plans[p];
            const Extension& head = extensions[order[plan.first]];
            PrefixInfo info{};
            if (head.from_seed()) {
                info.ends = info.starts = spikes_.by_neuron + times_.offsets[head.seed_neuron()];
            } else {
                const Location& list = lists_[head.parent];
                const ListArrays& arrays = list.fresh ? fresh_ : kept_;
                info.ends = arrays.ends.get() + list.offset;
                info.starts = arrays.starts.get() + list.offset;
            }
            info.length = plan.length;
            info.chunk_first = chunks;
            info.cell_first = cells;
            info.chunks = static_cast<std::uint32_t>((plan.length + per_chunk - 1) / per_chunk);
            info.extension_first = static_cast<std::uint32_t>(plan.first - base);
            info.min_lo = std::numeric_limits<Tick>::max();
            info.max_hi = std::numeric_limits<Tick>::min();
            std::uint32_t* table = by_neuron.data() + p * (neurons_ + std::size_t{1});
            for (std::size_t i = plan.first; i < plan.last; ++i) {
                const Extension& x = extensions[order[i]];
                const std::size_t local = i - base;
                lo[local] = x.gap.lo;
                hi[local] = x.gap.hi;
                owner[local] = static_cast<std::uint32_t>(p);
                info.min_lo = std::min(info.min_lo, x.gap.lo);
                info.max_hi = std::max(info.max_hi, x.gap.hi);
                table[x.neuron + 1] = static_cast<std::uint32_t>(local + 1);  // becomes the end of x.neuron's range
            }
            // Ends of each neuron's range, carried forward over neurons without extensions.
            table[0] = static_cast<std::uint32_t>(plan.first - base);
            for (std::uint32_t n = 1; n <= neurons_; ++n) table[n] = std::max(table[n], table[n - 1]);
            chunks += info.chunks;
            cells += std::uint64_t{info.chunks} * (plan.last - plan.first);
            infos.push_back(info);
        }
        if (cells > cell_limit() && (plans.size() > 1 || group_extensions > 1)) return false;
        const auto d_infos = upload(infos, "extension plan");
        const auto d_table = upload(by_neuron, "extension plan");
        const auto d_lo = upload(lo, "extension plan");
        const auto d_hi = upload(hi, "extension plan");
        const auto d_owner = upload(owner, "extension plan");
        const GroupView view{d_infos.get(),         static_cast<std::uint32_t>(infos.size()), d_table.get(),
                             neurons_,              d_lo.get(),                                d_hi.get(),
                             spikes_.stream_times,  spikes_.stream_neurons,                    spikes_.spikes,
                             chunks,                per_chunk};

        // Count, scan, write: every extension's list in end order, lists one after another.
        scratch_.reset();  // the last group's work is done: it ended with downloads
        auto* cell_counts = scratch_.take<std::uint32_t>(cells + 1, "extension cells");
        auto* offsets = scratch_.take<std::uint64_t>(cells + 1, "extension cells");
        SPIKEMINER_CUDA_CHECK(cudaMemset(cell_counts, 0, (cells + 1) * sizeof(std::uint32_t)));
        if (chunks != 0) {
            extend_chunks_kernel<false><<<blocks_for(chunks, kBlock), kBlock>>>(view, cell_counts, nullptr, nullptr, nullptr);
            check_launch();
        }
        auto widened = thrust::make_transform_iterator(cell_counts, Widen{});
        run_cub([&](void* temp, std::size_t& bytes) {
            return cub::DeviceScan::ExclusiveSum(temp, bytes, widened, offsets, cells + 1);
        }, nullptr);
        const std::uint64_t total = read_one(offsets + cells);
        if (total > budget_ / 2 / (2 * sizeof(Tick))) return false;
        auto* out_ends = scratch_.take<Tick>(total, "new end lists");
        auto* out_starts = scratch_.take<Tick>(total, "new end lists");
        auto* begin = scratch_.take<std::uint64_t>(group_extensions, "new end lists");
        auto* end = scratch_.take<std::uint64_t>(group_extensions, "new end lists");
        auto* greedy = scratch_.take<std::uint64_t>(group_extensions, "new end lists");
        extension_bounds_kernel<<<blocks_for(group_extensions, kBlock), kBlock>>>(view, d_owner.get(), group_extensions,
                                                                                  offsets, begin, end);
        check_launch();
        if (chunks != 0 && total != 0) {
            extend_chunks_kernel<true><<<blocks_for(chunks, kBlock), kBlock>>>(view, nullptr, offsets, out_ends, out_starts);
            check_launch();
        }
        greedy_lists_kernel<<<blocks_for(std::uint64_t{32} * group_extensions, kBlock), kBlock>>>(
            out_ends, out_starts, begin, end, group_extensions, greedy);
        check_launch();
        const std::vector<std::uint64_t> group_counts = download(greedy, group_extensions);
        const std::vector<std::uint64_t> group_begin = download(begin, group_extensions);
        const std::vector<std::uint64_t> group_end = download(end, group_extensions);

        // The kept lists to the end of this call's arrays.
        std::vector<std::uint64_t> from;
        std::vector<std::uint64_t> to;
        std::vector<std::uint64_t> length;
        std::uint64_t appended = 0;
        for (std::uint32_t local = 0; local < group_extensions; ++local) {
            const std::uint32_t original = order[base + local];
            counts[original] = group_counts[local];
            if (group_counts[local] < keep_at_least) continue;
            const std::uint64_t n = group_end[local] - group_begin[local];
            from.push_back(group_begin[local]);
            to.push_back(fresh_.used + appended);
            length.push_back(n);
            fresh[original] = Location{true, fresh_.used + appended, n};
            appended += n;
        }
        fresh_.reserve(fresh_.used + appended);
        copy_lists(out_ends, out_starts, from, to, length, fresh_.ends.get(), fresh_.starts.get());
        fresh_.used += appended;
        return true;
    }

    const NeuronTimes& times_;
    Progress* progress_;
    std::uint32_t neurons_;
    std::size_t budget_;
    DeviceBuffer<Tick> own_times_;
    DeviceBuffer<Tick> own_stream_times_;
    DeviceBuffer<NeuronId> own_stream_neurons_;
    DeviceSpikes spikes_;
    ListArrays kept_;   // lists retained by the last call
    ListArrays fresh_;  // lists made by this call
    std::vector<Location> lists_;
    // A group's scratch: it grows to the largest group's, so that later levels allocate nothing.
    spikeminer::detail::DeviceArena scratch_;
};

}  // namespace

std::unique_ptr<ListStore> make_gpu_list_store(const SpikeTrains& trains, const NeuronTimes& times,
                                               std::size_t memory_budget, Progress* progress) {
    return std::make_unique<GpuListStore>(trains, times, memory_budget, progress);
}

std::unique_ptr<ListStore> make_gpu_list_store(const DeviceSpikes& spikes, const NeuronTimes& times, std::size_t memory_budget,
                                               Progress* progress) {
    return std::make_unique<GpuListStore>(spikes, times, memory_budget, progress);
}

}  // namespace spikeminer::mining::detail
