// See window_edges.hpp.
#include "spikeminer/app/pipeline/window_edges.hpp"

#include "spikeminer/core/error.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>

namespace spikeminer::pipeline {
namespace {

using Graph = std::map<std::pair<NeuronId, NeuronId>, float>;

void apply(Graph& graph, const EdgeChange& change) {
    if (change.kind == EdgeChange::Kind::Erased) {
        graph.erase({change.a, change.b});
    } else {
        graph[{change.a, change.b}] = change.weight;
    }
}

std::vector<WindowEdge> edges_of(const Graph& graph) {
    std::vector<WindowEdge> edges;
    edges.reserve(graph.size());
    for (const auto& [pair, weight] : graph) edges.push_back({pair.first, pair.second, weight});
    return edges;
}

}  // namespace

WindowEdges::WindowEdges(const std::vector<EdgeChange>& changes, std::size_t windows, std::size_t checkpoint_every)
    : changes_(&changes), windows_(windows), every_(std::max<std::size_t>(checkpoint_every, 1)), first_change_(windows + 1, changes.size()) {
    Graph graph;
    std::set<std::pair<NeuronId, NeuronId>> ever;
    std::size_t next = 0;
    for (std::size_t w = 0; w < windows; ++w) {
        first_change_[w] = next;
        for (; next < changes.size() && changes[next].window == w; ++next) {
            apply(graph, changes[next]);
            ever.emplace(changes[next].a, changes[next].b);
        }
        if (w % every_ == 0) checkpoints_.push_back(edges_of(graph));
    }
    if (next < changes.size()) {
        throw Error("edge change " + std::to_string(next) + " is for window " + std::to_string(changes[next].window) +
                    (changes[next].window < windows ? ", out of window order" : " of " + std::to_string(windows)));
    }
    ever_.assign(ever.begin(), ever.end());
}

std::vector<WindowEdge> WindowEdges::at(std::size_t w) const {
    if (w >= windows_) throw Error("window " + std::to_string(w) + " of " + std::to_string(windows_));
    const std::size_t checkpoint = w / every_;
    const std::vector<WindowEdge>& base = checkpoints_[checkpoint];
    const std::size_t from = first_change_[checkpoint * every_ + 1];  // the changes of windows after the checkpoint's ...
    const std::size_t to = first_change_[w + 1];                        // ... up to w's
    if (from >= to) return base;
    Graph graph;
    for (const WindowEdge& e : base) graph.emplace_hint(graph.end(), std::pair{e.a, e.b}, e.weight);
    for (std::size_t c = from; c < to; ++c) apply(graph, (*changes_)[c]);
    return edges_of(graph);
}

}  // namespace spikeminer::pipeline
