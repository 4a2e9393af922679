#include "spikeminer/app/sliding_window.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/in_quotes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace spikeminer::app {
SlidingWindow::SlidingWindow(std::span<const io::StreamEdge> stream, std::size_t size)
    : stream_(stream), size_(std::min(size, stream.size())) {}

void SlidingWindow::add(const io::StreamEdge& edge, int sign) {
    const std::uint64_t key = graph::edge_key(edge.src, edge.dst);
    Tally& t = tally_[key];
    touched_.try_emplace(key, t.count > 0);
    t.weight += sign * static_cast<double>(edge.weight);
    if (sign > 0) {
        ++t.count;
    } else if (--t.count == 0) {
        tally_.erase(key);
    }
}

void SlidingWindow::collect(WindowBatches& out) {
    out.insert.clear();
    out.erase.clear();
    out.update.clear();
    for (const auto& [key, before] : touched_) {
        const graph::Vertex src = graph::key_src(key);
        const graph::Vertex dst = graph::key_dst(key);
        const auto it = tally_.find(key);
        if (it == tally_.end()) {
            if (before) out.erase.push_back({src, dst});
        } else {
            if (std::fabs(it->second.weight) > std::numeric_limits<float>::max()) {
                throw Error("edge (" + std::to_string(src) + ", " + std::to_string(dst) + ")'s weights in the window sum to " +
                            shown(it->second.weight) + ", beyond a 32-bit float's range (3.4e38), in which the graph keeps its weights");
            }
            (before ? out.update : out.insert).push_back({src, dst, static_cast<float>(it->second.weight)});
        }
    }
    touched_.clear();
}

WindowBatches SlidingWindow::fill() {
    for (; end_ < size_; ++end_) add(stream_[end_], +1);
    WindowBatches out;
    collect(out);
    return out;
}

bool SlidingWindow::slide(std::size_t step, WindowBatches& out) {
    if (end_ < size_) throw Error("SlidingWindow: fill() comes before slide()");
    const std::size_t k = std::min(step, remaining());
    if (k == 0) return false;
    // From [begin, end) to [begin + k, end + k): a step longer than the window skips the
    // edges in between.
    for (std::size_t i = begin_; i < std::min(end_, begin_ + k); ++i) add(stream_[i], -1);
    for (std::size_t i = std::max(end_, begin_ + k); i < end_ + k; ++i) add(stream_[i], +1);
    begin_ += k;
    end_ += k;
    collect(out);  // into the caller's buffers, reused slide after slide
    return true;
}

}  // namespace spikeminer::app
