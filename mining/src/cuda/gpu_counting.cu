// Host side of the GPU counters: upload, batching by episode length, chunking over end
// events within a memory budget, and the level-by-level backward search.
#include "../cpu/cpu_counters.hpp"
#include "../gpu_counting.hpp"
#include "../tuning.hpp"
#include "device_calls.cuh"
#include "gpu_fsm.hpp"
#include "search_kernels.cuh"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <bit>
#include <map>

namespace spikeminer::mining::detail {
namespace {

using spikeminer::detail::allocate_or_oom;
using spikeminer::detail::blocks_for;
using spikeminer::detail::check_launch;
using spikeminer::detail::read_one;
using spikeminer::detail::upload;
using spikeminer::detail::Widen;
using spikeminer::detail::DeviceBuffer;

using tuning::kBlock;
// Keys hold the global end index in 32 bits: a batch has fewer ends than this.
constexpr std::uint64_t kMaxEndsPerBatch = std::uint64_t{1} << 31;

// The search buffers, sized for `capacity` partials.
class SearchSpace {
public:
    SearchSpace(std::uint64_t capacity, Counter counter) : capacity_(capacity) {
        keys_ = allocate_or_oom<std::uint64_t>(capacity, "search keys");
        next_ = allocate_or_oom<std::uint64_t>(capacity, "search keys");
        std::size_t temp = 0;
        std::size_t bytes = 0;
        if (counter == Counter::CountScanWrite) {
            counts_ = allocate_or_oom<std::uint32_t>(capacity, "counts");
            offsets_ = allocate_or_oom<std::uint64_t>(capacity, "offsets");
            auto widened = thrust::make_transform_iterator(counts_.get(), Widen{});
            SPIKEMINER_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, widened, offsets_.get(), capacity));
            temp = bytes;
        } else {
            sorted_ = allocate_or_oom<std::uint64_t>(capacity, "sorted keys");
            SPIKEMINER_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, bytes, next_.get(), sorted_.get(), capacity));
            temp = bytes;
            SPIKEMINER_CUDA_CHECK(cub::DeviceSelect::Unique(nullptr, bytes, sorted_.get(), keys_.get(),
                                                            static_cast<std::uint64_t*>(nullptr), capacity));
            temp = std::max(temp, bytes);
            scalars_ = allocate_or_oom<unsigned long long>(2, "counters");
        }
        temp_ = allocate_or_oom<unsigned char>(temp, "CUB scratch");
        temp_bytes_ = temp;
    }

    [[nodiscard]] std::uint64_t capacity() const { return capacity_; }

    // Runs the backward search of ends [g0, g0 + n) of `batch` and writes their latest
    // starts. False when some level would exceed the capacity (the caller splits).
    bool search(const EpisodeBatchView& batch, std::uint64_t g0, std::uint64_t n, Counter counter, int end_bits,
                std::int64_t* starts, std::uint64_t& peak) {
        seed_kernel<<<blocks_for(n, kBlock), kBlock>>>(batch, g0, n, keys_.get());
        check_launch();
        peak = std::max(peak, n);
        for (std::uint32_t k = batch.length - 1; k-- > 0 && n > 0;) {
            const bool fits = counter == Counter::CountScanWrite ? count_scan_write(batch, k, n)
                                                                 : atomic_compact(batch, k, n, end_bits);
            if (!fits) return false;
            peak = std::max(peak, n);
        }
        if (n > 0) {
            latest_start_kernel<<<blocks_for(n, kBlock), kBlock>>>(batch, keys_.get(), n, starts);
            check_launch();
        }
        return true;
    }

private:
    bool count_scan_write(const EpisodeBatchView& batch, std::uint32_t k, std::uint64_t& n) {
        csw_count_kernel<<<blocks_for(n, kBlock), kBlock>>>(batch, keys_.get(), n, k, counts_.get());
        check_launch();
        auto widened = thrust::make_transform_iterator(counts_.get(), Widen{});
        std::size_t bytes = temp_bytes_;
        SPIKEMINER_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp_.get(), bytes, widened, offsets_.get(), n));
        const std::uint64_t total = read_one(offsets_.get() + n - 1) + read_one(counts_.get() + n - 1);
        if (total > capacity_) return false;
        if (total > 0) {
            csw_write_kernel<<<blocks_for(n, kBlock), kBlock>>>(batch, keys_.get(), n, k, offsets_.get(), next_.get());
            check_launch();
        }
        std::swap(keys_, next_);
        n = total;
        return true;
    }

    bool atomic_compact(const EpisodeBatchView& batch, std::uint32_t k, std::uint64_t& n, int end_bits) {
        SPIKEMINER_CUDA_CHECK(cudaMemset(scalars_.get(), 0, 2 * sizeof(unsigned long long)));
        auto* overflow = reinterpret_cast<int*>(scalars_.get() + 1);
        atomic_compact_kernel<<<blocks_for(n, kBlock), kBlock>>>(batch, keys_.get(), n, k, next_.get(), scalars_.get(),
                                                         capacity_, overflow);
        check_launch();
        const unsigned long long written = read_one(scalars_.get());
        if (read_one(overflow) != 0 || written > capacity_) return false;
        n = written;
        if (n == 0) return true;
        std::size_t bytes = temp_bytes_;
        SPIKEMINER_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(temp_.get(), bytes, next_.get(), sorted_.get(), n, 0, end_bits));
        bytes = temp_bytes_;
        SPIKEMINER_CUDA_CHECK(
            cub::DeviceSelect::Unique(temp_.get(), bytes, sorted_.get(), keys_.get(), scalars_.get(), n));
        n = read_one(scalars_.get());
        return true;
    }

    std::uint64_t capacity_;
    DeviceBuffer<std::uint64_t> keys_;
    DeviceBuffer<std::uint64_t> next_;
    DeviceBuffer<std::uint64_t> sorted_;
    DeviceBuffer<std::uint32_t> counts_;
    DeviceBuffer<std::uint64_t> offsets_;
    DeviceBuffer<unsigned long long> scalars_;
    DeviceBuffer<unsigned char> temp_;
    std::size_t temp_bytes_ = 0;
};

std::size_t bytes_per_partial(Counter counter) {
    return counter == Counter::CountScanWrite ? 2 * 8 + 4 + 8 + 8 : 3 * 8 + 16;  // keys, counts/offsets or sort, scratch
}

using tuning::kWalkEpisodes;

// The greedy count of every episode of the batch from the latest starts of its ends:
// walked by one thread per episode when there are many, else ranked by pointer jumping
// (whose log2(ends) passes over every end cost more than a walk when the batch is wide).
void greedy_counts(const EpisodeBatchView& batch, std::uint64_t ends, const DeviceBuffer<std::int64_t>& starts,
                   DeviceBuffer<unsigned long long>& counts) {
    if (ends == 0) {
        SPIKEMINER_CUDA_CHECK(cudaMemset(counts.get(), 0, counts.size() * sizeof(unsigned long long)));
        return;
    }
    if (batch.episodes >= kWalkEpisodes) {
        greedy_walk_kernel<<<blocks_for(batch.episodes, kBlock), kBlock>>>(batch, starts.get(), kNoStart, counts.get());
        check_launch();
        return;
    }
    auto episode = allocate_or_oom<std::uint32_t>(ends, "greedy");
    auto running = allocate_or_oom<std::int64_t>(ends, "greedy");
    DeviceBuffer<std::uint32_t> next[2] = {allocate_or_oom<std::uint32_t>(ends, "greedy"), allocate_or_oom<std::uint32_t>(ends, "greedy")};
    DeviceBuffer<std::uint32_t> rank[2] = {allocate_or_oom<std::uint32_t>(ends, "greedy"), allocate_or_oom<std::uint32_t>(ends, "greedy")};
    episode_of_end_kernel<<<blocks_for(ends, kBlock), kBlock>>>(batch, ends, episode.get());
    check_launch();
    std::size_t bytes = 0;
    SPIKEMINER_CUDA_CHECK(cub::DeviceScan::InclusiveScanByKey(nullptr, bytes, episode.get(), starts.get(), running.get(),
                                                              MaxStart{}, ends));
    auto temp = allocate_or_oom<unsigned char>(bytes, "CUB scratch");
    SPIKEMINER_CUDA_CHECK(cub::DeviceScan::InclusiveScanByKey(temp.get(), bytes, episode.get(), starts.get(),
                                                              running.get(), MaxStart{}, ends));
    next_end_kernel<<<blocks_for(ends, kBlock), kBlock>>>(batch, episode.get(), running.get(), ends, next[0].get(), rank[0].get());
    check_launch();
    int current = 0;
    for (int round = 0; round < std::bit_width(ends); ++round) {
        jump_kernel<<<blocks_for(ends, kBlock), kBlock>>>(next[current].get(), rank[current].get(), ends, next[1 - current].get(),
                                                  rank[1 - current].get());
        check_launch();
        current = 1 - current;
    }
    chain_count_kernel<<<blocks_for(batch.episodes, kBlock), kBlock>>>(batch, running.get(), rank[current].get(), kNoStart,
                                                                counts.get());
    check_launch();
}

// Counts one batch of episodes of one length whose ends number below 2^31.
void count_batch(const DeviceBuffer<std::int64_t>& d_times, const DeviceBuffer<std::uint64_t>& d_offsets,
                 const NeuronTimes& times, std::span<const Episode> episodes, std::span<const std::size_t> members,
                 Counter counter, std::size_t budget, std::vector<std::uint64_t>& counts, Progress* progress,
                 std::uint64_t progress_base) {
    const std::uint32_t length = static_cast<std::uint32_t>(episodes[members.front()].size());
    std::vector<std::uint32_t> neurons;
    std::vector<std::int64_t> lo;
    std::vector<std::int64_t> hi;
    std::vector<std::uint64_t> end_first{0};
    for (const std::size_t m : members) {
        const Episode& episode = episodes[m];
        neurons.insert(neurons.end(), episode.neurons.begin(), episode.neurons.end());
        for (const Interval& gap : episode.gaps) {
            lo.push_back(gap.lo);
            hi.push_back(gap.hi);
        }
        end_first.push_back(end_first.back() + times.of(episode.neurons.back()).size());
    }
    const std::uint64_t ends = end_first.back();
    const auto d_neurons = upload(neurons, "episodes");
    const auto d_lo = upload(lo, "episodes");
    const auto d_hi = upload(hi, "episodes");
    const auto d_end_first = upload(end_first, "episodes");
    auto d_starts = allocate_or_oom<std::int64_t>(ends, "latest starts");
    const EpisodeBatchView batch{d_times.get(), d_offsets.get(), d_neurons.get(),   d_lo.get(), d_hi.get(),
                                 d_end_first.get(), static_cast<std::uint32_t>(members.size()), length};
    if (ends > 0) {
        fill_kernel<<<blocks_for(ends, kBlock), kBlock>>>(d_starts.get(), ends, kNoStart);
        check_launch();
    }
    const int end_bits = 32 + std::bit_width(ends);
    const std::uint64_t max_capacity = std::max<std::uint64_t>(1024, budget / bytes_per_partial(counter));
    SearchSpace space(std::min(max_capacity, std::max<std::uint64_t>(std::uint64_t{1} << 20, 8 * ends)), counter);

    std::uint64_t chunk = std::max<std::uint64_t>(1, space.capacity() / 8);
    for (std::uint64_t g0 = 0; g0 < ends;) {
        const std::uint64_t n = std::min(chunk, ends - g0);
        std::uint64_t peak = 0;
        if (space.search(batch, g0, n, counter, end_bits, d_starts.get(), peak)) {
            g0 += n;
            if (peak < space.capacity() / 4) chunk = std::min(chunk * 2, space.capacity() / 2);  // room to grow
            if (progress != nullptr) progress->update(progress_base + g0);
        } else if (n > 1) {
            chunk = n / 2;  // some level overflowed: fewer ends at once
        } else if (space.capacity() < max_capacity) {
            space = SearchSpace(std::min(max_capacity, space.capacity() * 4), counter);  // one end needs more
        } else {
            throw GpuOutOfMemory("the search of one end event needs more than the memory budget");
        }
    }
    auto d_counts = allocate_or_oom<unsigned long long>(members.size(), "counts");
    greedy_counts(batch, ends, d_starts, d_counts);
    const std::vector<unsigned long long> host = spikeminer::detail::download(d_counts.get(), members.size());
    for (std::size_t i = 0; i < members.size(); ++i) counts[members[i]] = host[i];
}

}  // namespace

std::size_t default_gpu_budget() {
    std::size_t free_bytes = 0;
    std::size_t total_bytes = 0;
    SPIKEMINER_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    return free_bytes / 2;
}

struct GpuSpikeTimes::Device {
    DeviceBuffer<std::int64_t> times;
    DeviceBuffer<std::uint64_t> offsets;
};

GpuSpikeTimes::GpuSpikeTimes(const NeuronTimes& times)
    : times_(times), device_(new Device{upload(times.times, "spike times"), upload(times.offsets, "spike offsets")}) {}

GpuSpikeTimes::~GpuSpikeTimes() = default;

std::vector<std::uint64_t> GpuSpikeTimes::count(std::span<const Episode> episodes, Counter counter,
                                                std::size_t memory_budget, Progress* progress) const {
    if (counter == Counter::GpuFsm) return count_fsm_on_gpu(device_->times.get(), device_->offsets.get(), times_, episodes);
    std::vector<std::uint64_t> counts(episodes.size(), 0);
    if (episodes.empty()) return counts;
    const std::size_t budget = memory_budget != 0 ? memory_budget : default_gpu_budget();

    // Batches: episodes of one length, fewer than 2^31 end events each.
    std::map<std::size_t, std::vector<std::size_t>> by_length;
    for (std::size_t i = 0; i < episodes.size(); ++i) by_length[episodes[i].size()].push_back(i);
    std::uint64_t total_ends = 0;
    for (const Episode& episode : episodes) total_ends += times_.of(episode.neurons.back()).size();
    if (progress != nullptr) progress->begin("counting on the GPU", total_ends);
    std::uint64_t done = 0;
    for (const auto& [length, members] : by_length) {
        std::size_t first = 0;
        while (first < members.size()) {
            std::size_t last = first;
            std::uint64_t ends = 0;
            while (last < members.size() &&
                   (last == first || ends + times_.of(episodes[members[last]].neurons.back()).size() < kMaxEndsPerBatch)) {
                ends += times_.of(episodes[members[last]].neurons.back()).size();
                ++last;
            }
            count_batch(device_->times, device_->offsets, times_, episodes,
                        std::span<const std::size_t>(members).subspan(first, last - first), counter, budget, counts,
                        progress, done);
            done += ends;
            first = last;
        }
    }
    if (progress != nullptr) progress->finish();
    return counts;
}

}  // namespace spikeminer::mining::detail
