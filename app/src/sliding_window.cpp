#include "spikeminer/app/sliding_window.hpp"

#include "spikeminer/core/error.hpp"

#include <algorithm>

namespace spikeminer::app {
namespace {

std::uint64_t key_of(graph::Vertex src, graph::Vertex dst) { return (std::uint64_t{src} << 32) | dst; }

}  // namespace

SlidingWindow::SlidingWindow(std::span<const io::StreamEdge> stream, std::size_t size)
    : stream_(stream), size_(std::min(size, stream.size())) {}

void SlidingWindow::add(const io::StreamEdge& edge, int sign) {
    const std::uint64_t key = key_of(edge.src, edge.dst);
    Tally& t = tally_[key];
    touched_.try_emplace(key, t.count > 0);
    t.weight += sign * static_cast<double>(edge.weight);
    if (sign > 0) {
        ++t.count;
    } else if (--t.count == 0) {
        tally_.erase(key);
    }
}

WindowBatches SlidingWindow::collect() {
    WindowBatches out;
    for (const auto& [key, before] : touched_) {
        const auto src = static_cast<graph::Vertex>(key >> 32);
        const auto dst = static_cast<graph::Vertex>(key & 0xffffffffU);
        const auto it = tally_.find(key);
        if (it == tally_.end()) {
            if (before) out.erase.push_back({src, dst});
        } else {
            (before ? out.update : out.insert).push_back({src, dst, static_cast<float>(it->second.weight)});
        }
    }
    touched_.clear();
    return out;
}

WindowBatches SlidingWindow::fill() {
    for (; end_ < size_; ++end_) add(stream_[end_], +1);
    return collect();
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
    out = collect();
    return true;
}

}  // namespace spikeminer::app
