// GPMA+ on the device (see gpu_pma.hpp). Host code orchestrates the levels of the
// implicit tree; each level is a handful of kernels and CUB calls over all the windows
// that have work at that level.
#include "device_calls.cuh"

#include "spikeminer/core/error.hpp"
#include "spikeminer/graph/cpu_pma.hpp"
#include "spikeminer/graph/gpu_pma.hpp"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <cub/device/device_select.cuh>
#include <cuda/functional>

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>

namespace spikeminer::graph {
namespace {

using spikeminer::detail::blocks_for;
using spikeminer::detail::run_cub;
using spikeminer::detail::allocate_or_oom;
using spikeminer::detail::DeviceBuffer;

constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
constexpr int kThreads = 256;

unsigned grid(std::size_t n) { return blocks_for(n, kThreads); }

// ---- kernels -------------------------------------------------------------------------

__global__ void make_keys(std::size_t n, const EdgeUpdate* updates, std::uint64_t* keys, std::uint32_t* index) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i >= n) return;
    keys[i] = (std::uint64_t{updates[i].src} << 32) | updates[i].dst;
    index[i] = static_cast<std::uint32_t>(i);
}

// Flags the last of each run of equal sorted keys (the batch's last update of that key).
__global__ void flag_last(std::size_t n, const std::uint64_t* keys, unsigned char* flag) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) flag[i] = i + 1 == n || keys[i] != keys[i + 1];
}

__global__ void gather_values(std::size_t n, const std::uint32_t* index, const EdgeUpdate* updates, float* values) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) values[i] = updates[index[i]].value;
}

// reversed[j] = the segment segs-1-j if it holds keys, else segs (for a suffix minimum).
__global__ void nonempty_reversed(std::size_t segs, const std::uint32_t* counts, std::uint64_t* reversed) {
    const std::size_t j = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (j < segs) reversed[j] = counts[segs - 1 - j] > 0 ? segs - 1 - j : segs;
}

// first_key[s]: the first key of the first non-empty segment at or after s (kEmpty past
// the last one); next[s]: that segment.
__global__ void first_keys(std::size_t segs, std::size_t segment, const std::uint64_t* scanned, const std::uint64_t* keys,
                           std::uint64_t* next, std::uint64_t* first_key) {
    const std::size_t s = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (s > segs) return;
    const std::uint64_t t = s == segs ? segs : scanned[segs - 1 - s];
    next[s] = t;
    first_key[s] = t < segs ? keys[t * segment] : kEmpty;
}

struct Layout {
    std::uint64_t* keys;
    float* values;
    std::uint32_t* counts;
    const std::uint64_t* first_key;  // segs + 1
    const std::uint64_t* next;       // segs + 1
    std::size_t segs;
    std::size_t segment;

    // The leaf that holds or would hold `key`: the last segment whose first key is <= key.
    __device__ std::size_t leaf(std::uint64_t key) const {
        std::size_t lo = 0;
        std::size_t hi = segs;
        while (lo < hi) {
            const std::size_t mid = (lo + hi) / 2;
            if (first_key[mid] <= key) lo = mid + 1; else hi = mid;
        }
        return lo == 0 ? 0 : lo - 1;
    }
    // The slot of the first key >= `key` in `leaf` (its count when none is).
    __device__ std::size_t lower(std::size_t leaf_segment, std::uint64_t key) const {
        std::size_t lo = 0;
        std::size_t hi = counts[leaf_segment];
        const std::uint64_t* run = keys + leaf_segment * segment;
        while (lo < hi) {
            const std::size_t mid = (lo + hi) / 2;
            if (run[mid] < key) lo = mid + 1; else hi = mid;
        }
        return lo;
    }
    // The slot holding `key`, or kEmpty.
    __device__ std::uint64_t find(std::uint64_t key) const {
        const std::size_t s = leaf(key);
        const std::size_t i = lower(s, key);
        return i < counts[s] && keys[s * segment + i] == key ? s * segment + i : kEmpty;
    }
};

enum class Op : int { Insert, Update, Erase };

// Each unique key of a batch: an existing key gets its value (insert, update) or is
// removed (erase); absent[i] says whether it did not exist; leaf[i] where it belongs.
__global__ void apply_existing(std::size_t n, Layout layout, Op op, const std::uint64_t* keys, const float* values,
                               unsigned char* absent, std::uint64_t* leaf, std::uint64_t* erased = nullptr) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i >= n) return;
    const std::uint64_t slot = layout.find(keys[i]);
    absent[i] = slot == kEmpty;
    if (leaf != nullptr) leaf[i] = layout.leaf(keys[i]);
    if (slot == kEmpty) return;
    // Erasing here would race with the other threads' binary searches in the same
    // segment: erasures only record the slot (in values' place), erase_slots empties it.
    if (op == Op::Erase) erased[i] = slot; else layout.values[slot] = values[i];
}

__global__ void erase_slots(std::size_t n, const unsigned char* absent, const std::uint64_t* slot, std::uint64_t* keys) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n && !absent[i]) keys[slot[i]] = kEmpty;
}

// slot[i]: where keys[i] is, or kEmpty.
__global__ void find_slots(std::size_t n, Layout layout, const std::uint64_t* keys, std::uint64_t* slot) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) slot[i] = layout.find(keys[i]);
}

// One warp per segment: packs the keys left after erasures to the segment's front.
__global__ void repack(Layout layout) {
    const std::size_t s = (blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x) / 32;
    const unsigned lane = threadIdx.x % 32;
    if (s >= layout.segs) return;
    std::uint64_t* run = layout.keys + s * layout.segment;
    float* vals = layout.values + s * layout.segment;
    const bool mine = lane < layout.segment && lane < layout.counts[s];
    const std::uint64_t key = mine ? run[lane] : kEmpty;
    const float value = mine ? vals[lane] : 0.0F;
    const unsigned kept = __ballot_sync(0xffffffffU, key != kEmpty);
    __syncwarp();
    if (lane < layout.segment) run[lane] = kEmpty;
    __syncwarp();
    if (key != kEmpty) {
        const unsigned at = __popc(kept & ((1U << lane) - 1));
        run[at] = key;
        vals[at] = value;
    }
    if (lane == 0) layout.counts[s] = __popc(kept);
}

__global__ void under_lower(std::size_t segs, const std::uint32_t* counts, std::uint32_t bound, unsigned char* flag) {
    const std::size_t s = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (s < segs) flag[s] = counts[s] < bound;
}

__global__ void iota64(std::size_t n, std::uint64_t* out) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) out[i] = i;
}

__global__ void shift_right(std::size_t n, const std::uint64_t* in, int level, std::uint64_t* out) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) out[i] = in[i] >> level;
}

// Per window with work: whether it can take its keys plus `pending` of them within its
// bound (upper for inserts: total <= bound; lower for erasures: total >= bound).
__global__ void decide(std::size_t runs, const std::uint64_t* window, const std::uint32_t* pending, const std::uint64_t* prefix,
                       int level, double bound_slots, bool upper, unsigned char* ok, std::uint64_t* merged) {
    const std::size_t r = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (r >= runs) return;
    const std::size_t first = window[r] << level;
    const std::size_t last = first + (std::size_t{1} << level);
    const std::uint64_t total = prefix[last] - prefix[first] + pending[r];
    ok[r] = upper ? static_cast<double>(total) <= bound_slots : static_cast<double>(total) >= bound_slots;
    merged[r] = ok[r] ? total : 0;
}

// One block per window that settles: its keys, then its pending keys, into the scratch.
__global__ void gather_window(Layout layout, int level, const std::uint64_t* window, const std::uint64_t* prefix,
                              const std::uint64_t* scratch_at, const std::uint64_t* pending_at, const std::uint32_t* pending_count,
                              const std::uint64_t* pending_keys, const float* pending_values, std::uint64_t* scratch_keys,
                              float* scratch_values) {
    const std::size_t r = blockIdx.x;
    const std::size_t first = window[r] << level;
    const std::size_t slots = (std::size_t{1} << level) * layout.segment;
    const std::uint64_t at = scratch_at[r];
    for (std::size_t p = threadIdx.x; p < slots; p += blockDim.x) {
        const std::size_t s = first + p / layout.segment;
        const std::size_t i = p % layout.segment;
        if (i < layout.counts[s]) {
            const std::uint64_t rank = prefix[s] - prefix[first] + i;
            scratch_keys[at + rank] = layout.keys[first * layout.segment + p];
            scratch_values[at + rank] = layout.values[first * layout.segment + p];
        }
    }
    if (pending_keys == nullptr) return;
    const std::uint64_t existing = prefix[first + (std::size_t{1} << level)] - prefix[first];
    for (std::size_t t = threadIdx.x; t < pending_count[r]; t += blockDim.x) {
        scratch_keys[at + existing + t] = pending_keys[pending_at[r] + t];
        scratch_values[at + existing + t] = pending_values[pending_at[r] + t];
    }
}

// One block per settling window: its sorted keys spread evenly over its segments.
__global__ void spread_window(Layout layout, int level, const std::uint64_t* window, const std::uint64_t* scratch_at,
                              const std::uint64_t* total, const std::uint64_t* sorted_keys, const float* sorted_values) {
    const std::size_t r = blockIdx.x;
    const std::size_t first = window[r] << level;
    const std::size_t m = std::size_t{1} << level;
    const std::uint64_t n = total[r];
    const std::uint64_t base = n / m;
    const std::uint64_t extra = n % m;
    for (std::size_t p = threadIdx.x; p < m * layout.segment; p += blockDim.x) {
        const std::size_t k = p / layout.segment;
        const std::size_t i = p % layout.segment;
        const std::uint64_t share = base + (k < extra ? 1 : 0);
        const std::uint64_t from = scratch_at[r] + k * base + min(static_cast<std::uint64_t>(k), extra) + i;
        const std::size_t slot = first * layout.segment + p;
        if (i < share) {
            layout.keys[slot] = sorted_keys[from];
            layout.values[slot] = sorted_values[from];
        } else {
            layout.keys[slot] = kEmpty;
        }
        if (i == 0) layout.counts[first + k] = static_cast<std::uint32_t>(share);
    }
}

// Keeps the pending keys whose window did not settle.
__global__ void still_pending(std::size_t n, const std::uint64_t* leaf, int level, const std::uint64_t* settled_window,
                              std::size_t settled, unsigned char* keep) {
    const std::size_t j = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (j >= n) return;
    const std::uint64_t w = leaf[j] >> level;
    std::size_t lo = 0;
    std::size_t hi = settled;
    while (lo < hi) {
        const std::size_t mid = (lo + hi) / 2;
        if (settled_window[mid] < w) lo = mid + 1; else hi = mid;
    }
    keep[j] = !(lo < settled && settled_window[lo] == w);
}

// row_start[v]: the slot of v's first key, or of the first key after it.
__global__ void row_starts(std::size_t vertices, Layout layout, std::uint64_t capacity, std::uint64_t* row_start) {
    const std::size_t v = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (v > vertices) return;
    if (v == vertices) {
        row_start[v] = capacity;
        return;
    }
    const std::uint64_t key = std::uint64_t{v} << 32;
    const std::size_t s = layout.leaf(key);
    const std::size_t i = layout.lower(s, key);
    if (i < layout.counts[s]) {
        row_start[v] = s * layout.segment + i;
    } else {
        const std::uint64_t t = layout.next[s + 1];
        row_start[v] = t < layout.segs ? t * layout.segment : capacity;
    }
}

}  // namespace

struct GpuPma::State {
    Vertex vertices;
    std::size_t edges = 0;
    std::size_t segment = 8;
    std::size_t capacity = 0;
    DeviceBuffer<std::uint64_t> keys;
    DeviceBuffer<float> values;
    DeviceBuffer<std::uint32_t> counts;
    DeviceBuffer<std::uint64_t> first_key;  // segs + 1
    DeviceBuffer<std::uint64_t> next;       // segs + 1
    DeviceBuffer<std::uint64_t> row_start;  // vertices + 1
    cudaStream_t stream = nullptr;

    [[nodiscard]] std::size_t segs() const { return capacity / segment; }
    [[nodiscard]] int height() const { return static_cast<int>(std::bit_width(segs())) - 1; }
    Layout layout() { return {keys.get(), values.get(), counts.get(), first_key.get(), next.get(), segs(), segment}; }

    // Counts' exclusive prefix (segs + 1 entries).
    DeviceBuffer<std::uint64_t> prefix() {
        auto out = allocate_or_oom<std::uint64_t>(segs() + 1, "GPMA prefix");
        SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(out.get(), 0, sizeof(std::uint64_t), stream));
        run_cub([&](void* t, std::size_t& b) {
            return cub::DeviceScan::InclusiveSum(t, b, counts.get(), out.get() + 1, segs(), stream);
        }, stream);
        return out;
    }

    // The segment index (first keys, next non-empty segments) and the vertex starts.
    void reindex() {
        const std::size_t n = segs();
        auto reversed = allocate_or_oom<std::uint64_t>(n, "GPMA index");
        auto scanned = allocate_or_oom<std::uint64_t>(n, "GPMA index");
        nonempty_reversed<<<grid(n), kThreads, 0, stream>>>(n, counts.get(), reversed.get());
        run_cub([&](void* t, std::size_t& b) {
            return cub::DeviceScan::InclusiveScan(t, b, reversed.get(), scanned.get(), cuda::minimum<>{}, n, stream);
        }, stream);
        first_keys<<<grid(n + 1), kThreads, 0, stream>>>(n, segment, scanned.get(), keys.get(), next.get(), first_key.get());
        row_starts<<<grid(static_cast<std::size_t>(vertices) + 1), kThreads, 0, stream>>>(vertices, layout(), capacity, row_start.get());
        SPIKEMINER_CUDA_CHECK(cudaGetLastError());
        SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(stream));
    }

    void allocate(std::size_t new_capacity) {
        capacity = new_capacity;
        segment = PmaDensity::segment_size(capacity);
        if (segment > 32) throw Error("GPMA+: segments of more than 32 slots are not supported");
        keys = allocate_or_oom<std::uint64_t>(capacity, "GPMA keys");
        values = allocate_or_oom<float>(capacity, "GPMA values");
        counts = allocate_or_oom<std::uint32_t>(segs(), "GPMA counts");
        first_key = allocate_or_oom<std::uint64_t>(segs() + 1, "GPMA index");
        next = allocate_or_oom<std::uint64_t>(segs() + 1, "GPMA index");
        SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(keys.get(), 0xff, capacity * sizeof(std::uint64_t), stream));
        SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(counts.get(), 0, segs() * sizeof(std::uint32_t), stream));
    }

    // Resizes to `new_capacity` and spreads every key and the pending ones over it.
    // `edges` already counts the pending keys.
    void rebuild(std::size_t new_capacity, const std::uint64_t* pending_keys, const float* pending_values, std::size_t pending) {
        auto all_keys = allocate_or_oom<std::uint64_t>(std::max<std::size_t>(edges, 1), "GPMA rebuild");
        auto all_values = allocate_or_oom<float>(std::max<std::size_t>(edges, 1), "GPMA rebuild");
        // Everything as one window over the old array at its root level.
        const auto p = prefix();
        std::uint64_t root = 0;
        auto window = upload(&root, 1, stream);
        const std::uint64_t at = 0;
        auto scratch_at = upload(&at, 1, stream);
        const std::uint64_t pending_at_value = 0;
        auto pending_at = upload(&pending_at_value, 1, stream);
        const auto pending_count_value = static_cast<std::uint32_t>(pending);
        auto pending_count = upload(&pending_count_value, 1, stream);
        gather_window<<<1, 1024, 0, stream>>>(layout(), height(), window.get(), p.get(), scratch_at.get(), pending_at.get(),
                                              pending_count.get(), pending != 0 ? pending_keys : nullptr, pending_values,
                                              all_keys.get(), all_values.get());
        auto sorted_keys = allocate_or_oom<std::uint64_t>(std::max<std::size_t>(edges, 1), "GPMA rebuild");
        auto sorted_values = allocate_or_oom<float>(std::max<std::size_t>(edges, 1), "GPMA rebuild");
        run_cub([&](void* t, std::size_t& b) {
            return cub::DeviceRadixSort::SortPairs(t, b, all_keys.get(), sorted_keys.get(), all_values.get(), sorted_values.get(),
                                                   static_cast<int>(edges), 0, 64, stream);
        }, stream);
        allocate(new_capacity);
        const std::uint64_t count = edges;
        auto total_buffer = upload(&count, 1, stream);
        spread_window<<<1, 1024, 0, stream>>>(layout(), height(), window.get(), scratch_at.get(), total_buffer.get(),
                                              sorted_keys.get(), sorted_values.get());
        SPIKEMINER_CUDA_CHECK(cudaGetLastError());
        reindex();
    }

    template <typename T>
    static DeviceBuffer<T> upload(const T* host, std::size_t n, cudaStream_t s) {
        return spikeminer::detail::upload(host, n, "GPMA", s);
    }

    // Settles windows level by level from the leaves: `items` (sorted by leaf) are the
    // pending keys (inserts) or the leaves under their bound (erasures, keys == nullptr).
    // Returns how many pending keys no level could take (inserts only).
    std::size_t settle(DeviceBuffer<std::uint64_t>& leaf, DeviceBuffer<std::uint64_t>& pkeys, DeviceBuffer<float>& pvalues,
                       std::size_t n, bool inserting);
};

std::size_t GpuPma::State::settle(DeviceBuffer<std::uint64_t>& leaf, DeviceBuffer<std::uint64_t>& pkeys,
                                  DeviceBuffer<float>& pvalues, std::size_t n, bool inserting) {
    for (int level = inserting ? 0 : 1; level <= height() && n > 0; ++level) {
        const auto p = prefix();
        auto window_of = allocate_or_oom<std::uint64_t>(n, "GPMA level");
        shift_right<<<grid(n), kThreads, 0, stream>>>(n, leaf.get(), level, window_of.get());
        auto windows = allocate_or_oom<std::uint64_t>(n, "GPMA level");
        auto run_length = allocate_or_oom<std::uint32_t>(n, "GPMA level");
        auto runs_buffer = allocate_or_oom<std::uint64_t>(1, "GPMA level");
        run_cub([&](void* t, std::size_t& b) {
            return cub::DeviceRunLengthEncode::Encode(t, b, window_of.get(), windows.get(), run_length.get(), runs_buffer.get(),
                                                      static_cast<int>(n), stream);
        }, stream);
        std::uint64_t runs = 0;
        SPIKEMINER_CUDA_CHECK(cudaMemcpy(&runs, runs_buffer.get(), sizeof runs, cudaMemcpyDeviceToHost));
        // Erasures count leaves, not keys: nothing is added to a window.
        auto added = allocate_or_oom<std::uint32_t>(runs, "GPMA level");
        if (inserting) {
            SPIKEMINER_CUDA_CHECK(cudaMemcpyAsync(added.get(), run_length.get(), runs * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice, stream));
        } else {
            SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(added.get(), 0, runs * sizeof(std::uint32_t), stream));
        }
        const double slots = static_cast<double>((std::size_t{1} << level) * segment);
        const double bound = inserting ? PmaDensity::upper(level, height()) * slots : PmaDensity::lower(level, height()) * slots;
        auto ok = allocate_or_oom<unsigned char>(runs, "GPMA level");
        auto merged = allocate_or_oom<std::uint64_t>(runs, "GPMA level");
        decide<<<grid(runs), kThreads, 0, stream>>>(runs, windows.get(), added.get(), p.get(), level, bound, inserting, ok.get(),
                                                    merged.get());
        // Where each run's pending keys start.
        auto pending_at = allocate_or_oom<std::uint64_t>(runs, "GPMA level");
        run_cub([&](void* t, std::size_t& b) {
            return cub::DeviceScan::ExclusiveSum(t, b, run_length.get(), pending_at.get(), runs, stream);
        }, stream);
        // The settling runs, compacted.
        auto s_window = allocate_or_oom<std::uint64_t>(runs, "GPMA level");
        auto s_added = allocate_or_oom<std::uint32_t>(runs, "GPMA level");
        auto s_pending_at = allocate_or_oom<std::uint64_t>(runs, "GPMA level");
        auto s_total = allocate_or_oom<std::uint64_t>(runs, "GPMA level");
        auto settled_buffer = allocate_or_oom<std::uint64_t>(1, "GPMA level");
        const auto select = [&](auto* in, auto* out) {
            run_cub([&](void* t, std::size_t& b) {
                return cub::DeviceSelect::Flagged(t, b, in, ok.get(), out, settled_buffer.get(), static_cast<int>(runs), stream);
            }, stream);
        };
        select(windows.get(), s_window.get());
        select(added.get(), s_added.get());
        select(pending_at.get(), s_pending_at.get());
        select(merged.get(), s_total.get());
        std::uint64_t settled = 0;
        SPIKEMINER_CUDA_CHECK(cudaMemcpy(&settled, settled_buffer.get(), sizeof settled, cudaMemcpyDeviceToHost));
        if (settled == 0) continue;
        auto scratch_at = allocate_or_oom<std::uint64_t>(settled + 1, "GPMA level");
        SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(scratch_at.get(), 0, sizeof(std::uint64_t), stream));
        run_cub([&](void* t, std::size_t& b) {
            return cub::DeviceScan::InclusiveSum(t, b, s_total.get(), scratch_at.get() + 1, settled, stream);
        }, stream);
        std::uint64_t scratch_size = 0;
        SPIKEMINER_CUDA_CHECK(cudaMemcpy(&scratch_size, scratch_at.get() + settled, sizeof scratch_size, cudaMemcpyDeviceToHost));
        auto scratch_keys = allocate_or_oom<std::uint64_t>(std::max<std::uint64_t>(scratch_size, 1), "GPMA scratch");
        auto scratch_values = allocate_or_oom<float>(std::max<std::uint64_t>(scratch_size, 1), "GPMA scratch");
        gather_window<<<static_cast<unsigned>(settled), kThreads, 0, stream>>>(
            layout(), level, s_window.get(), p.get(), scratch_at.get(), s_pending_at.get(), s_added.get(),
            inserting ? pkeys.get() : nullptr, inserting ? pvalues.get() : nullptr, scratch_keys.get(), scratch_values.get());
        auto sorted_keys = allocate_or_oom<std::uint64_t>(std::max<std::uint64_t>(scratch_size, 1), "GPMA scratch");
        auto sorted_values = allocate_or_oom<float>(std::max<std::uint64_t>(scratch_size, 1), "GPMA scratch");
        if (inserting) {
            run_cub([&](void* t, std::size_t& b) {
                return cub::DeviceSegmentedSort::SortPairs(t, b, scratch_keys.get(), sorted_keys.get(), scratch_values.get(),
                                                           sorted_values.get(), static_cast<int>(scratch_size), static_cast<int>(settled),
                                                           scratch_at.get(), scratch_at.get() + 1, stream);
            }, stream);
        }
        // Erasures gather their windows in order already.
        const std::uint64_t* from_keys = inserting ? sorted_keys.get() : scratch_keys.get();
        const float* from_values = inserting ? sorted_values.get() : scratch_values.get();
        spread_window<<<static_cast<unsigned>(settled), kThreads, 0, stream>>>(layout(), level, s_window.get(), scratch_at.get(),
                                                                               s_total.get(), from_keys, from_values);
        // Drop the items whose windows settled.
        auto keep = allocate_or_oom<unsigned char>(n, "GPMA level");
        still_pending<<<grid(n), kThreads, 0, stream>>>(n, leaf.get(), level, s_window.get(), settled, keep.get());
        auto next_leaf = allocate_or_oom<std::uint64_t>(n, "GPMA level");
        auto count_buffer = allocate_or_oom<std::uint64_t>(1, "GPMA level");
        const auto keep_only = [&](auto* in, auto* out) {
            run_cub([&](void* t, std::size_t& b) {
                return cub::DeviceSelect::Flagged(t, b, in, keep.get(), out, count_buffer.get(), static_cast<int>(n), stream);
            }, stream);
        };
        keep_only(leaf.get(), next_leaf.get());
        if (inserting) {
            auto next_keys = allocate_or_oom<std::uint64_t>(n, "GPMA level");
            auto next_values = allocate_or_oom<float>(n, "GPMA level");
            keep_only(pkeys.get(), next_keys.get());
            keep_only(pvalues.get(), next_values.get());
            pkeys = std::move(next_keys);
            pvalues = std::move(next_values);
        }
        leaf = std::move(next_leaf);
        std::uint64_t left = 0;
        SPIKEMINER_CUDA_CHECK(cudaMemcpy(&left, count_buffer.get(), sizeof left, cudaMemcpyDeviceToHost));
        n = left;
        SPIKEMINER_CUDA_CHECK(cudaGetLastError());
    }
    return n;
}

namespace {

// The batch on the device, sorted by key, the last update of each key kept.
struct UniqueBatch {
    DeviceBuffer<std::uint64_t> keys;
    DeviceBuffer<float> values;
    std::size_t n = 0;
};

UniqueBatch unique_batch(std::span<const EdgeUpdate> batch, cudaStream_t stream) {
    UniqueBatch out;
    const std::size_t n = batch.size();
    if (n == 0) return out;
    if (n > static_cast<std::size_t>(INT_MAX)) throw Error("GPMA+: a batch holds at most 2^31 - 1 updates");
    auto updates = spikeminer::detail::upload(batch.data(), n, "GPMA batch", stream);
    auto keys = allocate_or_oom<std::uint64_t>(n, "GPMA batch");
    auto index = allocate_or_oom<std::uint32_t>(n, "GPMA batch");
    make_keys<<<grid(n), kThreads, 0, stream>>>(n, updates.get(), keys.get(), index.get());
    auto sorted_keys = allocate_or_oom<std::uint64_t>(n, "GPMA batch");
    auto sorted_index = allocate_or_oom<std::uint32_t>(n, "GPMA batch");
    run_cub([&](void* t, std::size_t& b) {
        return cub::DeviceRadixSort::SortPairs(t, b, keys.get(), sorted_keys.get(), index.get(), sorted_index.get(),
                                               static_cast<int>(n), 0, 64, stream);
    }, stream);
    auto flag = allocate_or_oom<unsigned char>(n, "GPMA batch");
    flag_last<<<grid(n), kThreads, 0, stream>>>(n, sorted_keys.get(), flag.get());
    auto all_values = allocate_or_oom<float>(n, "GPMA batch");
    gather_values<<<grid(n), kThreads, 0, stream>>>(n, sorted_index.get(), updates.get(), all_values.get());
    out.keys = allocate_or_oom<std::uint64_t>(n, "GPMA batch");
    out.values = allocate_or_oom<float>(n, "GPMA batch");
    auto count = allocate_or_oom<std::uint64_t>(1, "GPMA batch");
    run_cub([&](void* t, std::size_t& b) {
        return cub::DeviceSelect::Flagged(t, b, sorted_keys.get(), flag.get(), out.keys.get(), count.get(), static_cast<int>(n), stream);
    }, stream);
    run_cub([&](void* t, std::size_t& b) {
        return cub::DeviceSelect::Flagged(t, b, all_values.get(), flag.get(), out.values.get(), count.get(), static_cast<int>(n), stream);
    }, stream);
    std::uint64_t unique = 0;
    SPIKEMINER_CUDA_CHECK(cudaMemcpy(&unique, count.get(), sizeof unique, cudaMemcpyDeviceToHost));
    out.n = unique;
    return out;
}

std::size_t count_flags(const unsigned char* flags, std::size_t n, cudaStream_t stream) {
    auto sum = allocate_or_oom<std::uint64_t>(1, "GPMA batch");
    run_cub([&](void* t, std::size_t& b) {
        return cub::DeviceReduce::Sum(t, b, flags, sum.get(), static_cast<int>(n), stream);
    }, stream);
    std::uint64_t host = 0;
    SPIKEMINER_CUDA_CHECK(cudaMemcpy(&host, sum.get(), sizeof host, cudaMemcpyDeviceToHost));
    return host;
}

}  // namespace

GpuPma::GpuPma(Vertex vertices) : state_(std::make_unique<State>()) {
    if (vertices == ~Vertex{0}) throw Error("a dynamic graph holds at most 2^32 - 2 vertices");
    state_->vertices = vertices;
    SPIKEMINER_CUDA_CHECK(cudaStreamCreateWithFlags(&state_->stream, cudaStreamNonBlocking));
    state_->row_start = allocate_or_oom<std::uint64_t>(static_cast<std::size_t>(vertices) + 1, "GPMA row starts");
    state_->allocate(CpuPma::kMinCapacity);
    state_->reindex();
}

GpuPma::~GpuPma() {
    if (state_ && state_->stream != nullptr) cudaStreamDestroy(state_->stream);
}

// Keeps the items whose flag is set; returns how many.
template <typename T>
std::size_t keep_flagged(DeviceBuffer<T>& items, const unsigned char* flags, std::size_t n, cudaStream_t stream) {
    auto out = allocate_or_oom<T>(std::max<std::size_t>(n, 1), "GPMA batch");
    auto count = allocate_or_oom<std::uint64_t>(1, "GPMA batch");
    run_cub([&](void* t, std::size_t& b) {
        return cub::DeviceSelect::Flagged(t, b, items.get(), flags, out.get(), count.get(), static_cast<int>(n), stream);
    }, stream);
    std::uint64_t kept = 0;
    SPIKEMINER_CUDA_CHECK(cudaMemcpy(&kept, count.get(), sizeof kept, cudaMemcpyDeviceToHost));
    items = std::move(out);
    return kept;
}

std::size_t smallest_capacity(std::size_t edges, double density) {
    std::size_t capacity = CpuPma::kMinCapacity;
    while (static_cast<double>(edges) > density * static_cast<double>(capacity)) capacity *= 2;
    return capacity;
}

BatchResult GpuPma::insert_edges(std::span<const EdgeUpdate> batch) {
    for (const EdgeUpdate& u : batch) check_edge(u.src, u.dst, state_->vertices);
    State& s = *state_;
    UniqueBatch b = unique_batch(batch, s.stream);
    BatchResult result;
    if (b.n == 0) return result;
    auto absent = allocate_or_oom<unsigned char>(b.n, "GPMA batch");
    auto leaf = allocate_or_oom<std::uint64_t>(b.n, "GPMA batch");
    apply_existing<<<grid(b.n), kThreads, 0, s.stream>>>(b.n, s.layout(), Op::Insert, b.keys.get(), b.values.get(), absent.get(),
                                                         leaf.get());
    SPIKEMINER_CUDA_CHECK(cudaGetLastError());
    result.applied = count_flags(absent.get(), b.n, s.stream);
    result.ignored = b.n - result.applied;
    if (result.applied == 0) return result;
    // The new keys (in key order, so their leaves are in order) climb from their leaves.
    const std::size_t n = keep_flagged(b.keys, absent.get(), b.n, s.stream);
    keep_flagged(b.values, absent.get(), b.n, s.stream);
    keep_flagged(leaf, absent.get(), b.n, s.stream);
    s.edges += n;
    const std::size_t left = s.settle(leaf, b.keys, b.values, n, true);
    if (left != 0) {
        s.rebuild(std::max(2 * s.capacity, smallest_capacity(s.edges, PmaDensity::kRootUpper)), b.keys.get(), b.values.get(), left);
    } else {
        s.reindex();
    }
    return result;
}

BatchResult GpuPma::erase_edges(std::span<const EdgeRef> batch) {
    for (const EdgeRef& e : batch) check_edge(e.src, e.dst, state_->vertices);
    std::vector<EdgeUpdate> as_updates;
    as_updates.reserve(batch.size());
    for (const EdgeRef& e : batch) as_updates.push_back({e.src, e.dst, 0.0F});
    State& s = *state_;
    UniqueBatch b = unique_batch(as_updates, s.stream);
    BatchResult result;
    if (b.n == 0) return result;
    auto absent = allocate_or_oom<unsigned char>(b.n, "GPMA batch");
    auto slots = allocate_or_oom<std::uint64_t>(b.n, "GPMA batch");
    apply_existing<<<grid(b.n), kThreads, 0, s.stream>>>(b.n, s.layout(), Op::Erase, b.keys.get(), nullptr, absent.get(), nullptr,
                                                         slots.get());
    erase_slots<<<grid(b.n), kThreads, 0, s.stream>>>(b.n, absent.get(), slots.get(), s.keys.get());
    SPIKEMINER_CUDA_CHECK(cudaGetLastError());
    result.ignored = count_flags(absent.get(), b.n, s.stream);
    result.applied = b.n - result.ignored;
    if (result.applied == 0) return result;
    s.edges -= result.applied;
    repack<<<blocks_for(s.segs() * 32, kThreads), kThreads, 0, s.stream>>>(s.layout());
    // Leaves under their lower bound settle with the smallest window within its own.
    const auto bound = static_cast<std::uint32_t>(std::ceil(PmaDensity::lower(0, s.height()) * static_cast<double>(s.segment)));
    auto under = allocate_or_oom<unsigned char>(s.segs(), "GPMA batch");
    under_lower<<<grid(s.segs()), kThreads, 0, s.stream>>>(s.segs(), s.counts.get(), bound, under.get());
    auto leaves = allocate_or_oom<std::uint64_t>(s.segs(), "GPMA batch");
    iota64<<<grid(s.segs()), kThreads, 0, s.stream>>>(s.segs(), leaves.get());
    SPIKEMINER_CUDA_CHECK(cudaGetLastError());
    const std::size_t n = keep_flagged(leaves, under.get(), s.segs(), s.stream);
    DeviceBuffer<std::uint64_t> no_keys;
    DeviceBuffer<float> no_values;
    if (s.settle(leaves, no_keys, no_values, n, false) != 0) {
        // Even the root is under its bound: shrink (or, at the smallest size, even out).
        std::size_t capacity = s.capacity;
        while (capacity > CpuPma::kMinCapacity && static_cast<double>(s.edges) < PmaDensity::kRootLower * static_cast<double>(capacity)) {
            capacity /= 2;
        }
        s.rebuild(capacity, nullptr, nullptr, 0);
    } else {
        s.reindex();
    }
    return result;
}

BatchResult GpuPma::update_values(std::span<const EdgeUpdate> batch) {
    for (const EdgeUpdate& u : batch) check_edge(u.src, u.dst, state_->vertices);
    State& s = *state_;
    UniqueBatch b = unique_batch(batch, s.stream);
    BatchResult result;
    if (b.n == 0) return result;
    auto absent = allocate_or_oom<unsigned char>(b.n, "GPMA batch");
    apply_existing<<<grid(b.n), kThreads, 0, s.stream>>>(b.n, s.layout(), Op::Update, b.keys.get(), b.values.get(), absent.get(),
                                                         nullptr);
    SPIKEMINER_CUDA_CHECK(cudaGetLastError());
    result.ignored = count_flags(absent.get(), b.n, s.stream);
    result.applied = b.n - result.ignored;
    return result;
}

std::optional<float> GpuPma::find(Vertex src, Vertex dst) const {
    if (src >= state_->vertices || dst >= state_->vertices) return std::nullopt;
    State& s = *state_;
    const std::uint64_t key = (std::uint64_t{src} << 32) | dst;
    auto d_key = spikeminer::detail::upload(&key, 1, "GPMA find", s.stream);
    auto slot = allocate_or_oom<std::uint64_t>(1, "GPMA find");
    find_slots<<<1, 1, 0, s.stream>>>(1, s.layout(), d_key.get(), slot.get());
    std::uint64_t host_slot = kEmpty;
    SPIKEMINER_CUDA_CHECK(cudaMemcpyAsync(&host_slot, slot.get(), sizeof host_slot, cudaMemcpyDeviceToHost, s.stream));
    SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(s.stream));
    if (host_slot == kEmpty) return std::nullopt;
    float value = 0;
    SPIKEMINER_CUDA_CHECK(cudaMemcpy(&value, s.values.get() + host_slot, sizeof value, cudaMemcpyDeviceToHost));
    return value;
}

// Read through the vertex starts, as kernels read the view, so that a wrong start shows.
WeightedCsr GpuPma::to_csr() const {
    const State& s = *state_;
    std::vector<std::uint64_t> keys(s.capacity);
    std::vector<float> values(s.capacity);
    std::vector<std::uint64_t> starts(static_cast<std::size_t>(s.vertices) + 1);
    SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(s.stream));
    SPIKEMINER_CUDA_CHECK(cudaMemcpy(keys.data(), s.keys.get(), s.capacity * sizeof(std::uint64_t), cudaMemcpyDeviceToHost));
    SPIKEMINER_CUDA_CHECK(cudaMemcpy(values.data(), s.values.get(), s.capacity * sizeof(float), cudaMemcpyDeviceToHost));
    SPIKEMINER_CUDA_CHECK(cudaMemcpy(starts.data(), s.row_start.get(), starts.size() * sizeof(std::uint64_t), cudaMemcpyDeviceToHost));
    WeightedCsr csr;
    csr.offsets.push_back(0);
    for (Vertex v = 0; v < s.vertices; ++v) {
        for (std::uint64_t p = starts[v]; p < starts[v + 1]; ++p) {
            if (keys[p] == kEmpty) continue;
            csr.targets.push_back(static_cast<Vertex>(keys[p] & 0xffffffffU));
            csr.values.push_back(values[p]);
        }
        csr.offsets.push_back(csr.targets.size());
    }
    return csr;
}

GpmaView GpuPma::view() const {
    const State& s = *state_;
    return {s.keys.get(), s.values.get(), s.row_start.get(), s.vertices, s.capacity};
}

Vertex GpuPma::num_vertices() const { return state_->vertices; }
std::size_t GpuPma::num_edges() const { return state_->edges; }
std::size_t GpuPma::capacity() const { return state_->capacity; }
std::size_t GpuPma::segment_size() const { return state_->segment; }

std::vector<std::uint32_t> GpuPma::segment_counts() const {
    const State& s = *state_;
    std::vector<std::uint32_t> counts(s.segs());
    SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(s.stream));
    SPIKEMINER_CUDA_CHECK(cudaMemcpy(counts.data(), s.counts.get(), counts.size() * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
    return counts;
}

}  // namespace spikeminer::graph
