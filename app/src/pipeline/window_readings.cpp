// See window_readings.hpp.
#include "window_readings.hpp"

#include "spikeminer/core/device_threads.hpp"
#if SPIKEMINER_HAVE_CUDA
#include "spikeminer/graph/gpu_window_slots.hpp"
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

namespace spikeminer::pipeline {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// Windows a CPU read takes: enough for every thread to take several.
constexpr std::size_t kCpuBatch = 256;
// Windows from which auto reads on the GPU (DeviceWindows' threshold: below it the set-up
// of the slots costs more than the launches save).
constexpr std::size_t kGpuFromWindows = 32;
// Slots times neurons the GPU holds at most: 2^22 cells of PageRank, degrees, components
// and clique scratch (about 110 MB); 512 slots for a recording of up to 8,192 neurons.
constexpr std::size_t kMostCells = std::size_t{1} << 22;
constexpr std::size_t kMostSlots = 512;

// work(i) for every i in [0, count), shared out to `threads` host threads.
template <typename Work>
void on_threads(std::size_t count, unsigned threads, const Work& work) {
    std::atomic<std::size_t> next{0};
    const std::vector<int> workers(std::min<std::size_t>(threads, count), kNoDevice);
    on_devices(workers, [&](std::size_t) {
        for (std::size_t i; (i = next.fetch_add(1)) < count;) work(i);
    });
}

BackendChoice reader_backend(const RunConfig& config, std::size_t windows) {
    const std::string few = windows < kGpuFromWindows ? std::to_string(windows) + " windows, fewer than the " +
                                                             std::to_string(kGpuFromWindows) + " from which the GPU repays its set-up"
                                                       : "";
    return choose_backend(parse_backend(config.backend), few);
}

}  // namespace

#if SPIKEMINER_HAVE_CUDA
struct WindowReader::OnGpu {
    graph::GpuWindowSlots slots;
    OnGpu(graph::Vertex neurons, std::size_t count) : slots(neurons, count) {}
};
#else
struct WindowReader::OnGpu {};
#endif

WindowReader::WindowReader(graph::Vertex neurons, std::size_t windows, const RunConfig& config)
    : neurons_(neurons),
      min_size_(config.min_size),
      analytics_(config.analytics),
      threads_(config.threads != 0 ? config.threads : std::max(1U, std::thread::hardware_concurrency())),
      choice_(reader_backend(config, windows)) {}

WindowReader::~WindowReader() = default;

std::size_t WindowReader::batch() const {
    if (choice_.backend != Backend::Cuda) return kCpuBatch;
    return std::clamp<std::size_t>(kMostCells / std::max<std::size_t>(neurons_, 1), 1, kMostSlots);
}

std::string WindowReader::describe() const {
    if (choice_.backend == Backend::Cuda) return "GPMA+ slots on the GPU, " + std::to_string(batch()) + " windows a launch";
    return "compact copies on the CPU, " + std::to_string(threads_) + " thread" + (threads_ == 1 ? "" : "s");
}

std::vector<WindowReading> WindowReader::read(std::span<const std::vector<graph::UndirectedEdge>> graphs, WindowStageTimes& times) {
    if (neurons_ == 0) return read_on_cpu(graphs, times);  // a recording of no neurons: nothing to keep
    return run_with_fallback(
        choice_, [&] { return read_on_gpu(graphs, times); }, [&] { return read_on_cpu(graphs, times); });
}

std::vector<WindowReading> WindowReader::read_on_cpu(std::span<const std::vector<graph::UndirectedEdge>> graphs, WindowStageTimes& times) const {
    std::vector<WindowReading> readings(graphs.size());
    auto start = Clock::now();
    if (analytics_) {
        on_threads(graphs.size(), threads_, [&](std::size_t i) { readings[i].graph = graph::read_small_graph(neurons_, graphs[i]); });
    }
    times.analytics_s += seconds_since(start);
    start = Clock::now();
    on_threads(graphs.size(), threads_, [&](std::size_t i) { readings[i].cliques = graph::small_graph_cliques(neurons_, graphs[i], min_size_); });
    times.cliques_s += seconds_since(start);
    return readings;
}

#if SPIKEMINER_HAVE_CUDA
std::vector<WindowReading> WindowReader::read_on_gpu(std::span<const std::vector<graph::UndirectedEdge>> graphs, WindowStageTimes& times) {
    auto start = Clock::now();
    if (!gpu_) gpu_ = std::make_unique<OnGpu>(neurons_, batch());
    graph::GpuWindowSlots& slots = gpu_->slots;
    std::vector<WindowReading> readings(graphs.size());
    for (std::size_t first = 0; first < graphs.size(); first += slots.slots()) {
        const std::size_t count = std::min(slots.slots(), graphs.size() - first);
        std::vector<std::span<const graph::UndirectedEdge>> batch(graphs.begin() + static_cast<std::ptrdiff_t>(first),
                                                                  graphs.begin() + static_cast<std::ptrdiff_t>(first + count));
        slots.assign(batch);
        times.graph_s += seconds_since(start);
        start = Clock::now();
        if (analytics_) {
            const std::vector<graph::SmallGraphReading> read = slots.read(count);
            for (std::size_t i = 0; i < count; ++i) readings[first + i].graph = read[i];
        }
        times.analytics_s += seconds_since(start);
        start = Clock::now();
        auto cliques = slots.cliques(count, min_size_);
        for (std::size_t i = 0; i < count; ++i) {
            // A slot whose search the GPU could not hold is searched here.
            readings[first + i].cliques = cliques[i] ? std::move(*cliques[i]) : graph::small_graph_cliques(neurons_, batch[i], min_size_);
        }
        times.cliques_s += seconds_since(start);
        start = Clock::now();
    }
    return readings;
}
#else
std::vector<WindowReading> WindowReader::read_on_gpu(std::span<const std::vector<graph::UndirectedEdge>> graphs, WindowStageTimes& times) {
    return read_on_cpu(graphs, times);  // choose_backend never says Cuda in this build
}
#endif

}  // namespace spikeminer::pipeline
