// GPMA+ on the device (see gpu_pma.hpp). The host queues each batch as a fixed handful
// of kernels and CUB calls, whatever the batch's size and the tree's height, and reads
// nothing back: counts stay on the device and launches are sized by the batch's length,
// so the host waits only where a resize has to be decided. Scratch comes from an arena
// (no cudaMalloc/cudaFree per batch).
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
#include "device_graph.hpp"
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
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <map>

namespace spikeminer::graph {
namespace {

using detail::gpu::BatchCounts;
using detail::gpu::SortedBatch;
using spikeminer::detail::allocate_or_oom;
using spikeminer::detail::blocks_for;
using spikeminer::detail::DeviceArena;
using spikeminer::detail::DeviceBuffer;
using spikeminer::detail::download;
using spikeminer::detail::lower_bound;
using spikeminer::detail::run_cub_queued;
using spikeminer::detail::thread_index;

constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
constexpr int kThreads = 256;
constexpr int kMaxLevels = 48;
constexpr std::size_t kGraphSlots = std::size_t{1} << 16;  // the largest batch replayed as a graph
constexpr std::size_t kSearchWindowsUpTo = 4096;          // more windows: a map from segments to windows

unsigned grid(std::size_t n) { return blocks_for(n, kThreads); }
// Kernels that loop over a count only the device knows (at most n): a bounded grid.
unsigned strided(std::size_t n) { return std::min(grid(n), 2048U); }


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

// What the batches queued since the last wait did (device memory), and the edge count.
struct Totals {
    unsigned long long edges;
    unsigned long long applied;
    unsigned long long ignored;
    unsigned long long failed;  // batches that named a bad vertex id
    Vertex bad_src, bad_dst;    // the first of those's first bad update
};

// ---- kernels -------------------------------------------------------------------------
// Counts that only the device knows (keys in a batch, windows, seeds) are read by the
// kernels themselves; the host sizes every launch by the batch's length (or, for the
// kernels over a window's slots, loops a bounded grid over them).

__device__ std::uint64_t grid_stride() { return static_cast<std::uint64_t>(gridDim.x) * blockDim.x; }

enum class Op : int { Insert, Update, Erase };

// Each unique key of a batch (the first *n of `bound`): an existing key gets its value
// (insert, update) or its slot recorded (erase: emptied by erase_slots_kernel, so that no
// thread's binary search sees a segment change under it); `slot` is kEmpty for an
// absent key and past *n; inserts get each key's leaf.
__global__ void apply_existing_kernel(std::size_t bound, const unsigned long long* n, Layout layout, Op op, const std::uint64_t* keys,
                               const float* values, std::uint64_t* slot, std::uint64_t* leaf = nullptr) {
    const std::size_t i = thread_index();
    if (i >= bound) return;
    if (i >= *n) {
        slot[i] = kEmpty;
        return;
    }
    const std::uint64_t at = layout.find(keys[i]);
    slot[i] = at;
    if (leaf != nullptr) leaf[i] = layout.leaf(keys[i]);
    if (at != kEmpty && op != Op::Erase) layout.values[at] = values[i];
}

// 1 for a key of the batch that is not in the array yet.
struct Absent {
    const std::uint64_t* slot;
    const unsigned long long* n;
    __device__ unsigned operator()(std::size_t i) const { return i < *n && slot[i] == kEmpty ? 1U : 0U; }
};

// The new keys, values and leaves, in key order, at `position` (the exclusive scan of
// Absent); the last thread writes how many.
__global__ void take_fresh_kernel(std::size_t bound, Absent absent, const unsigned* position, const std::uint64_t* keys, const float* values,
                           const std::uint64_t* leaf, std::uint64_t* fresh_keys, float* fresh_values, std::uint64_t* fresh_leaf,
                           unsigned long long* fresh) {
    const std::size_t i = thread_index();
    if (i >= bound) return;
    const unsigned is_new = absent(i);
    if (is_new != 0) {
        fresh_keys[position[i]] = keys[i];
        fresh_values[position[i]] = values[i];
        fresh_leaf[position[i]] = leaf[i];
    }
    if (i + 1 == bound) *fresh = position[i] + is_new;
}

// Empties the erased slots; leaf[i] = the erased key's segment, kEmpty where the
// previous erased key was in the same segment (one entry per touched segment) and past
// the `n` erased keys.
__global__ void erase_slots_kernel(std::size_t bound, const unsigned long long* n, const std::uint64_t* slot, std::size_t segment,
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

// One warp per touched segment: packs the keys left after erasures to the front,
// writing only what changes (the keys after the first hole, and the slots left empty).
__global__ void repack_kernel(Layout layout, const unsigned long long* n, const std::uint64_t* leaf) {
    const std::size_t w = thread_index() / 32;
    const unsigned lane = threadIdx.x % 32;
    if (w >= *n || leaf[w] == kEmpty) return;
    const std::size_t s = leaf[w];
    std::uint64_t* run = layout.keys + s * layout.segment;
    float* vals = layout.values + s * layout.segment;
    const unsigned count = layout.counts[s];  // at most the segment's 32 slots
    const std::uint64_t key = lane < count ? run[lane] : kEmpty;
    const unsigned kept = __ballot_sync(0xffffffffU, key != kEmpty);
    const unsigned at = __popc(kept & ((1U << lane) - 1));
    const bool moves = key != kEmpty && at != lane;
    const float value = moves ? vals[lane] : 0.0F;
    __syncwarp();
    if (moves) {
        run[at] = key;
        vals[at] = value;
    }
    if (lane >= static_cast<unsigned>(__popc(kept)) && lane < count) run[lane] = kEmpty;
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

// Keys that a batch merges into windows: the first *n of `bound`, sorted, with their
// leaves (none for erasures).
struct Pending {
    const std::uint64_t* keys = nullptr;
    const float* values = nullptr;
    const std::uint64_t* leaf = nullptr;
    std::size_t bound = 0;
    const unsigned long long* n = nullptr;
    __device__ std::uint64_t count() const { return n == nullptr ? 0 : *n; }
};

// Each seed (the first *n of `bound`: a pending key's leaf, or a leaf under its bound)
// climbs to the smallest window that fits: code = first segment * 64 + (63 - level), so
// that sorted codes list windows by start, larger first; ~0 past the seeds.
__global__ void climb_kernel(std::size_t bound, const unsigned long long* n, const std::uint64_t* seed, Pending pending,
                      const std::uint64_t* prefix, Bounds bounds, std::uint64_t* code) {
    const std::size_t j = thread_index();
    if (j >= bound) return;
    if (j >= *n) {
        code[j] = kEmpty;
        return;
    }
    const std::uint64_t leaf = seed[j];
    const std::uint64_t pending_count = pending.count();
    for (int level = 0;; ++level) {
        const std::uint64_t first = leaf >> level << level;
        const std::uint64_t last = first + (std::uint64_t{1} << level);
        const std::uint64_t existing = prefix[last] - prefix[first];
        bool fits = false;
        if (pending.leaf != nullptr) {
            const std::uint64_t total =
                existing + lower_bound(pending.leaf, 0, pending_count, last) - lower_bound(pending.leaf, 0, pending_count, first);
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
__global__ void window_ends_kernel(std::size_t bound, const std::uint64_t* code, std::uint64_t* end) {
    const std::size_t j = thread_index();
    if (j < bound) end[j] = (code[j] / 64) + (std::uint64_t{1} << (63 - code[j] % 64));
}

// A window is kept when no earlier (or equal) one covers it.
__global__ void maximal_kernel(std::size_t bound, const unsigned long long* n, const std::uint64_t* code, const std::uint64_t* end_before,
                        unsigned char* keep) {
    const std::size_t j = thread_index();
    if (j < bound) keep[j] = j < *n && code[j] / 64 >= end_before[j];
}

// The chosen windows (the first *count of `bound`) and their slots; slots is 0 from
// *count to `bound` inclusive, so that its exclusive scan ends with the total.
__global__ void make_windows_kernel(std::size_t bound, const unsigned long long* count, const std::uint64_t* code, const std::uint64_t* prefix,
                             Pending pending, std::size_t segment, Window* windows, std::uint64_t* slots) {
    const std::size_t w = thread_index();
    if (w > bound) return;
    if (w >= *count) {
        slots[w] = 0;
        return;
    }
    const std::uint64_t pending_count = pending.count();
    Window win;
    win.first = code[w] / 64;
    win.last = win.first + (std::uint64_t{1} << (63 - code[w] % 64));
    win.existing_from = prefix[win.first];
    win.existing = prefix[win.last] - prefix[win.first];
    win.pending_from = pending.leaf == nullptr ? 0 : lower_bound(pending.leaf, 0, pending_count, win.first);
    win.pending = pending.leaf == nullptr ? 0 : lower_bound(pending.leaf, 0, pending_count, win.last) - win.pending_from;
    win.out = win.first * segment;
    windows[w] = win;
    slots[w] = (win.last - win.first) * segment;
}

// The whole array as one window (rebuilds): `existing` keys (prefix's last entry) and
// the pending ones; slot_at = {0, capacity}; *count = 1.
__global__ void root_window_kernel(std::size_t segs, std::size_t segment, const std::uint64_t* existing, Pending pending, Window* window,
                            std::uint64_t* slot_at, unsigned long long* count) {
    *window = {0, segs, 0, *existing, 0, pending.count(), 0};
    slot_at[0] = 0;
    slot_at[1] = segs * segment;
    *count = 1;
}

// The window holding flat position t (slot_at: each window's first flat position):
// from the map of flat segments to windows where there is one, else by binary search.
__device__ std::size_t window_at(const std::uint64_t* slot_at, const std::uint32_t* flat_window, std::size_t windows, std::uint64_t t,
                                 std::size_t segment) {
    if (flat_window != nullptr) return flat_window[t / segment];
    return lower_bound(slot_at, 0, windows + 1, t + 1) - 1;
}

// Each window's number at its first flat segment (a max-scan then fills the rest).
__global__ void window_heads_kernel(std::size_t bound, const unsigned long long* count, const std::uint64_t* slot_at, std::size_t segment,
                             std::uint32_t* heads) {
    const std::size_t w = thread_index();
    if (w < bound && w < *count) heads[slot_at[w] / segment] = static_cast<std::uint32_t>(w);
}

// Over every slot of the windows: each existing key goes to its rank among the window's
// keys and pending keys.
__global__ void gather_existing_kernel(const Window* windows, const unsigned long long* count, const std::uint64_t* slot_at,
                                const std::uint32_t* flat_window, Layout layout, const std::uint64_t* prefix,
                                const std::uint64_t* pending_keys, std::uint64_t* out_keys, float* out_values) {
    const std::size_t windows_n = *count;
    const std::uint64_t slots = slot_at[windows_n];
    for (std::uint64_t t = thread_index(); t < slots; t += grid_stride()) {
        const std::size_t w = window_at(slot_at, flat_window, windows_n, t, layout.segment);
        const Window win = windows[w];
        const std::uint64_t local = t - slot_at[w];
        const std::size_t s = win.first + local / layout.segment;
        const std::size_t i = local % layout.segment;
        if (i >= layout.counts[s]) continue;
        const std::uint64_t key = layout.keys[s * layout.segment + i];
        const std::uint64_t before = win.pending == 0 ? 0
            : lower_bound(pending_keys, win.pending_from, win.pending_from + win.pending, key) - win.pending_from;
        const std::uint64_t at = win.out + (prefix[s] - win.existing_from + i) + before;
        out_keys[at] = key;
        out_values[at] = layout.values[s * layout.segment + i];
    }
}

// One thread per pending key: to its rank among its window's keys.
__global__ void gather_pending_kernel(Pending pending, const Window* windows, const unsigned long long* count, Layout layout,
                               const std::uint64_t* prefix, std::uint64_t* out_keys, float* out_values) {
    const std::size_t j = thread_index();
    if (j >= pending.bound || j >= pending.count()) return;
    // The last window starting at or before the key's leaf holds it.
    std::size_t lo = 0;
    std::size_t hi = *count;
    while (lo < hi) {
        const std::size_t mid = (lo + hi) / 2;
        if (windows[mid].first <= pending.leaf[j]) lo = mid + 1; else hi = mid;
    }
    const Window win = windows[lo - 1];
    const std::uint64_t key = pending.keys[j];
    // Existing keys below it: all of those before the last segment (of the window) that
    // starts at or below it, plus those below it in that segment. An empty segment's
    // first_key is the next non-empty one's, so the search stays monotone.
    const std::size_t s = layout.leaf_in(key, win.first, win.last);
    const std::uint64_t below = layout.first_key[s] <= key ? prefix[s] - win.existing_from + layout.lower(s, key) : 0;
    const std::uint64_t at = win.out + (j - win.pending_from) + below;
    out_keys[at] = key;
    out_values[at] = pending.values[j];
}

// Over every slot of the windows: the window's merged keys spread evenly over its
// segments (the first total % m segments take one more), each segment packed at the front.
__global__ void spread_kernel(const Window* windows, const unsigned long long* count, const std::uint64_t* slot_at,
                       const std::uint32_t* flat_window, Layout layout, const std::uint64_t* in_keys, const float* in_values) {
    const std::size_t windows_n = *count;
    const std::uint64_t slots = slot_at[windows_n];
    for (std::uint64_t t = thread_index(); t < slots; t += grid_stride()) {
        const std::size_t w = window_at(slot_at, flat_window, windows_n, t, layout.segment);
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
}

// counts[i] widened, and 0 at i == segs (an exclusive scan over segs + 1 ends with the total).
struct CountOrZero {
    const std::uint32_t* counts;
    std::size_t segs;
    __device__ std::uint64_t operator()(std::size_t i) const { return i < segs ? counts[i] : 0; }
};

// At j: the segment segs-1-j if it holds keys, else segs (for a suffix minimum).
struct NonEmptyReversed {
    const std::uint32_t* counts;
    std::size_t segs;
    __device__ std::uint64_t operator()(std::size_t j) const { return counts[segs - 1 - j] > 0 ? segs - 1 - j : segs; }
};

__global__ void first_keys_kernel(std::size_t segs, std::size_t segment, const std::uint64_t* scanned, const std::uint64_t* keys,
                           std::uint64_t* next, std::uint64_t* first_key) {
    const std::size_t s = thread_index();
    if (s > segs) return;
    const std::uint64_t t = s == segs ? segs : scanned[segs - 1 - s];
    next[s] = t;
    first_key[s] = t < segs ? keys[t * segment] : kEmpty;
}

// row_start[v]: the slot of v's first key, or of the first key after it.
__global__ void row_starts_kernel(std::size_t vertices, Layout layout, std::uint64_t capacity, std::uint64_t* row_start) {
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

// A batch's outcome added to the totals: `done` keys inserted (new), erased or updated
// out of its unique ones; a batch with a bad id only records that id.
__global__ void tally_kernel(Op op, const BatchCounts* batch, const unsigned long long* done, Totals* totals) {
    if (batch->first_bad != ~0ULL) {
        if (totals->failed++ == 0) {
            totals->bad_src = batch->bad_src;
            totals->bad_dst = batch->bad_dst;
        }
        return;
    }
    totals->applied += *done;
    totals->ignored += batch->unique - *done;
    if (op == Op::Insert) totals->edges += *done;
    if (op == Op::Erase) totals->edges -= *done;
}

// A batch copied to where the graphs of whole batches read it (from == nullptr: it is
// there already), and its length.
template <typename Edge>
__global__ void stage_batch_kernel(std::size_t n, const Edge* from, Edge* to, unsigned long long* count) {
    const std::size_t i = thread_index();
    if (from != nullptr && i < n) to[i] = from[i];
    if (i == 0) *count = n;
}

__global__ void find_slot_kernel(Layout layout, std::uint64_t key, std::uint64_t* slot) { *slot = layout.find(key); }

}  // namespace

struct GpuPma::State {
    Vertex vertices;
    std::size_t segment = 8;
    std::size_t capacity = 0;
    DeviceBuffer<std::uint64_t> keys;
    DeviceBuffer<float> values;
    DeviceBuffer<std::uint32_t> counts;
    DeviceBuffer<std::uint64_t> first_key;
    DeviceBuffer<std::uint64_t> next;
    DeviceBuffer<std::uint64_t> row_start;  // vertices + 1
    DeviceBuffer<Totals> totals;
    DeviceArena arena;
    spikeminer::detail::DeviceStream owned_stream;
    cudaStream_t stream = owned_stream.get();
    spikeminer::detail::DeviceEvent join;
    // The edge count as last read, and how far the batches queued since may have moved it.
    std::size_t edges_known = 0;
    std::size_t added_since = 0;
    std::size_t removed_since = 0;
    // Batches of up to kGraphSlots updates are padded to a power of two and replayed as one
    // CUDA graph per operation, plan and size: a batch is some 30 small kernels, whose
    // launches cost more than their work. A graph holds the pointers and sizes it was
    // captured with, so it is replayed only while the arrays and the arena stay where
    // they were.
    struct GraphKey {
        Op op;
        std::size_t rebuild_at;  // the plan: rebuild at this capacity, or 0 to settle
        std::size_t slots;
        auto operator<=>(const GraphKey&) const = default;
    };
    struct Replay {
        spikeminer::detail::CapturedGraph graph;
        std::uint64_t layout_generation;
        std::uint64_t arena_generation;
    };
    std::map<GraphKey, Replay> graphs;
    std::uint64_t layout_generation = 0;  // changes when the arrays move
    bool starts_stale = true;                 // the vertex starts lag behind the keys
    cudaStream_t reader = cudaStreamLegacy;  // the last batch's stream: view()'s readers wait there ...
    bool host_waits = true;                   // ... unless synchronize() came after it: then the host waits

    ~State() { cudaStreamSynchronize(stream); }  // nothing queued may outlive the arrays and graphs
    State() = default;
    State(const State&) = delete;
    State& operator=(const State&) = delete;

    [[nodiscard]] std::size_t segs() const { return capacity / segment; }
    [[nodiscard]] int height() const { return static_cast<int>(std::bit_width(segs())) - 1; }
    Layout layout() { return {keys.get(), values.get(), counts.get(), first_key.get(), next.get(), segs(), segment}; }

    template <typename T>
    T* take(std::size_t n) { return arena.take<T>(n, "GPMA+ scratch"); }

    template <typename T>
    T read(const T* device_value) { return spikeminer::detail::read_one(device_value, stream); }

    void check() { SPIKEMINER_CUDA_CHECK(cudaGetLastError()); }

    // Scratch is reused in stream order; freeing an overflow needs the stream idle.
    void begin() {
        if (arena.overflowed()) SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(stream));
        arena.reset();
    }

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

    // Waits; the exact edge count (the batches queued so far included).
    std::size_t exact_edges() {
        edges_known = read(totals.get()).edges;
        added_since = 0;
        removed_since = 0;
        return edges_known;
    }
    [[nodiscard]] std::size_t fewest_edges() const { return edges_known - std::min(removed_since, edges_known); }

    // Counts' exclusive prefix (segs + 1 entries), in the arena.
    std::uint64_t* prefix() {
        auto* out = take<std::uint64_t>(segs() + 1);
        const auto counts_or_zero =
            thrust::make_transform_iterator(thrust::counting_iterator<std::size_t>(0), CountOrZero{counts.get(), segs()});
        run_cub_queued(arena, [&](void* t, std::size_t& b) {
            return cub::DeviceScan::ExclusiveSum(t, b, counts_or_zero, out, segs() + 1, stream);
        });
        return out;
    }

    // The segment index (first keys, next non-empty segments).
    void index_segments() {
        const std::size_t n = segs();
        auto* scanned = take<std::uint64_t>(n);
        const auto reversed = thrust::make_transform_iterator(thrust::counting_iterator<std::size_t>(0), NonEmptyReversed{counts.get(), n});
        run_cub_queued(arena, [&](void* t, std::size_t& b) {
            return cub::DeviceScan::InclusiveScan(t, b, reversed, scanned, cuda::minimum<>{}, n, stream);
        });
        first_keys_kernel<<<grid(n + 1), kThreads, 0, stream>>>(n, segment, scanned, keys.get(), next.get(), first_key.get());
        check();
    }

    // The vertex starts, made again only when a reader asks (view(), to_csr()): the
    // batches themselves never read them, and a search per vertex is the largest fixed
    // cost of a small batch on a graph of millions of vertices.
    void refresh_starts() {
        if (!starts_stale) return;
        row_starts_kernel<<<grid(static_cast<std::size_t>(vertices) + 1), kThreads, 0, stream>>>(vertices, layout(), capacity,
                                                                                           row_start.get());
        check();
        if (host_waits) {
            SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(stream));
        } else {
            join.order(stream, reader);
        }
        starts_stale = false;
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
        ++layout_generation;
    }

    // Every key and the pending ones merged and spread evenly over `new_capacity` slots
    // (the root as one window: growth, shrinking, and batches large against the graph).
    void rebuild(std::size_t new_capacity, const Pending& pending) {
        const std::uint64_t* p = prefix();
        const std::size_t old_segs = segs();
        auto* root = take<Window>(1);
        auto* slot_at = take<std::uint64_t>(2);
        auto* one = take<unsigned long long>(1);
        root_window_kernel<<<1, 1, 0, stream>>>(old_segs, segment, p + old_segs, pending, root, slot_at, one);
        auto* merged_keys = take<std::uint64_t>(capacity + pending.bound);
        auto* merged_values = take<float>(capacity + pending.bound);
        gather_existing_kernel<<<grid(capacity), kThreads, 0, stream>>>(root, one, slot_at, nullptr, layout(), p, pending.keys, merged_keys,
                                                                 merged_values);
        if (pending.bound != 0) {
            gather_pending_kernel<<<grid(pending.bound), kThreads, 0, stream>>>(pending, root, one, layout(), p, merged_keys, merged_values);
        }
        check();
        if (new_capacity != capacity) {
            SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(stream));  // the old arrays are read until here
            allocate(new_capacity);
            root_window_kernel<<<1, 1, 0, stream>>>(segs(), segment, p + old_segs, pending, root, slot_at, one);
        }
        spread_kernel<<<grid(capacity), kThreads, 0, stream>>>(root, one, slot_at, nullptr, layout(), merged_keys, merged_values);
        check();
    }

    // The window of each flat segment (a flat position's segment) of the first *count
    // windows; at most segs() flat segments.
    const std::uint32_t* window_map(std::size_t bound, const unsigned long long* count, const std::uint64_t* slot_at) {
        auto* heads = take<std::uint32_t>(segs());
        auto* map = take<std::uint32_t>(segs());
        SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(heads, 0, segs() * sizeof(std::uint32_t), stream));
        window_heads_kernel<<<grid(bound), kThreads, 0, stream>>>(bound, count, slot_at, segment, heads);
        run_cub_queued(arena, [&](void* t, std::size_t& b) {
            return cub::DeviceScan::InclusiveScan(t, b, heads, map, cuda::maximum<>{}, segs(), stream);
        });
        return map;
    }

    // Rebalances the smallest fitting window around each seed leaf (the first *n of
    // `bound`, sorted), merging the pending keys.
    void settle(const std::uint64_t* seeds, std::size_t bound, const unsigned long long* n, const Pending& pending) {
        const std::uint64_t* p = prefix();
        auto* code = take<std::uint64_t>(bound);
        climb_kernel<<<grid(bound), kThreads, 0, stream>>>(bound, n, seeds, pending, p, bounds(), code);
        auto* sorted = take<std::uint64_t>(bound);
        // Real codes stay under 2^(bits - 1); the padding (~0) sorts last.
        const int bits = 6 + static_cast<int>(std::bit_width(segs()));
        run_cub_queued(arena, [&](void* t, std::size_t& b) {
            return cub::DeviceRadixSort::SortKeys(t, b, code, sorted, static_cast<int>(bound), 0, bits, stream);
        });
        auto* end = take<std::uint64_t>(bound);
        window_ends_kernel<<<grid(bound), kThreads, 0, stream>>>(bound, sorted, end);
        auto* end_before = take<std::uint64_t>(bound);
        run_cub_queued(arena, [&](void* t, std::size_t& b) {
            return cub::DeviceScan::ExclusiveScan(t, b, end, end_before, cuda::maximum<>{}, std::uint64_t{0}, bound, stream);
        });
        auto* keep = take<unsigned char>(bound);
        maximal_kernel<<<grid(bound), kThreads, 0, stream>>>(bound, n, sorted, end_before, keep);
        auto* chosen = take<std::uint64_t>(bound);
        auto* count = take<unsigned long long>(1);
        run_cub_queued(arena, [&](void* t, std::size_t& b) {
            return cub::DeviceSelect::Flagged(t, b, sorted, keep, chosen, count, static_cast<int>(bound), stream);
        });
        auto* windows = take<Window>(bound);
        auto* slots = take<std::uint64_t>(bound + 1);
        make_windows_kernel<<<grid(bound + 1), kThreads, 0, stream>>>(bound, count, chosen, p, pending, segment, windows, slots);
        auto* slot_at = take<std::uint64_t>(bound + 1);
        run_cub_queued(arena, [&](void* t, std::size_t& b) {
            return cub::DeviceScan::ExclusiveSum(t, b, slots, slot_at, bound + 1, stream);
        });
        // Many windows: each slot finds its window in a map rather than by binary search.
        const std::uint32_t* flat_window = bound > kSearchWindowsUpTo ? window_map(bound, count, slot_at) : nullptr;
        auto* merged_keys = take<std::uint64_t>(capacity);
        auto* merged_values = take<float>(capacity);
        gather_existing_kernel<<<strided(capacity), kThreads, 0, stream>>>(windows, count, slot_at, flat_window, layout(), p, pending.keys,
                                                                    merged_keys, merged_values);
        if (pending.bound != 0) {
            gather_pending_kernel<<<grid(pending.bound), kThreads, 0, stream>>>(pending, windows, count, layout(), p, merged_keys,
                                                                         merged_values);
        }
        spread_kernel<<<strided(capacity), kThreads, 0, stream>>>(windows, count, slot_at, flat_window, layout(), merged_keys, merged_values);
        check();
    }

    // Applies a unique batch to the keys it names that exist (new values, or, for an
    // erase, nothing yet) and lists their slots, in key order; *count (on the device)
    // says how many.
    std::uint64_t* existing_slots(const SortedBatch& b, Op op, unsigned long long* count) {
        auto* slot = take<std::uint64_t>(b.bound);
        apply_existing_kernel<<<grid(b.bound), kThreads, 0, stream>>>(b.bound, b.n(), layout(), op, b.keys, b.values, slot);
        auto* present = take<std::uint64_t>(b.bound);
        run_cub_queued(arena, [&](void* t, std::size_t& bytes) {
            return cub::DeviceSelect::If(t, bytes, slot, present, count, static_cast<int>(b.bound), Present{}, stream);
        });
        check();
        return present;
    }

    // The index made again and the batch's outcome (`done` of its keys) added to the totals.
    void finish(Op op, const SortedBatch& b, const unsigned long long* done) {
        if (op != Op::Update) index_segments();
        tally_kernel<<<1, 1, 0, stream>>>(op, b.counts, done, totals.get());
        check();
    }

    BatchResult synchronize() {
        const Totals t = read(totals.get());
        auto* since = reinterpret_cast<unsigned char*>(totals.get()) + offsetof(Totals, applied);  // applied, ignored, failed
        SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(since, 0, offsetof(Totals, bad_src) - offsetof(Totals, applied), stream));
        edges_known = t.edges;
        added_since = 0;
        removed_since = 0;
        host_waits = true;  // the last batch's stream may be gone by the next view()
        if (t.failed != 0) check_edge(t.bad_src, t.bad_dst, vertices);  // throws, naming the first bad update
        return {t.applied, t.ignored};
    }

    // A batch at the front of the arena (taken first after begin(), so at the same place
    // every time), padded to `slots`, with its length on the device.
    template <typename Edge>
    struct Staged {
        const Edge* edges;
        std::size_t slots;
        const unsigned long long* n;
    };

    template <typename Edge>
    Staged<Edge> stage(const Edge* batch, std::size_t n, bool on_host) {
        const std::size_t slots = n > kGraphSlots ? n : std::max<std::size_t>(64, std::bit_ceil(n));
        detail::gpu::check_batch_size(slots + 1);  // settle scans slots + 1 entries
        Edge* to = take<Edge>(slots);
        auto* count = take<unsigned long long>(1);
        if (on_host) {
            SPIKEMINER_CUDA_CHECK(cudaMemcpyAsync(to, batch, n * sizeof(Edge), cudaMemcpyHostToDevice, stream));
            stage_batch_kernel<Edge><<<1, 1, 0, stream>>>(n, nullptr, to, count);
        } else {
            stage_batch_kernel<<<grid(n), kThreads, 0, stream>>>(n, batch, to, count);
        }
        check();
        return {to, slots, count};
    }

    // Replays the graph of `key` when it is still valid, or captures what `queue` queues
    // (and launches it). Large batches simply queue.
    template <typename Queue>
    void replay(const GraphKey& key, Queue&& queue) {
        if (key.slots > kGraphSlots) {
            queue();
            return;
        }
        const auto found = graphs.find(key);
        if (found != graphs.end() && found->second.layout_generation == layout_generation &&
            found->second.arena_generation == arena.generation()) {
            found->second.graph.launch(stream);
            return;
        }
        if (found != graphs.end()) SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(stream));  // the stale one may still run
        auto graph = spikeminer::detail::CapturedGraph::capture(stream, queue);
        graph.launch(stream);
        if (arena.overflowed()) {  // its scratch is freed at the next reset: not kept
            SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(stream));
            return;
        }
        graphs.insert_or_assign(key, Replay{std::move(graph), layout_generation, arena.generation()});
    }

    template <typename Decide>
    void queue_insert(const Staged<EdgeUpdate>& batch, Decide&& decide);
    template <typename Decide>
    void queue_erase(const Staged<EdgeRef>& batch, Decide&& decide);
    void insert(const EdgeUpdate* batch, std::size_t n, bool on_host);
    void erase(const EdgeRef* batch, std::size_t n, bool on_host);
    void update(const EdgeUpdate* batch, std::size_t n, bool on_host);

    template <typename Edge>
    using Operation = void (State::*)(const Edge*, std::size_t, bool);

    // A batch in host memory: applied, then waited for.
    template <typename Edge>
    BatchResult from_host(Operation<Edge> operation, std::span<const Edge> batch) {
        begin();
        (this->*operation)(batch.data(), batch.size(), true);
        return synchronize();
    }

    // A batch in device memory: queued after the caller's stream, which waits for it.
    template <typename Edge>
    void queued(Operation<Edge> operation, const Edge* batch, std::size_t n, cudaStream_t caller) {
        join.order(caller, stream);
        reader = caller;
        host_waits = false;
        try {
            begin();
            (this->*operation)(batch, n, false);
        } catch (...) {
            join.order(stream, caller);  // what was queued (it may still read the batch) before the caller's next work
            throw;
        }
        join.order(stream, caller);
    }
};

// `decide(new keys' count on the device)`: the capacity to rebuild at, or 0 to settle.
template <typename Decide>
void GpuPma::State::queue_insert(const Staged<EdgeUpdate>& batch, Decide&& decide) {
    const SortedBatch b = detail::gpu::sorted_unique_batch(batch.edges, batch.slots, batch.n, vertices, arena, stream);
    const std::size_t bound = b.bound;
    auto* slot = take<std::uint64_t>(bound);
    auto* leaf = take<std::uint64_t>(bound);
    apply_existing_kernel<<<grid(bound), kThreads, 0, stream>>>(bound, b.n(), layout(), Op::Insert, b.keys, b.values, slot, leaf);
    // The new keys (in key order, so their leaves are in order).
    const Absent absent{slot, b.n()};
    auto* position = take<unsigned>(bound);
    const auto absent_at = thrust::make_transform_iterator(thrust::counting_iterator<std::size_t>(0), absent);
    run_cub_queued(arena, [&](void* t, std::size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(t, bytes, absent_at, position, static_cast<int>(bound), stream);
    });
    auto* fresh_keys = take<std::uint64_t>(bound);
    auto* fresh_values = take<float>(bound);
    auto* fresh_leaf = take<std::uint64_t>(bound);
    auto* fresh_n = take<unsigned long long>(1);
    take_fresh_kernel<<<grid(bound), kThreads, 0, stream>>>(bound, absent, position, b.keys, b.values, leaf, fresh_keys, fresh_values, fresh_leaf,
                                                     fresh_n);
    check();
    const Pending fresh{fresh_keys, fresh_values, fresh_leaf, bound, fresh_n};
    const std::size_t rebuild_at = decide(fresh_n);
    if (rebuild_at != 0) {
        rebuild(rebuild_at, fresh);
    } else {
        settle(fresh_leaf, bound, fresh_n, fresh);
    }
    finish(Op::Insert, b, fresh_n);
}

void GpuPma::State::insert(const EdgeUpdate* batch, std::size_t n, bool on_host) {
    detail::gpu::check_batch_size(n);
    if (n == 0) return;
    starts_stale = true;
    const Staged<EdgeUpdate> staged = stage(batch, n, on_host);
    const double upper = PmaDensity::kRootUpper * static_cast<double>(capacity);
    if (static_cast<double>(edges_known + added_since + n) > upper) {
        // The array may have to grow: the exact count decides (a wait; no graph).
        queue_insert(staged, [&](const unsigned long long* fresh_n) -> std::size_t {
            const std::size_t before = exact_edges();
            const std::size_t added = read(fresh_n);
            const std::size_t after = before + added;
            if (static_cast<double>(after) > upper) return PmaDensity::capacity_for(after, PmaDensity::kRootUpper, 2 * capacity);
            return added * 16 >= after ? capacity : 0;  // a batch this large touches most windows anyway
        });
    } else {
        const std::size_t rebuild_at = n * 16 >= fewest_edges() + n ? capacity : 0;
        replay({Op::Insert, rebuild_at, staged.slots}, [&] { queue_insert(staged, [&](const unsigned long long*) { return rebuild_at; }); });
    }
    added_since += n;
}

// `decide(erased keys' count on the device)`: the capacity to rebuild at, or 0 to settle.
template <typename Decide>
void GpuPma::State::queue_erase(const Staged<EdgeRef>& batch, Decide&& decide) {
    const SortedBatch b = detail::gpu::sorted_unique_batch(batch.edges, batch.slots, batch.n, vertices, arena, stream);
    const std::size_t bound = b.bound;
    auto* count = take<unsigned long long>(2);  // erased keys, then seeds
    auto* seed_n = count + 1;
    const std::uint64_t* present = existing_slots(b, Op::Erase, count);
    auto* touched = take<std::uint64_t>(bound);
    erase_slots_kernel<<<grid(bound), kThreads, 0, stream>>>(bound, count, present, segment, keys.get(), touched);
    repack_kernel<<<blocks_for(bound * 32, kThreads), kThreads, 0, stream>>>(layout(), count, touched);
    check();
    // (Rebuilding in place for large erase batches, as inserts do, was measured slower:
    // 16.6 M-edge R-MAT, 1 M-edge slides, 2.9 -> 3.5 ms a slide on the H200.)
    try {
        // Touched leaves now under their bound are the seeds (untouched ones kept theirs).
        auto* seeds = take<std::uint64_t>(bound);
        const auto leaf_bound = static_cast<std::uint32_t>(bounds().lower[0]);
        run_cub_queued(arena, [&](void* t, std::size_t& bytes) {
            return cub::DeviceSelect::If(t, bytes, touched, seeds, seed_n, static_cast<int>(bound), UnderBound{counts.get(), leaf_bound},
                                         stream);
        });
        const std::size_t rebuild_at = decide(count);
        if (rebuild_at != 0) {
            rebuild(rebuild_at, {});
        } else {
            settle(seeds, bound, seed_n, {});
        }
    } catch (...) {
        finish(Op::Erase, b, count);  // the erasures are done: index them (some leaves stay under their bound)
        throw;
    }
    finish(Op::Erase, b, count);
}

void GpuPma::State::erase(const EdgeRef* batch, std::size_t n, bool on_host) {
    detail::gpu::check_batch_size(n);
    if (n == 0) return;
    starts_stale = true;
    const Staged<EdgeRef> staged = stage(batch, n, on_host);
    const double lower = PmaDensity::kRootLower * static_cast<double>(capacity);
    if (capacity > CpuPma::kMinCapacity && static_cast<double>(fewest_edges()) - static_cast<double>(n) < lower) {
        // The array may have to shrink: the exact count decides (a wait; no graph).
        queue_erase(staged, [&](const unsigned long long* erased) -> std::size_t {
            const std::size_t after = exact_edges() - read(erased);
            std::size_t smaller = capacity;
            while (smaller > CpuPma::kMinCapacity && static_cast<double>(after) < PmaDensity::kRootLower * static_cast<double>(smaller)) {
                smaller /= 2;
            }
            return smaller != capacity ? smaller : 0;
        });
    } else {
        replay({Op::Erase, 0, staged.slots}, [&] { queue_erase(staged, [](const unsigned long long*) { return std::size_t{0}; }); });
    }
    removed_since += n;
}

void GpuPma::State::update(const EdgeUpdate* batch, std::size_t n, bool on_host) {
    detail::gpu::check_batch_size(n);
    if (n == 0) return;
    const Staged<EdgeUpdate> staged = stage(batch, n, on_host);
    replay({Op::Update, 0, staged.slots}, [&] {
        const SortedBatch b = detail::gpu::sorted_unique_batch(staged.edges, staged.slots, staged.n, vertices, arena, stream);
        auto* count = take<unsigned long long>(1);
        existing_slots(b, Op::Update, count);
        finish(Op::Update, b, count);
    });
}

GpuPma::GpuPma(Vertex vertices) : state_((check_vertex_count(vertices), std::make_unique<State>())) {
    State& s = *state_;
    s.vertices = vertices;
    s.row_start = allocate_or_oom<std::uint64_t>(static_cast<std::size_t>(vertices) + 1, "GPMA+ row starts");
    s.totals = allocate_or_oom<Totals>(1, "GPMA+ totals");
    SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(s.totals.get(), 0, sizeof(Totals), s.stream));
    s.allocate(CpuPma::kMinCapacity);
    s.index_segments();
    s.refresh_starts();
    SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(s.stream));
}

GpuPma::~GpuPma() = default;

BatchResult GpuPma::insert_edges(std::span<const EdgeUpdate> batch) { return state_->from_host(&State::insert, batch); }
BatchResult GpuPma::erase_edges(std::span<const EdgeRef> batch) { return state_->from_host(&State::erase, batch); }
BatchResult GpuPma::update_values(std::span<const EdgeUpdate> batch) { return state_->from_host(&State::update, batch); }

BatchResult GpuPma::insert_edges_device(const EdgeUpdate* batch, std::size_t n) {
    insert_edges_async(batch, n, cudaStreamLegacy);
    return synchronize();
}

BatchResult GpuPma::erase_edges_device(const EdgeRef* batch, std::size_t n) {
    erase_edges_async(batch, n, cudaStreamLegacy);
    return synchronize();
}

BatchResult GpuPma::update_values_device(const EdgeUpdate* batch, std::size_t n) {
    update_values_async(batch, n, cudaStreamLegacy);
    return synchronize();
}

void GpuPma::insert_edges_async(const EdgeUpdate* batch, std::size_t n, CUstream_st* stream) {
    state_->queued(&State::insert, batch, n, stream);
}
void GpuPma::erase_edges_async(const EdgeRef* batch, std::size_t n, CUstream_st* stream) { state_->queued(&State::erase, batch, n, stream); }
void GpuPma::update_values_async(const EdgeUpdate* batch, std::size_t n, CUstream_st* stream) {
    state_->queued(&State::update, batch, n, stream);
}

BatchResult GpuPma::synchronize() { return state_->synchronize(); }

std::optional<float> GpuPma::find(Vertex src, Vertex dst) const {
    if (src >= state_->vertices || dst >= state_->vertices) return std::nullopt;
    State& s = *state_;
    s.begin();
    auto* slot = s.take<std::uint64_t>(1);
    find_slot_kernel<<<1, 1, 0, s.stream>>>(s.layout(), edge_key(src, dst), slot);
    s.check();
    const std::uint64_t at = s.read(slot);
    if (at == kEmpty) return std::nullopt;
    return s.read(s.values.get() + at);
}

// Read through the vertex starts, as kernels read the view, so that a wrong start shows.
WeightedCsr GpuPma::to_csr() const {
    State& s = *state_;
    s.refresh_starts();
    SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(s.stream));
    const std::vector<std::uint64_t> keys = download(s.keys.get(), s.capacity);
    const std::vector<float> values = download(s.values.get(), s.capacity);
    const std::vector<std::uint64_t> starts = download(s.row_start.get(), static_cast<std::size_t>(s.vertices) + 1);
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
    State& s = *state_;
    s.refresh_starts();
    return {s.keys.get(), s.values.get(), s.row_start.get(), s.vertices, s.capacity, s.counts.get(), s.segment};
}

Vertex GpuPma::num_vertices() const { return state_->vertices; }
std::size_t GpuPma::num_edges() const { return state_->exact_edges(); }
std::size_t GpuPma::capacity() const { return state_->capacity; }
std::size_t GpuPma::segment_size() const { return state_->segment; }

std::vector<std::uint32_t> GpuPma::segment_counts() const {
    const State& s = *state_;
    SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(s.stream));
    return download(s.counts.get(), s.segs());
}

}  // namespace spikeminer::graph
