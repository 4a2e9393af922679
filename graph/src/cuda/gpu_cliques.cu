// Host side of the GPU clique engine: per device, the relabelled graph and work items,
// worker sizing from the free memory, the persistent search kernel (launched
// cooperatively, so that every worker is resident and the worker list can end), the
// threads that consume the clique ring (clique_drain.hpp), and the loop that reports
// progress while it runs. Several devices take the items round robin, one host thread each.
#include "../clique_engines.hpp"
#include "../clique_drain.hpp"
#include "../tuning.hpp"
#include "clique_search.cuh"
#include "device_calls.cuh"
#include "device_stream.hpp"
#include "gpu_ordering.hpp"
#include "mapped_host.hpp"

#include "spikeminer/core/error.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <optional>
#include <thread>

namespace spikeminer::graph::detail {
namespace {

using namespace gpu;
using spikeminer::detail::allocate_or_oom;
using spikeminer::detail::Contents;
using spikeminer::detail::MappedHost;
using spikeminer::detail::DeviceBuffer;
using spikeminer::detail::DeviceEvent;

using tuning::kChunkWords;

// What the device threads share.
struct Shared {
    const CliqueInput& graph;
    const CliqueOptions& options;
    const CliqueBatchSink& sink;
    std::atomic<bool> sink_failed{false};  // no device's drain delivers after a failure
    std::vector<Vertex> original;  // search id -> vertex id (when listing)
    MappedHost<int> cancel{1};      // read by the kernels; set from several host threads
    std::size_t devices;
    MappedHost<unsigned long long> progress;  // items finished, per device
    std::atomic<unsigned> total_items{0};

    Shared(const CliqueInput& g, const CliqueOptions& o, const CliqueBatchSink& s, std::size_t device_count)
        : graph(g), options(o), sink(s), devices(device_count), progress(device_count) {}

    /// Tells every device's kernel to stop.
    void stop_all() { std::atomic_ref<int>(*cancel.host()).store(1, std::memory_order_relaxed); }
    [[nodiscard]] bool stopped() { return std::atomic_ref<int>(*cancel.host()).load(std::memory_order_relaxed) != 0; }
};

struct DeviceResult {
    std::uint64_t count = 0;
    std::vector<std::uint64_t> by_size;
    std::uint64_t reported = 0;  // against the limit
    std::uint64_t hand_overs = 0;
    bool cancelled = false;
    std::string plan;            // what ran and its phases' times, for the note
};

std::string fixed(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", value);
    return text;
}

// Counters the kernel works with, zeroed at launch.
struct KernelCounters {
    unsigned next_item;
    unsigned pad;
    unsigned long long items_done, reported, head, tail, next_ticket, total_count, hand_overs;
    int stop, idle;
};

// How the search kernel is instantiated: lanes per worker and, for bitsets of up to 8
// words, the width fixed at compile time (0: any width). A worker is a whole warp by
// default: with sub-warp workers the warp's workers take different paths through the
// search and the warp runs them one after the other (on the H200, 8-lane workers left
// 9 of 32 lanes active; whole warps counted facebook 1.7x faster, bench/RESULTS.md).
struct KernelShape {
    unsigned lanes;
    int fixed_words;
};

KernelShape pick_shape(unsigned requested_lanes, int words, std::size_t max_degree) {
    if (requested_lanes != 0 && requested_lanes != 4 && requested_lanes != 8 && requested_lanes != 16 && requested_lanes != 32) {
        throw UsageError("GPU lanes per worker must be 4, 8, 16 or 32, not " + std::to_string(requested_lanes));
    }
    const bool fixed = words <= 8 && max_degree < (std::size_t{1} << kPivotIndexBits) && (requested_lanes == 0 || requested_lanes == 32);
    if (fixed) return {32, words <= 1 ? 1 : words <= 2 ? 2 : words <= 4 ? 4 : 8};
    return {requested_lanes != 0 ? requested_lanes : 32U, 0};
}

// The fewest candidates of a branch worth handing over (see GpuCliqueOptions).
int hand_over_threshold(const GpuCliqueOptions& gpu, int max_later) {
    if (gpu.hand_over_from != 0) return static_cast<int>(std::min<std::size_t>(gpu.hand_over_from, 1U << 30));
    return std::clamp(max_later / 4, 16, 32);
}

using KernelFunction = void (*)(SearchParams);

template <unsigned G, int kWords>
KernelFunction kernel_for(bool full) {
    return full ? clique_kernel<G, true, kWords> : clique_kernel<G, false, kWords>;
}

KernelFunction kernel_for(const KernelShape& shape, bool full) {
    switch (shape.fixed_words) {
        case 1: return kernel_for<32, 1>(full);
        case 2: return kernel_for<32, 2>(full);
        case 4: return kernel_for<32, 4>(full);
        case 8: return kernel_for<32, 8>(full);
        default: break;
    }
    switch (shape.lanes) {
        case 4: return kernel_for<4, 0>(full);
        case 8: return kernel_for<8, 0>(full);
        case 16: return kernel_for<16, 0>(full);
        default: return kernel_for<32, 0>(full);
    }
}

class DeviceRun {
    // Makes `device` current before the stream member is created on it.
    static int made_current(int device) {
        SPIKEMINER_CUDA_CHECK(cudaSetDevice(device));
        return device;
    }

public:
    // Uploads (or compacts, from a graph already there) and relabels the graph on `device`
    // (peeling there when position is empty,
    // and storing the order into it when the cliques need their own ids or other devices
    // need the order).
    DeviceRun(int device, Shared& shared, std::vector<Vertex>& position)
        : device_(made_current(device)), shared_(shared), peeled_(position.empty()) {
        began_.record(stream_.get());
        const DeviceCsr lists = shared.graph.on_device != nullptr ? compact_on_device(*shared.graph.on_device, stream_.get())
                                                                        : upload_graph(*shared.graph.on_host, stream_.get());
        graph_ = relabel_on_device(lists, position, static_cast<bool>(shared.sink) || shared.devices > 1, stream_.get());
        relabelled_.record(stream_.get());
        items_ = make_items(graph_, shared.options.gpu.level, shared.options.gpu.l2_from, stream_.get());
        itemized_.record(stream_.get());
    }

    // The pool gives back what it keeps beyond kPoolKept (device_buffer.hpp) only at a
    // synchronization: the search's workspace (up to 80 % of the device's memory) must not
    // stay reserved once the run is over, where other engines size their work from the
    // free memory.
    ~DeviceRun() {
        graph_ = {};
        items_ = {};
        cudaStreamSynchronize(stream_.get());
    }
    DeviceRun(const DeviceRun&) = delete;
    DeviceRun& operator=(const DeviceRun&) = delete;

    [[nodiscard]] unsigned items() const { return items_.count; }
    [[nodiscard]] unsigned max_later() const { return items_.max_later; }

    DeviceResult search(unsigned index, unsigned devices, bool reports_progress) {
        SPIKEMINER_CUDA_CHECK(cudaSetDevice(device_));
        const CliqueOptions& options = shared_.options;
        const LaunchPlan plan = make_plan();
        const std::size_t workers = static_cast<std::size_t>(plan.workers);
        auto workspace = allocate_or_oom<Word>(plan.layout.stride * workers, "clique workspace", stream_.get());
        auto counters = allocate_or_oom<KernelCounters>(1, "clique counters", stream_.get());
        auto hist = allocate_or_oom<unsigned long long>(static_cast<std::size_t>(plan.layout.hist_size()), "clique histogram", stream_.get());
        auto slots = allocate_or_oom<int>(workers, "worker list", stream_.get());
        std::vector<unsigned long long> first_tickets(workers);
        for (std::size_t i = 0; i < first_tickets.size(); ++i) first_tickets[i] = i;
        auto sequence = spikeminer::detail::upload_pooled(first_tickets.data(), first_tickets.size(), "worker list", stream_.get());
        auto flags = allocate_or_oom<int>(workers, "worker list", stream_.get());
        SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(counters.get(), 0, sizeof(KernelCounters), stream_.get()));
        SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(hist.get(), 0, hist.size() * sizeof(unsigned long long), stream_.get()));
        SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(flags.get(), 0, flags.size() * sizeof(int), stream_.get()));
        const std::size_t ring_slots = plan.listing ? tuning::ring_slots(workers) : 0;
        // Chunks are read only once their slot is ready (with its ticket), so they need no zeroing.
        MappedHost<Word> chunks(ring_slots * static_cast<std::size_t>(plan.chunk_words), Contents::Unset);
        MappedHost<unsigned long long> ready(ring_slots);
        MappedHost<unsigned> used(ring_slots);
        MappedHost<unsigned long long> consumed(plan.listing ? 1 : 0);
        const auto original = plan.listing ? spikeminer::detail::upload_pooled(shared_.original.data(), shared_.original.size(),
                                                                             "clique vertex ids", stream_.get())
                                           : DeviceBuffer<Vertex>();
        // Every id and clique size fits 16 bits below 65,536 vertices.
        const bool narrow = shared_.original.size() < 65536;
        std::optional<RingDrain> drain;
        if (plan.listing) {
            const RingView ring{chunks.host(), ready.host(), used.host(), consumed.host(), ring_slots,
                                static_cast<std::size_t>(plan.chunk_words), narrow};
            drain.emplace(ring, shared_.sink, options.progress, drain_threads(options), shared_.sink_failed, [this] { shared_.stop_all(); });
        }
        // Declared after the host blocks and the drain, so destroyed before them: on every
        // way out, the kernel has ended (drained while it runs) before the drain stops and
        // the blocks go back to the cache, where another run could take them while it
        // still wrote (the cache, unlike cudaFreeHost, does not wait for the device).
        const StreamJoin join{stream_.get()};

        KernelCounters* c = counters.get();
        SearchParams p{};
        p.graph = {graph_.offsets.get(), graph_.neighbors.get()};
        p.layout = plan.layout;
        p.workspace = workspace.get();
        p.item_first = items_.first.get();
        p.item_second = items_.second.get();
        p.num_items = items_.count;
        p.item_offset = index;
        p.item_stride = devices;
        p.next_item = &c->next_item;
        p.items_done = &c->items_done;
        p.min_size = static_cast<int>(std::min<std::size_t>(options.min_size, 1U << 30));
        p.limit = options.limit;
        p.reported = &c->reported;
        p.stop = &c->stop;
        p.use_worker_list = options.gpu.worker_list;
        p.hot_in_shared = plan.hot_in_shared;
        p.donate_min_candidates = plan.hand_over_from;
        p.hand_overs = &c->hand_overs;
        p.worker_list = {&c->head, &c->tail, slots.get(), sequence.get(), &c->idle, flags.get(), plan.workers};
        p.ring = {chunks.device(), ready.device(), used.device(), consumed.device(), &c->next_ticket,
                  static_cast<int>(ring_slots), plan.chunk_words, narrow};
        p.original = original.get();
        p.total_count = &c->total_count;
        p.total_hist = hist.get();
        p.cancel = shared_.cancel.device();
        p.progress = shared_.progress.device() + index;

        // Launch; the drain's threads take the cliques, this one reports progress until the kernel ends.
        void* args[] = {&p};
        DeviceEvent launched(true);
        DeviceEvent ended(true);
        launched.record(stream_.get());
        SPIKEMINER_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(plan.kernel), dim3(static_cast<unsigned>(plan.blocks)),
                                                          dim3(kBlockThreads), args, plan.shared_bytes, stream_.get()));
        ended.record(stream_.get());
        DeviceResult result;
        result.plan = plan.description(options.gpu);
        std::exception_ptr failure;
        wait_for_kernel(failure, reports_progress ? &result : nullptr);
        KernelCounters done{};
        SPIKEMINER_CUDA_CHECK(cudaMemcpy(&done, counters.get(), sizeof done, cudaMemcpyDeviceToHost));
        if (drain) {
            const std::exception_ptr sink_failure = drain->finish(done.next_ticket);
            if (!failure) failure = sink_failure;
        }
        if (failure) std::rethrow_exception(failure);

        result.count = done.total_count;
        result.reported = done.reported;
        result.hand_overs = done.hand_overs;
        result.by_size.resize(hist.size());
        SPIKEMINER_CUDA_CHECK(cudaMemcpy(result.by_size.data(), hist.get(), hist.size() * sizeof(std::uint64_t),
                                         cudaMemcpyDeviceToHost));
        result.cancelled = result.cancelled || shared_.stopped();
        // Device time between the marks, host gaps included where the device waited.
        result.plan += std::string("; ms: ") + (peeled_ ? "peel and relabel " : "relabel ") +
                       fixed(relabelled_.milliseconds_since(began_)) + ", items " + fixed(itemized_.milliseconds_since(relabelled_)) +
                       ", setup " + fixed(launched.milliseconds_since(itemized_)) + ", search " + fixed(ended.milliseconds_since(launched));
        return result;
    }

private:
    // What the search runs: the kernel (bitset width, lanes, IP or IPX), each worker's
    // memory layout, where its hot state lives, and how many blocks the device and the
    // memory budget take.
    struct LaunchPlan {
        bool full = false;
        bool listing = false;
        KernelShape shape;
        int chunk_words = 0;
        WorkerLayout layout;
        KernelFunction kernel = nullptr;
        bool hot_in_shared = false;
        std::size_t shared_bytes = 0;
        std::size_t blocks = 0;
        int workers = 0;
        int hand_over_from = 0;

        [[nodiscard]] std::string description(const GpuCliqueOptions& gpu) const {
            return std::string(gpu.level == SubtreeLevel::L1 ? "L1" : "L2") + ", " + (full ? "IPX" : "IP") + ", " + std::to_string(workers) +
                   " workers of " + std::to_string(shape.lanes) + " lanes, " +
                   (shape.fixed_words > 0 ? std::to_string(shape.fixed_words) + "-word bitsets" : "any-width bitsets") +
                   std::string(hot_in_shared ? ", hot state in shared memory" : "") + ", worker list " + (gpu.worker_list ? "on" : "off") +
                   (gpu.worker_list ? " (hand over from " + std::to_string(hand_over_from) + ")" : "");
        }
    };

    LaunchPlan make_plan() const {
        LaunchPlan plan;
        const CliqueOptions& options = shared_.options;
        const auto max_later = static_cast<int>(items_.max_later);
        plan.full = options.gpu.induced == InducedSubgraph::Full ||
                          (options.gpu.induced == InducedSubgraph::Auto &&
                           graph_.max_degree <= 200 * static_cast<std::size_t>(std::max(1, max_later)));
        plan.listing = static_cast<bool>(shared_.sink);
        plan.shape = pick_shape(options.gpu.lanes, WorkerLayout::words_for(max_later), graph_.max_degree);
        // A worker's buffer holds at least one clique, [k, v1..vk] with k <= max_later + 2,
        // and the k words its sort takes past it.
        plan.chunk_words = std::max(kChunkWords, (2 * (max_later + 2) + 1 + 3) / 4 * 4);
        const auto layout_with = [&](bool hot_in_slice) {
            return WorkerLayout::make(max_later, static_cast<int>(graph_.max_degree), plan.full, plan.listing ? plan.chunk_words : 0,
                                      plan.shape.fixed_words > 0 ? plan.shape.fixed_words : WorkerLayout::words_for(max_later), hot_in_slice);
        };
        plan.layout = layout_with(true);
        plan.kernel = kernel_for(plan.shape, plan.full);

        // Attributes one by one: cudaGetDeviceProperties queries them all (about a millisecond).
        int multiprocessors = 0;
        int shared_optin = 0;
        SPIKEMINER_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device_));
        SPIKEMINER_CUDA_CHECK(cudaDeviceGetAttribute(&shared_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device_));
        const std::size_t workers_per_block = kBlockThreads / plan.shape.lanes;
        // The candidates' rows and the per-depth bitsets go to shared memory when that
        // leaves as many blocks per SM (they are read at every node of the search).
        int per_sm = 0;
        SPIKEMINER_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, plan.kernel, kBlockThreads, 0));
        const std::size_t hot_bytes = plan.layout.hot_stride * sizeof(Word) * workers_per_block;
        if (hot_bytes <= static_cast<std::size_t>(shared_optin)) {
            SPIKEMINER_CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(plan.kernel),
                                                       cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(hot_bytes)));
            int per_sm_hot = 0;
            SPIKEMINER_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm_hot, plan.kernel, kBlockThreads, hot_bytes));
            plan.hot_in_shared = per_sm_hot >= per_sm;
        }
        plan.shared_bytes = plan.hot_in_shared ? hot_bytes : 0;
        if (plan.hot_in_shared) plan.layout = layout_with(false);  // the slices need no room for it
        std::size_t free_bytes = 0;
        std::size_t total_bytes = 0;
        SPIKEMINER_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
        const std::size_t budget = options.gpu.memory_budget != 0 ? options.gpu.memory_budget : free_bytes / 10 * 8;
        const std::size_t block_bytes = plan.layout.stride * sizeof(Word) * workers_per_block;
        plan.blocks = std::min<std::size_t>(static_cast<std::size_t>(per_sm) * static_cast<std::size_t>(multiprocessors),
                                                         budget / block_bytes);
        if (plan.blocks == 0) {
            throw GpuOutOfMemory("one block of clique workers needs " + std::to_string(block_bytes >> 20) +
                                 " MiB (degeneracy " + std::to_string(max_later) + ", largest degree " +
                                 std::to_string(graph_.max_degree) + ")");
        }
        plan.workers = static_cast<int>(plan.blocks * workers_per_block);
        plan.hand_over_from = hand_over_threshold(options.gpu, max_later);
        return plan;
    }


    // Waits for the stream when it goes out of scope (errors are the caller's to report).
    struct StreamJoin {
        cudaStream_t stream;
        ~StreamJoin() { cudaStreamSynchronize(stream); }
    };

    // Until the kernel ends: reports progress (into `result`, when given), polling from
    // every 10 us (a small graph's search takes about a millisecond) to every 200 us;
    // without progress to report, it just waits on the stream.
    void wait_for_kernel(std::exception_ptr& failure, DeviceResult* result) {
        if (result != nullptr && shared_.options.progress != nullptr) {
            auto pause = std::chrono::microseconds(10);  // asked for: Linux sleeps some tens of us
            while (cudaStreamQuery(stream_.get()) == cudaErrorNotReady) {
                report_progress(*result, failure);
                std::this_thread::sleep_for(pause);
                pause = std::min(2 * pause, std::chrono::microseconds(200));
            }
            report_progress(*result, failure);
        }
        SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    }

    // Threads taking the ring's chunks: the sink's work runs on them.
    static unsigned drain_threads(const CliqueOptions& options) {
        const unsigned cores = std::max(1U, std::thread::hardware_concurrency());
        return std::min(options.threads != 0 ? options.threads : cores, tuning::kDrainThreads);
    }

    // Any failure of the progress callback other than a cancel is kept in `failure` and
    // cancels the kernel, which is drained before it is rethrown.
    void report_progress(DeviceResult& result, std::exception_ptr& failure) {
        Progress* progress = shared_.options.progress;
        if (progress == nullptr || result.cancelled) return;
        std::uint64_t done = 0;
        for (std::size_t d = 0; d < shared_.devices; ++d) {
            done += std::atomic_ref<unsigned long long>(shared_.progress.host()[d]).load(std::memory_order_relaxed);
        }
        try {
            progress->update(std::min<std::uint64_t>(done, shared_.total_items));
        } catch (const Cancelled&) {
            result.cancelled = true;
            shared_.stop_all();
        } catch (...) {
            if (!failure) failure = std::current_exception();
            result.cancelled = true;
            shared_.stop_all();
        }
    }

    int device_;
    Shared& shared_;
    spikeminer::detail::DeviceStream stream_;
    DeviceCsr graph_;
    DeviceItems items_;
    bool peeled_;  // whether the order was found here
    // Marks on the stream around each phase of the set-up, for the plan's times.
    DeviceEvent began_{true};
    DeviceEvent relabelled_{true};
    DeviceEvent itemized_{true};
};

}  // namespace

CliqueSummary enumerate_on_gpu(const CliqueInput& graph, const CliqueOptions& options, const CliqueBatchSink& sink) {
    std::vector<int> devices = options.gpu.devices.empty() ? std::vector<int>{0} : options.gpu.devices;
    if (graph.on_device != nullptr) {  // the device that holds it
        devices.assign(1, 0);
        SPIKEMINER_CUDA_CHECK(cudaGetDevice(&devices[0]));
    }
    int visible = 0;
    SPIKEMINER_CUDA_CHECK(cudaGetDeviceCount(&visible));
    for (const int d : devices) {
        if (d < 0 || d >= visible) {
            throw UsageError("GPU device " + std::to_string(d) + " does not exist (" + std::to_string(visible) + " visible)");
        }
    }
    // A limit is one counter on one device.
    if (options.limit != 0) devices.resize(1);
    CliqueSummary summary;
    summary.backend = Backend::Cuda;
    if (graph.vertices() == 0) return summary;

    Shared shared(graph, options, sink, devices.size());
    std::vector<Vertex> position;  // found by peeling on the first device, given to the others
    auto first = std::make_unique<DeviceRun>(devices[0], shared, position);
    if (sink) {  // only the cliques handed to a sink need their vertices' own ids
        shared.original.resize(position.size());
        for (Vertex v = 0; v < position.size(); ++v) shared.original[position[v]] = v;
    }
    shared.total_items = first->items();
    const unsigned first_max_later = first->max_later();
    if (options.progress != nullptr) options.progress->begin("enumerating maximal cliques on the GPU", first->items());

    std::vector<DeviceResult> results(devices.size());
    std::vector<std::exception_ptr> failures(devices.size());
    std::vector<std::thread> threads;
    for (std::size_t i = 1; i < devices.size(); ++i) {
        threads.emplace_back([&, i] {
            try {
                DeviceRun run(devices[i], shared, position);
                results[i] = run.search(static_cast<unsigned>(i), static_cast<unsigned>(devices.size()), false);
            } catch (...) {
                failures[i] = std::current_exception();
                shared.stop_all();
            }
        });
    }
    try {
        results[0] = first->search(0, static_cast<unsigned>(devices.size()), true);
    } catch (...) {
        failures[0] = std::current_exception();
        shared.stop_all();
    }
    for (std::thread& t : threads) t.join();
    first.reset();
    for (const std::exception_ptr& failure : failures) {
        if (failure) std::rethrow_exception(failure);
    }
    for (const DeviceResult& r : results) {
        if (r.cancelled) throw Cancelled();
        summary.count += r.count;
        summary.hand_overs += r.hand_overs;
        if (summary.by_size.size() < r.by_size.size()) summary.by_size.resize(r.by_size.size(), 0);
        for (std::size_t k = 0; k < r.by_size.size(); ++k) summary.by_size[k] += r.by_size[k];
    }
    while (!summary.by_size.empty() && summary.by_size.back() == 0) summary.by_size.pop_back();
    summary.stopped_at_limit = options.limit != 0 && results[0].reported > options.limit;
    summary.degeneracy = first_max_later;
    summary.note = "GPU: " + results[0].plan + "; " + std::to_string(summary.hand_overs) + " hand-overs" +
                   (devices.size() > 1 ? "; on " + std::to_string(devices.size()) + " devices" : "");
    if (options.progress != nullptr) options.progress->finish();
    return summary;
}

}  // namespace spikeminer::graph::detail
