#pragma once

#include "spikeminer/app/io/edge_stream.hpp"
#include "spikeminer/graph/dynamic_graph.hpp"

#include <span>
#include <unordered_map>
#include <vector>

namespace spikeminer::app {

/// The updates that move a dynamic graph from one window to the next.
struct WindowBatches {
    std::vector<graph::EdgeUpdate> insert;  ///< edges that enter the graph
    std::vector<graph::EdgeRef> erase;      ///< edges whose last occurrence left the window
    std::vector<graph::EdgeUpdate> update;  ///< edges that stay, with their new value
};

/// Applies one step's batches to a dynamic graph: erasures, then inserts, then values.
template <typename Dynamic>
void apply(Dynamic& graph, const WindowBatches& batches) {
    graph.erase_edges(batches.erase);
    graph.insert_edges(batches.insert);
    graph.update_values(batches.update);
}

/// A window of consecutive stream edges (GPMA's sliding-window setup): it starts on the
/// first `size` edges and slides by dropping the oldest edges and taking the next ones.
/// A stream may repeat an edge (src, dst); the graph holds an edge while any occurrence
/// is in the window, with the sum of the occurrences' weights as its value (for a
/// co-firing stream of unit weights: how often the pair fired together in the window).
class SlidingWindow {
public:
    SlidingWindow(std::span<const io::StreamEdge> stream, std::size_t size);

    /// The batches that fill the empty graph with the first window.
    WindowBatches fill();
    /// The batches that slide the window by `step` edges (fewer at the end of the
    /// stream); false, with nothing changed, when the stream is exhausted.
    bool slide(std::size_t step, WindowBatches& out);

    [[nodiscard]] std::size_t remaining() const { return stream_.size() - end_; }

private:
    struct Tally {
        double weight = 0;
        std::uint32_t count = 0;
    };
    void add(const io::StreamEdge& edge, int sign);
    void collect(WindowBatches& out);

    std::span<const io::StreamEdge> stream_;
    std::size_t size_;
    std::size_t begin_ = 0;
    std::size_t end_ = 0;
    std::unordered_map<std::uint64_t, Tally> tally_;
    std::unordered_map<std::uint64_t, bool> touched_;  // key -> present before this step
};

}  // namespace spikeminer::app
