// Kernels of GPMA+ on the device (gpu_pma.cu): the packed array's layout, each batch's
// per-key steps, and the rebalancing windows' climb, merge and spread. It defines its
// kernels and functions, so gpu_pma.cu alone includes it.
#pragma once

#include "../tuning.hpp"
#include "device_calls.cuh"
#include "device_index.cuh"
#include "edge_batch.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/graph/gpu_pma.hpp"
#include "spikeminer/graph/graph.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace spikeminer::graph::detail::gpma {

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
using tuning::kThreads;
constexpr int kMaxLevels = 48;
using tuning::kGraphSlots;
using tuning::kSearchWindowsUpTo;

inline unsigned grid(std::size_t n) { return blocks_for(n, kThreads); }
// Kernels that loop over a count only the device knows (at most n): a bounded grid.
inline unsigned strided(std::size_t n) { return std::min(grid(n), 2048U); }


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

__device__ inline std::uint64_t grid_stride() { return static_cast<std::uint64_t>(gridDim.x) * blockDim.x; }

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
__device__ inline std::size_t window_at(const std::uint64_t* slot_at, const std::uint32_t* flat_window, std::size_t windows, std::uint64_t t,
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

// One thread per segment (and one past the last): the next non-empty segment and its first key.
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

// One thread: the slot of `key` (a lookup for the host).
__global__ void find_slot_kernel(Layout layout, std::uint64_t key, std::uint64_t* slot) { *slot = layout.find(key); }

}  // namespace spikeminer::graph::detail::gpma
