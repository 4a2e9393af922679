#pragma once
// What the pipeline reads from the window graphs that stay small (under
// graph::kOneThreadBelowEdges edges, as every co-firing window of a recording so far):
// components, the neuron of highest PageRank and the maximal cliques, a batch of windows at
// a time. On the GPU the
// batch's graphs are the slots of one GPMA+ (graph/gpu_window_slots.hpp), moved by one
// batch of changes and read by one launch a stage; on the CPU the batch's windows are
// shared out to the threads, one window each. Both read what analytics.hpp and
// cliques.hpp give for each window's graph alone.

#include "spikeminer/app/pipeline/run_config.hpp"
#include "spikeminer/core/backend.hpp"
#include "spikeminer/graph/small_graphs.hpp"

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace spikeminer::pipeline {

struct WindowReading {
    graph::SmallGraphReading graph;                    ///< empty without analytics
    std::vector<std::vector<graph::Vertex>> cliques;   ///< sorted, each sorted
};

/// Seconds spent, added up over the batches.
struct WindowStageTimes {
    double graph_s = 0;      ///< moving the structure to the batch's graphs
    double analytics_s = 0;  ///< components and PageRank
    double cliques_s = 0;
};

class WindowReader {
public:
    /// Graphs on `neurons` vertices; `windows` expected in all (auto leaves a run of few
    /// windows on the CPU: the GPU's set-up would cost more than it saves).
    WindowReader(graph::Vertex neurons, std::size_t windows, const RunConfig& config);
    ~WindowReader();
    WindowReader(const WindowReader&) = delete;
    WindowReader& operator=(const WindowReader&) = delete;

    /// Windows a read() takes at most.
    [[nodiscard]] std::size_t batch() const;
    /// The readings of `graphs` (each's edges a < b, sorted, each once), in order. The GPU
    /// falls back to the CPU (for good, saying so in choice()) when it runs out of memory.
    std::vector<WindowReading> read(std::span<const std::vector<graph::UndirectedEdge>> graphs, WindowStageTimes& times);
    /// Where the graphs are kept and read, and why.
    [[nodiscard]] const BackendChoice& choice() const { return choice_; }
    [[nodiscard]] std::string describe() const;

private:
    std::vector<WindowReading> read_on_cpu(std::span<const std::vector<graph::UndirectedEdge>> graphs, WindowStageTimes& times) const;
    std::vector<WindowReading> read_on_gpu(std::span<const std::vector<graph::UndirectedEdge>> graphs, WindowStageTimes& times);

    graph::Vertex neurons_;
    std::size_t min_size_;
    bool analytics_;
    unsigned threads_;
    BackendChoice choice_;
    struct OnGpu;
    std::unique_ptr<OnGpu> gpu_;
};

}  // namespace spikeminer::pipeline
