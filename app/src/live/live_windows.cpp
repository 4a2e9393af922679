// See live_windows.hpp.
#include "live_windows.hpp"

#include "spikeminer/graph/small_graphs.hpp"

#include <algorithm>
#include <tuple>

namespace spikeminer::live {

LiveWindows::LiveWindows(mining::CofiringOptions options, const pipeline::RunConfig& config)
    : options_(std::move(options)), min_size_(config.min_size) {
    const mining::CofiringLags& lags = options_.lags;
    reach_ = std::max<Tick>({lags.sync, lags.baseline.hi, Tick{0}});
    for (const mining::Interval& interval : lags.intervals) reach_ = std::max(reach_, interval.hi);
}

TimeSpan LiveWindows::span(std::size_t w, Tick origin) const {
    const Tick start = origin + static_cast<Tick>(w) * options_.step;
    return {start, start + options_.window};
}

std::size_t LiveWindows::waiting(Tick origin, Tick until) const {
    if (until < origin + options_.window) return 0;
    const auto ending = static_cast<std::size_t>((until - origin - options_.window) / options_.step) + 1;  // windows that end by `until`
    return ending > next_ ? ending - next_ : 0;
}

std::optional<WindowBatch> LiveWindows::take(const LiveRecording& recording, Tick until, std::size_t stride,
                                             const std::vector<std::string>& labels, const TimeBase& time_base) {
    if (recording.empty()) return std::nullopt;
    const Tick origin = recording.origin();
    const std::size_t count = waiting(origin, until);
    if (count == 0) return std::nullopt;
    WindowBatch batch;
    batch.first = next_;
    for (std::size_t w = next_; w < next_ + count; w += std::max<std::size_t>(stride, 1)) batch.chosen.push_back(w);
    next_ += count;
    batch.next = next_;
    // One count over the chosen windows' stretch: its bins start at the first one's start,
    // and the spikes a longest lag before it only start pairs.
    const TimeSpan from = span(batch.first, origin);
    const TimeSpan to = span(batch.chosen.back(), origin);
    batch.part = recording.part(from.start - reach_, to.end, from.start, labels, time_base);
    batch.options = options_;
    batch.options.origin = from.start;
    batch.options.grid = recording.grid();
    batch.options.progress = nullptr;
    batch.labels = labels;
    return batch;
}

std::vector<DecidedWindow> LiveWindows::count(const WindowBatch& batch) {
    mining::CofiringWindows windows(batch.part, batch.options);
    std::vector<DecidedWindow> out;
    for (const std::size_t w : batch.chosen) {
        DecidedWindow decided;
        decided.grid = *batch.options.grid;
        windows.skip_to(w - batch.first);
        windows.next(decided.window);
        decided.window.index = w;
        std::vector<graph::UndirectedEdge> edges;
        for (const auto& [a, b] : mining::joined_pairs(decided.window)) edges.push_back({a, b, 0.0F});
        decided.cliques = graph::small_graph_cliques(static_cast<graph::Vertex>(batch.labels.size()), edges, min_size_);
        out.push_back(std::move(decided));
    }
    const std::lock_guard<std::mutex> guard(lock_);
    if (decided_.size() < batch.next) decided_.resize(batch.next);
    for (const DecidedWindow& d : out) decided_[d.window.index] = d;
    return out;
}

std::optional<DecidedWindow> LiveWindows::at(std::size_t w) const {
    const std::lock_guard<std::mutex> guard(lock_);
    return w < decided_.size() ? decided_[w] : std::nullopt;
}

mining::CofiringWindow renamed(const mining::CofiringWindow& window, const std::vector<NeuronId>& remap) {
    mining::CofiringWindow out = window;
    for (mining::CofiringEdge& e : out.edges) {
        e.a = remap[e.a];
        e.b = remap[e.b];
        if (e.interval == mining::kSynchrony && e.b < e.a) std::swap(e.a, e.b);
    }
    std::sort(out.edges.begin(), out.edges.end(),
              [](const mining::CofiringEdge& x, const mining::CofiringEdge& y) { return std::tie(x.a, x.b, x.interval) < std::tie(y.a, y.b, y.interval); });
    return out;
}

}  // namespace spikeminer::live
