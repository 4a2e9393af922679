// GPMA+ on the device (see gpu_pma.hpp). The host orchestrates each batch as a fixed
// handful of kernels and CUB calls with four or five small read-backs, whatever the
// batch's size and the tree's height; scratch comes from an arena (no cudaMalloc/cudaFree
// per batch).
//
// Rebalancing. GPMA+ settles a batch level by level: at each level every window that can
// take its pending keys within its bound merges and spreads them, the rest move up. The
// decision for a window depends only on its keys before the batch and the batch's keys
// that fall in it, so each pending key (or, for erasures, each leaf under its bound) can
// find its own level at once: the smallest window around its leaf that fits. Two such
// windows are nested or disjoint; processing only the maximal ones gives the same result
// as the level-by-level loop (a window that settles at a lower level is inside a larger
// one that takes the same keys, and the larger one's count is the same before and after
// the smaller one's spread). So one pass: climb, keep the maximal windows, merge each
// window's keys with its pending ones (every key's place found by binary search), spread.
#include "device_arena.hpp"
#include "device_calls.cuh"
#include "device_index.cuh"
#include "device_stream.hpp"
#include "edge_batch.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/graph/cpu_pma.hpp"
#include "spikeminer/graph/gpu_pma.hpp"
#include "spikeminer/graph/graph.hpp"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <cuda/functional>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <bit>
#include <cmath>

namespace spikeminer::graph {
namespace {

using detail::gpu::SortedBatch;
using spikeminer::detail::allocate_or_oom;
using spikeminer::detail::blocks_for;
using spikeminer::detail::DeviceArena;
using spikeminer::detail::DeviceBuffer;
using spikeminer::detail::lower_bound;
using spikeminer::detail::run_cub_queued;
using spikeminer::detail::thread_index;

constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
constexpr int kThreads = 256;
constexpr int kMaxLevels = 48;

unsigned grid(std::size_t n) { return blocks_for(n, kThreads); }


struct Layout {
    std::uint64_t* keys;
    float* values;
    std::uint32_t* counts;
    const std::uint64_t* first_key;  // segs + 1: first key of the first non-empty segment at or after s
    const std::uint64_t* next;       // segs + 1: that segment (segs when none)
    std::size_t segs;
    std::size_t segment;

    // The last segment in [lo, hi) whose first_key is <= key (lo when none is).
    __device__ std::size_t leaf_in(std::uint64_t key, std::size_t lo, std::size_t hi) const {
        const std::size_t first_above = lo + 1 + lower_bound(first_key + lo + 1, 0, hi - lo - 1, key + 1);
        return first_above - 1;
    }
    // The leaf that holds or would hold `key`.
    __device__ std::size_t leaf(std::uint64_t key) const { return leaf_in(key, 0, segs); }
    // The slot of the first key >= `key` in the segment (its count when none is).
    __device__ std::size_t lower(std::size_t s, std::uint64_t key) const {
        return lower_bound(keys + s * segment, 0, counts[s], key);
    }
    // The slot holding `key`, or kEmpty.
    __device__ std::uint64_t find(std::uint64_t key) const {
        const std::size_t s = leaf(key);
        const std::size_t i = lower(s, key);
        return i < counts[s] && keys[s * segment + i] == key ? s * segment + i : kEmpty;
    }
};

// Density bounds per level as whole keys per window (PmaDensity's, for this height).
struct Bounds {
    std::uint64_t upper[kMaxLevels];
    std::uint64_t lower[kMaxLevels];
    std::uint64_t leaf_cap;  // no leaf may end up above this
    int height;
};

// A window being rebalanced: segments [first, last) of the layout it is read from,
// holding `existing` keys (ranks existing_from.. in the whole array) and taking the
// pending keys [pending_from, pending_from + pending); its merged keys go to `out`.
struct Window {
    std::uint64_t first, last;
    std::uint64_t existing_from, existing;
    std::uint64_t pending_from, pending;
    std::uint64_t out;
};

// ---- kernels -------------------------------------------------------------------------

enum class Op : int { Insert, Update, Erase };

// Each unique key of a batch: an existing key gets its value (insert, update) or its slot
// recorded (erase: emptied by erase_slots, so that no thread's binary search sees a
// segment change under it); `slot` is kEmpty for an absent key; inserts get the leaf
// and an absent flag.
__global__ void apply_existing(std::size_t n, Layout layout, Op op, const std::uint64_t* keys, const float* values,
                               std::uint64_t* slot, std::uint64_t* leaf = nullptr, unsigned char* absent = nullptr) {
    const std::size_t i = thread_index();
    if (i >= n) return;
    const std::uint64_t at = layout.find(keys[i]);
    slot[i] = at;
    if (leaf != nullptr) leaf[i] = layout.leaf(keys[i]);
    if (absent != nullptr) absent[i] = at == kEmpty;
    if (at != kEmpty && op != Op::Erase) layout.values[at] = values[i];
}

// Empties the erased slots; leaf[i] = the erased key's segment, kEmpty where the
// previous erased key was in the same segment (one entry per touched segment) and past
// the `n` erased keys.
__global__ void erase_slots(std::size_t bound, const unsigned long long* n, const std::uint64_t* slot, std::size_t segment,
                            std::uint64_t* keys, std::uint64_t* leaf) {
    const std::size_t i = thread_index();
    if (i >= bound) return;
    if (i >= *n) {
        leaf[i] = kEmpty;
        return;
    }
    keys[slot[i]] = kEmpty;
    const std::uint64_t s = slot[i] / segment;
    leaf[i] = i > 0 && slot[i - 1] / segment == s ? kEmpty : s;
}

// One warp per touched segment: packs the keys left after erasures to the front.
__global__ void repack(Layout layout, const unsigned long long* n, const std::uint64_t* leaf) {
    const std::size_t w = thread_index() / 32;
    const unsigned lane = threadIdx.x % 32;
    if (w >= *n || leaf[w] == kEmpty) return;
    const std::size_t s = leaf[w];
    std::uint64_t* run = layout.keys + s * layout.segment;
    float* vals = layout.values + s * layout.segment;
    const bool mine = lane < layout.segment && lane < layout.counts[s];
    const std::uint64_t key = mine ? run[lane] : kEmpty;
    const float value = mine ? vals[lane] : 0.0F;
    const unsigned kept = __ballot_sync(0xffffffffU, key != kEmpty);
    if (lane < layout.segment) run[lane] = kEmpty;
    __syncwarp();
    if (key != kEmpty) {
        const unsigned at = __popc(kept & ((1U << lane) - 1));
        run[at] = key;
        vals[at] = value;
    }
    if (lane == 0) layout.counts[s] = __popc(kept);
}

struct UnderBound {
    const std::uint32_t* counts;
    std::uint32_t bound;
    __device__ bool operator()(std::uint64_t leaf) const { return leaf != kEmpty && counts[leaf] < bound; }
};

struct Present {
    __device__ bool operator()(std::uint64_t slot) const { return slot != kEmpty; }
};

// Each seed (a pending key's leaf, or a leaf under its bound) climbs to the smallest
// window that fits: code = first segment * 64 + (63 - level), so that sorted codes list
// windows by start, larger first.
__global__ void climb(std::size_t n, const std::uint64_t* seed, const std::uint64_t* pending_leaf, std::size_t pending,
                      const std::uint64_t* prefix, Bounds bounds, bool inserting, std::uint64_t* code) {
    const std::size_t j = thread_index();
    if (j >= n) return;
    const std::uint64_t leaf = seed[j];
    for (int level = 0;; ++level) {
        const std::uint64_t first = leaf >> level << level;
        const std::uint64_t last = first + (std::uint64_t{1} << level);
        const std::uint64_t existing = prefix[last] - prefix[first];
        bool fits = false;
        if (inserting) {
            const std::uint64_t total = existing + lower_bound(pending_leaf, 0, pending, last) - lower_bound(pending_leaf, 0, pending, first);
            const std::uint64_t widest = (total + (last - first) - 1) / (last - first);
            fits = total <= bounds.upper[level] && widest <= bounds.leaf_cap;
        } else {
            fits = existing >= bounds.lower[level];
        }
        if (fits || level == bounds.height) {
            code[j] = first * 64 + static_cast<std::uint64_t>(63 - level);
            return;
        }
    }
}

// end = the window's last segment + 1.
__global__ void window_ends(std::size_t n, const std::uint64_t* code, std::uint64_t* end) {
    const std::size_t j = thread_index();
    if (j < n) end[j] = (code[j] / 64) + (std::uint64_t{1} << (63 - code[j] % 64));
}

// A window is kept when no earlier (or equal) one covers it.
__global__ void maximal(std::size_t n, const std::uint64_t* code, const std::uint64_t* end_before, unsigned char* keep) {
    const std::size_t j = thread_index();
    if (j < n) keep[j] = code[j] / 64 >= end_before[j];
}

__global__ void make_windows(const unsigned long long* n, const std::uint64_t* code, const std::uint64_t* prefix,
                             const std::uint64_t* pending_leaf, std::size_t pending, std::size_t segment, Window* windows,
                             std::uint64_t* slots) {
    const std::size_t w = thread_index();
    if (w >= *n) return;
    Window win;
    win.first = code[w] / 64;
    win.last = win.first + (std::uint64_t{1} << (63 - code[w] % 64));
    win.existing_from = prefix[win.first];
    win.existing = prefix[win.last] - prefix[win.first];
    win.pending_from = lower_bound(pending_leaf, 0, pending, win.first);
    win.pending = lower_bound(pending_leaf, 0, pending, win.last) - win.pending_from;
    win.out = win.first * segment;
    windows[w] = win;
    slots[w] = (win.last - win.first) * segment;
}

// The window holding flat position t (slot_at: each window's first flat position).
__device__ std::size_t window_at(const std::uint64_t* slot_at, std::size_t windows, std::uint64_t t) {
    return lower_bound(slot_at, 0, windows + 1, t + 1) - 1;
}

// One thread per slot of the windows: each existing key goes to its rank among the
// window's keys and pending keys.
__global__ void gather_existing(std::uint64_t slots, const Window* windows, std::size_t count, const std::uint64_t* slot_at,
                                Layout layout, const std::uint64_t* prefix, const std::uint64_t* pending_keys, std::uint64_t* out_keys,
                                float* out_values) {
    const std::uint64_t t = thread_index();
    if (t >= slots) return;
    const std::size_t w = window_at(slot_at, count, t);
    const Window win = windows[w];
    const std::uint64_t local = t - slot_at[w];
    const std::size_t s = win.first + local / layout.segment;
    const std::size_t i = local % layout.segment;
    if (i >= layout.counts[s]) return;
    const std::uint64_t key = layout.keys[s * layout.segment + i];
    const std::uint64_t before = win.pending == 0 ? 0
        : lower_bound(pending_keys, win.pending_from, win.pending_from + win.pending, key) - win.pending_from;
    const std::uint64_t at = win.out + (prefix[s] - win.existing_from + i) + before;
    out_keys[at] = key;
    out_values[at] = layout.values[s * layout.segment + i];
}

// One thread per pending key: to its rank among its window's keys.
__global__ void gather_pending(std::size_t n, const std::uint64_t* pending_keys, const float* pending_values,
                               const std::uint64_t* pending_leaf, const Window* windows, std::size_t count, Layout layout,
                               const std::uint64_t* prefix, std::uint64_t* out_keys, float* out_values) {
    const std::size_t j = thread_index();
    if (j >= n) return;
    // The last window starting at or before the key's leaf holds it.
    std::size_t lo = 0;
    std::size_t hi = count;
    while (lo < hi) {
        const std::size_t mid = (lo + hi) / 2;
        if (windows[mid].first <= pending_leaf[j]) lo = mid + 1; else hi = mid;
    }
    const Window win = windows[lo - 1];
    const std::uint64_t key = pending_keys[j];
    // Existing keys below it: all of those before the last segment (of the window) that
    // starts at or below it, plus those below it in that segment. An empty segment's
    // first_key is the next non-empty one's, so the search stays monotone.
    const std::size_t s = layout.leaf_in(key, win.first, win.last);
    const std::uint64_t below = layout.first_key[s] <= key ? prefix[s] - win.existing_from + layout.lower(s, key) : 0;
    const std::uint64_t at = win.out + (j - win.pending_from) + below;
    out_keys[at] = key;
    out_values[at] = pending_values[j];
}

// One thread per slot of the windows: the window's merged keys spread evenly over its
// segments (the first total % m segments take one more), each segment packed at the front.
__global__ void spread(std::uint64_t slots, const Window* windows, std::size_t count, const std::uint64_t* slot_at, Layout layout,
                       const std::uint64_t* in_keys, const float* in_values) {
    const std::uint64_t t = thread_index();
    if (t >= slots) return;
    const std::size_t w = window_at(slot_at, count, t);
    const Window win = windows[w];
    const std::uint64_t local = t - slot_at[w];
    const std::uint64_t k = local / layout.segment;
    const std::uint64_t i = local % layout.segment;
    const std::uint64_t m = win.last - win.first;
    const std::uint64_t total = win.existing + win.pending;
    const std::uint64_t share = total / m + (k < total % m ? 1 : 0);
    const std::uint64_t from = win.out + k * (total / m) + min(k, total % m) + i;
    const std::size_t slot = (win.first + k) * layout.segment + i;
    if (i < share) {
        layout.keys[slot] = in_keys[from];
        layout.values[slot] = in_values[from];
    } else {
        layout.keys[slot] = kEmpty;
    }
    if (i == 0) layout.counts[win.first + k] = static_cast<std::uint32_t>(share);
}

// reversed[j] = the segment segs-1-j if it holds keys, else segs (for a suffix minimum).
__global__ void nonempty_reversed(std::size_t segs, const std::uint32_t* counts, std::uint64_t* reversed) {
    const std::size_t j = thread_index();
    if (j < segs) reversed[j] = counts[segs - 1 - j] > 0 ? segs - 1 - j : segs;
}

__global__ void first_keys(std::size_t segs, std::size_t segment, const std::uint64_t* scanned, const std::uint64_t* keys,
                           std::uint64_t* next, std::uint64_t* first_key) {
    const std::size_t s = thread_index();
    if (s > segs) return;
    const std::uint64_t t = s == segs ? segs : scanned[segs - 1 - s];
    next[s] = t;
    first_key[s] = t < segs ? keys[t * segment] : kEmpty;
}

// row_start[v]: the slot of v's first key, or of the first key after it.
__global__ void row_starts(std::size_t vertices, Layout layout, std::uint64_t capacity, std::uint64_t* row_start) {
    const std::size_t v = thread_index();
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

__global__ void find_slot(Layout layout, std::uint64_t key, std::uint64_t* slot) { *slot = layout.find(key); }

}  // namespace

struct GpuPma::State {
    Vertex vertices;
    std::size_t edges = 0;
    std::size_t segment = 8;
    std::size_t capacity = 0;
    DeviceBuffer<std::uint64_t> keys;
    DeviceBuffer<float> values;
    DeviceBuffer<std::uint32_t> counts;
    DeviceBuffer<std::uint64_t> first_key;
    DeviceBuffer<std::uint64_t> next;
    DeviceBuffer<std::uint64_t> row_start;  // vertices + 1
    DeviceArena arena;
    spikeminer::detail::DeviceStream owned_stream;
    cudaStream_t stream = owned_stream.get();

    [[nodiscard]] std::size_t segs() const { return capacity / segment; }
    [[nodiscard]] int height() const { return static_cast<int>(std::bit_width(segs())) - 1; }
    Layout layout() { return {keys.get(), values.get(), counts.get(), first_key.get(), next.get(), segs(), segment}; }

    template <typename T>
    T* take(std::size_t n) { return arena.take<T>(n, "GPMA+ scratch"); }

    template <typename T>
    T read(const T* device_value) { return spikeminer::detail::read_one(device_value, stream); }

    void check() { SPIKEMINER_CUDA_CHECK(cudaGetLastError()); }

    [[nodiscard]] Bounds bounds() const {
        Bounds b{};
        b.height = height();
        for (int level = 0; level <= b.height; ++level) {
            const double slots = static_cast<double>((std::size_t{1} << level) * segment);
            b.upper[level] = static_cast<std::uint64_t>(std::floor(PmaDensity::upper(level, b.height) * slots));
            b.lower[level] = static_cast<std::uint64_t>(std::ceil(PmaDensity::lower(level, b.height) * slots));
        }
        b.leaf_cap = static_cast<std::uint64_t>(std::floor(PmaDensity::kLeafUpper * static_cast<double>(segment)));
        return b;
    }

    // Counts' exclusive prefix (segs + 1 entries), in the arena.
    std::uint64_t* prefix() {
        auto* out = take<std::uint64_t>(segs() + 1);
        SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(std::uint64_t), stream));
        const auto widened = thrust::make_transform_iterator(counts.get(), spikeminer::detail::Widen{});
        run_cub_queued(arena, [&](void* t, std::size_t& b) {
            return cub::DeviceScan::InclusiveSum(t, b, widened, out + 1, segs(), stream);
        });
        return out;
    }

    // The segment index (first keys, next non-empty segments) and the vertex starts.
    void reindex() {
        const std::size_t n = segs();
        auto* reversed = take<std::uint64_t>(n);
        auto* scanned = take<std::uint64_t>(n);
        nonempty_reversed<<<grid(n), kThreads, 0, stream>>>(n, counts.get(), reversed);
        run_cub_queued(arena, [&](void* t, std::size_t& b) {
            return cub::DeviceScan::InclusiveScan(t, b, reversed, scanned, cuda::minimum<>{}, n, stream);
        });
        first_keys<<<grid(n + 1), kThreads, 0, stream>>>(n, segment, scanned, keys.get(), next.get(), first_key.get());
        row_starts<<<grid(static_cast<std::size_t>(vertices) + 1), kThreads, 0, stream>>>(vertices, layout(), capacity,
                                                                                           row_start.get());
        check();
    }

    // Empty arrays of `new_capacity` slots, swapped in only once all are allocated (a
    // failure leaves the structure as it was).
    void allocate(std::size_t new_capacity) {
        const std::size_t new_segment = PmaDensity::segment_size(new_capacity);
        if (new_segment > 32) throw Error("GPMA+: segments of more than 32 slots (over 2^32 slots) are not supported");
        const std::size_t new_segs = new_capacity / new_segment;
        auto new_keys = allocate_or_oom<std::uint64_t>(new_capacity, "GPMA+ keys");
        auto new_values = allocate_or_oom<float>(new_capacity, "GPMA+ values");
        auto new_counts = allocate_or_oom<std::uint32_t>(new_segs, "GPMA+ counts");
        auto new_first_key = allocate_or_oom<std::uint64_t>(new_segs + 1, "GPMA+ index");
        auto new_next = allocate_or_oom<std::uint64_t>(new_segs + 1, "GPMA+ index");
        SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(new_keys.get(), 0xff, new_capacity * sizeof(std::uint64_t), stream));
        SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(new_counts.get(), 0, new_segs * sizeof(std::uint32_t), stream));
        keys = std::move(new_keys);
        values = std::move(new_values);
        counts = std::move(new_counts);
        first_key = std::move(new_first_key);
        next = std::move(new_next);
        capacity = new_capacity;
        segment = new_segment;
    }

    Window* upload_window(const Window& w, std::uint64_t** slot_at) {
        auto* out = take<Window>(1);
        SPIKEMINER_CUDA_CHECK(cudaMemcpyAsync(out, &w, sizeof w, cudaMemcpyHostToDevice, stream));
        *slot_at = take<std::uint64_t>(2);
        const std::uint64_t at[2] = {0, (w.last - w.first) * segment};
        SPIKEMINER_CUDA_CHECK(cudaMemcpyAsync(*slot_at, at, sizeof at, cudaMemcpyHostToDevice, stream));
        return out;
    }

    // Every key and the pending ones merged and spread evenly over `new_capacity` slots
    // (the root as one window: growth, shrinking, and batches large against the graph).
    // `edges` already counts the pending keys.
    void rebuild(std::size_t new_capacity, const SortedBatch& pending, const std::uint64_t* pending_leaf) {
        const std::uint64_t* p = prefix();
        const std::uint64_t existing = edges - pending.n;
        std::uint64_t* slot_at = nullptr;
        const Window* root = upload_window({0, segs(), 0, existing, 0, pending.n, 0}, &slot_at);
        auto* merged_keys = take<std::uint64_t>(edges);
        auto* merged_values = take<float>(edges);
        gather_existing<<<grid(capacity), kThreads, 0, stream>>>(capacity, root, 1, slot_at, layout(), p, pending.keys, merged_keys,
                                                                 merged_values);
        if (pending.n != 0) {
            gather_pending<<<grid(pending.n), kThreads, 0, stream>>>(pending.n, pending.keys, pending.values, pending_leaf, root, 1,
                                                                     layout(), p, merged_keys, merged_values);
        }
        check();
        if (new_capacity != capacity) {
            SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(stream));  // the old arrays are read until here
            allocate(new_capacity);
        }
        const Window* all = upload_window({0, segs(), 0, existing, 0, pending.n, 0}, &slot_at);
        spread<<<grid(capacity), kThreads, 0, stream>>>(capacity, all, 1, slot_at, layout(), merged_keys, merged_values);
        check();
    }

    // Rebalances the smallest fitting window around each seed leaf (sorted), merging the
    // pending keys (sorted, with their leaves; none for erasures).
    void settle(const std::uint64_t* seeds, std::size_t n, const SortedBatch& pending, const std::uint64_t* pending_leaf, bool inserting) {
        const std::uint64_t* p = prefix();
        auto* code = take<std::uint64_t>(n);
        climb<<<grid(n), kThreads, 0, stream>>>(n, seeds, pending_leaf, pending.n, p, bounds(), inserting, code);
        auto* sorted = take<std::uint64_t>(n);
        const int bits = 6 + static_cast<int>(std::bit_width(segs()));
        run_cub_queued(arena, [&](void* t, std::size_t& b) {
            return cub::DeviceRadixSort::SortKeys(t, b, code, sorted, static_cast<int>(n), 0, bits, stream);
        });
        auto* end = take<std::uint64_t>(n);
        window_ends<<<grid(n), kThreads, 0, stream>>>(n, sorted, end);
        auto* end_before = take<std::uint64_t>(n);
        run_cub_queued(arena, [&](void* t, std::size_t& b) {
            return cub::DeviceScan::ExclusiveScan(t, b, end, end_before, cuda::maximum<>{}, std::uint64_t{0}, n, stream);
        });
        auto* keep = take<unsigned char>(n);
        maximal<<<grid(n), kThreads, 0, stream>>>(n, sorted, end_before, keep);
        auto* chosen = take<std::uint64_t>(n);
        auto* count = take<unsigned long long>(1);
        run_cub_queued(arena, [&](void* t, std::size_t& b) {
            return cub::DeviceSelect::Flagged(t, b, sorted, keep, chosen, count, static_cast<int>(n), stream);
        });
        auto* windows = take<Window>(n);
        auto* slots = take<std::uint64_t>(n);
        make_windows<<<grid(n), kThreads, 0, stream>>>(count, chosen, p, pending_leaf, pending.n, segment, windows, slots);
        check();
        const std::size_t w = read(count);
        auto* slot_at = take<std::uint64_t>(w + 1);
        SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(slot_at, 0, sizeof(std::uint64_t), stream));
        run_cub_queued(arena, [&](void* t, std::size_t& b) {
            return cub::DeviceScan::InclusiveSum(t, b, slots, slot_at + 1, w, stream);
        });
        const std::uint64_t total_slots = read(slot_at + w);
        auto* merged_keys = take<std::uint64_t>(capacity);
        auto* merged_values = take<float>(capacity);
        gather_existing<<<grid(total_slots), kThreads, 0, stream>>>(total_slots, windows, w, slot_at, layout(), p, pending.keys,
                                                                    merged_keys, merged_values);
        if (pending.n != 0) {
            gather_pending<<<grid(pending.n), kThreads, 0, stream>>>(pending.n, pending.keys, pending.values, pending_leaf, windows, w,
                                                                     layout(), p, merged_keys, merged_values);
        }
        spread<<<grid(total_slots), kThreads, 0, stream>>>(total_slots, windows, w, slot_at, layout(), merged_keys, merged_values);
        check();
    }

    // Applies a unique batch to the keys it names that exist (new values, or, for an
    // erase, nothing yet) and lists their slots, in key order; *count (on the device)
    // says how many.
    std::uint64_t* existing_slots(const SortedBatch& b, Op op, unsigned long long* count) {
        auto* slot = take<std::uint64_t>(b.n);
        apply_existing<<<grid(b.n), kThreads, 0, stream>>>(b.n, layout(), op, b.keys, b.values, slot);
        auto* present = take<std::uint64_t>(b.n);
        run_cub_queued(arena, [&](void* t, std::size_t& bytes) {
            return cub::DeviceSelect::If(t, bytes, slot, present, count, static_cast<int>(b.n), Present{}, stream);
        });
        check();
        return present;
    }

    void finish() {
        reindex();
        SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(stream));
    }

    BatchResult insert(const EdgeUpdate* batch, std::size_t n);
    BatchResult erase(const EdgeRef* batch, std::size_t n);
    BatchResult update(const EdgeUpdate* batch, std::size_t n);
};

BatchResult GpuPma::State::insert(const EdgeUpdate* batch, std::size_t size) {
    const SortedBatch b = detail::gpu::sorted_unique_batch(batch, size, vertices, arena, stream);
    BatchResult result;
    if (b.n == 0) return result;
    auto* slot = take<std::uint64_t>(b.n);
    auto* leaf = take<std::uint64_t>(b.n);
    auto* absent = take<unsigned char>(b.n);
    apply_existing<<<grid(b.n), kThreads, 0, stream>>>(b.n, layout(), Op::Insert, b.keys, b.values, slot, leaf, absent);
    check();
    // The new keys (in key order, so their leaves are in order).
    auto* count = take<unsigned long long>(1);
    SortedBatch fresh{take<std::uint64_t>(b.n), take<float>(b.n), 0};
    auto* fresh_leaf = take<std::uint64_t>(b.n);
    const auto keep_absent = [&](auto* in, auto* out) {
        run_cub_queued(arena, [&](void* t, std::size_t& bytes) {
            return cub::DeviceSelect::Flagged(t, bytes, in, absent, out, count, static_cast<int>(b.n), stream);
        });
    };
    keep_absent(b.keys, fresh.keys);
    keep_absent(b.values, fresh.values);
    keep_absent(leaf, fresh_leaf);
    fresh.n = read(count);
    result.applied = fresh.n;
    result.ignored = b.n - fresh.n;
    if (fresh.n == 0) return result;
    edges += fresh.n;
    try {  // every allocation comes before the first write to the array
        if (static_cast<double>(edges) > PmaDensity::kRootUpper * static_cast<double>(capacity)) {
            rebuild(PmaDensity::capacity_for(edges, PmaDensity::kRootUpper, 2 * capacity), fresh, fresh_leaf);
        } else if (fresh.n * 16 >= edges) {
            rebuild(capacity, fresh, fresh_leaf);  // a batch this large touches most windows anyway
        } else {
            settle(fresh_leaf, fresh.n, fresh, fresh_leaf, true);
        }
    } catch (...) {
        edges -= fresh.n;
        throw;
    }
    finish();
    return result;
}

BatchResult GpuPma::State::erase(const EdgeRef* batch, std::size_t size) {
    const SortedBatch b = detail::gpu::sorted_unique_batch(batch, size, vertices, arena, stream);
    BatchResult result;
    if (b.n == 0) return result;
    auto* count = take<unsigned long long>(2);  // erased keys, then seeds (one read for both)
    auto* seed_count = count + 1;
    const std::uint64_t* present = existing_slots(b, Op::Erase, count);
    auto* touched = take<std::uint64_t>(b.n);
    erase_slots<<<grid(b.n), kThreads, 0, stream>>>(b.n, count, present, segment, keys.get(), touched);
    repack<<<blocks_for(b.n * 32, kThreads), kThreads, 0, stream>>>(layout(), count, touched);
    check();
    // Touched leaves now under their bound are the seeds (untouched ones kept theirs).
    auto* seeds = take<std::uint64_t>(b.n);
    const auto bound = static_cast<std::uint32_t>(bounds().lower[0]);
    run_cub_queued(arena, [&](void* t, std::size_t& bytes) {
        return cub::DeviceSelect::If(t, bytes, touched, seeds, seed_count, static_cast<int>(b.n), UnderBound{counts.get(), bound}, stream);
    });
    unsigned long long counted[2] = {0, 0};
    SPIKEMINER_CUDA_CHECK(cudaMemcpyAsync(counted, count, sizeof counted, cudaMemcpyDeviceToHost, stream));
    SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(stream));
    result.applied = counted[0];
    result.ignored = b.n - result.applied;
    if (result.applied == 0) return result;
    edges -= result.applied;
    const std::size_t n = counted[1];
    std::size_t smaller = capacity;
    while (smaller > CpuPma::kMinCapacity && static_cast<double>(edges) < PmaDensity::kRootLower * static_cast<double>(smaller)) {
        smaller /= 2;
    }
    // (Rebuilding in place for large erase batches, as inserts do, was measured slower:
    // 16.6 M-edge R-MAT, 1 M-edge slides, 2.9 -> 3.5 ms a slide on the H200.)
    try {
        if (smaller != capacity) {
            rebuild(smaller, {}, nullptr);
        } else if (n != 0) {
            settle(seeds, n, {}, nullptr, false);
        }
    } catch (...) {
        finish();  // the erasures are done: index them (some leaves stay under their bound)
        throw;
    }
    finish();
    return result;
}

BatchResult GpuPma::State::update(const EdgeUpdate* batch, std::size_t size) {
    const SortedBatch b = detail::gpu::sorted_unique_batch(batch, size, vertices, arena, stream);
    BatchResult result;
    if (b.n == 0) return result;
    auto* count = take<unsigned long long>(1);
    existing_slots(b, Op::Update, count);
    result.applied = read(count);
    result.ignored = b.n - result.applied;
    return result;
}

GpuPma::GpuPma(Vertex vertices) : state_((check_vertex_count(vertices), std::make_unique<State>())) {
    State& s = *state_;
    s.vertices = vertices;
    s.row_start = allocate_or_oom<std::uint64_t>(static_cast<std::size_t>(vertices) + 1, "GPMA+ row starts");
    s.allocate(CpuPma::kMinCapacity);
    s.finish();
}

GpuPma::~GpuPma() = default;

// Each call starts a fresh arena: the previous call waited for its stream before returning.
BatchResult GpuPma::insert_edges(std::span<const EdgeUpdate> batch) {
    state_->arena.reset();
    return state_->insert(detail::gpu::upload_batch(batch.data(), batch.size(), state_->arena, state_->stream), batch.size());
}

BatchResult GpuPma::erase_edges(std::span<const EdgeRef> batch) {
    state_->arena.reset();
    return state_->erase(detail::gpu::upload_batch(batch.data(), batch.size(), state_->arena, state_->stream), batch.size());
}

BatchResult GpuPma::update_values(std::span<const EdgeUpdate> batch) {
    state_->arena.reset();
    return state_->update(detail::gpu::upload_batch(batch.data(), batch.size(), state_->arena, state_->stream), batch.size());
}

BatchResult GpuPma::insert_edges_device(const EdgeUpdate* batch, std::size_t n) {
    spikeminer::detail::wait_for_legacy_stream();
    state_->arena.reset();
    return state_->insert(batch, n);
}

BatchResult GpuPma::erase_edges_device(const EdgeRef* batch, std::size_t n) {
    spikeminer::detail::wait_for_legacy_stream();
    state_->arena.reset();
    return state_->erase(batch, n);
}

BatchResult GpuPma::update_values_device(const EdgeUpdate* batch, std::size_t n) {
    spikeminer::detail::wait_for_legacy_stream();
    state_->arena.reset();
    return state_->update(batch, n);
}

std::optional<float> GpuPma::find(Vertex src, Vertex dst) const {
    if (src >= state_->vertices || dst >= state_->vertices) return std::nullopt;
    State& s = *state_;
    s.arena.reset();
    auto* slot = s.take<std::uint64_t>(1);
    find_slot<<<1, 1, 0, s.stream>>>(s.layout(), edge_key(src, dst), slot);
    s.check();
    const std::uint64_t at = s.read(slot);
    if (at == kEmpty) return std::nullopt;
    return s.read(s.values.get() + at);
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
            csr.targets.push_back(key_dst(keys[p]));
            csr.values.push_back(values[p]);
        }
        csr.offsets.push_back(csr.targets.size());
    }
    return csr;
}

GpmaView GpuPma::view() const {
    const State& s = *state_;
    return {s.keys.get(), s.values.get(), s.row_start.get(), s.vertices, s.capacity, s.counts.get(), s.segment};
}

Vertex GpuPma::num_vertices() const { return state_->vertices; }
std::size_t GpuPma::num_edges() const { return state_->edges; }
std::size_t GpuPma::capacity() const { return state_->capacity; }
std::size_t GpuPma::segment_size() const { return state_->segment; }

std::vector<std::uint32_t> GpuPma::segment_counts() const {
    const State& s = *state_;
    std::vector<std::uint32_t> out(s.segs());
    SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(s.stream));
    SPIKEMINER_CUDA_CHECK(cudaMemcpy(out.data(), s.counts.get(), out.size() * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
    return out;
}

}  // namespace spikeminer::graph
