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
#include "captured_graph.hpp"
#include "device_arena.hpp"
#include "device_calls.cuh"
#include "device_index.cuh"
#include "device_stream.hpp"
#include "edge_batch.hpp"
#include "gpma_kernels.cuh"

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
using namespace detail::gpma;  // the kernels and the layout (gpma_kernels.cuh)

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
    // Insert and erase batches of up to kGraphSlots edges are padded to a power of two and
    // replayed as one CUDA graph per operation, plan and size: a batch is some 30 small
    // kernels, whose launches cost more than their work. A graph holds the pointers and sizes it was
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
    // every time), padded to `slots` (a graph's size) when it has at most `pad_up_to`
    // edges, with its length on the device.
    template <typename Edge>
    struct Staged {
        const Edge* edges;
        std::size_t slots;
        const unsigned long long* n;
    };

    template <typename Edge>
    Staged<Edge> stage(const Edge* batch, std::size_t n, bool on_host, std::size_t pad_up_to = kGraphSlots) {
        const std::size_t slots = n > pad_up_to ? n : std::max<std::size_t>(64, std::bit_ceil(n));
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
    // Queued, never a graph (so not padded): its graph took tens of ms to instantiate at a
    // few thousand slots, its launches cost ~30 us (RESULTS, "GPMA+'s slow first slides").
    const Staged<EdgeUpdate> staged = stage(batch, n, on_host, 0);
    const SortedBatch b = detail::gpu::sorted_unique_batch(staged.edges, staged.slots, staged.n, vertices, arena, stream);
    auto* count = take<unsigned long long>(1);
    existing_slots(b, Op::Update, count);
    finish(Op::Update, b, count);
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
