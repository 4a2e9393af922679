#pragma once

#include "spikeminer/graph/graph.hpp"

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace spikeminer::graph {

/// One directed edge update of a dynamic graph: insert (or overwrite) src -> dst with
/// `value`, or change the value of an existing edge.
struct EdgeUpdate {
    Vertex src = 0;
    Vertex dst = 0;
    float value = 1.0F;
};

/// A directed edge to remove.
struct EdgeRef {
    Vertex src = 0;
    Vertex dst = 0;
};

/// A compact copy of a dynamic graph: out-neighbours of each vertex sorted, with values.
struct WeightedCsr {
    std::vector<std::uint64_t> offsets;  ///< vertices + 1
    std::vector<Vertex> targets;
    std::vector<float> values;

    [[nodiscard]] Vertex num_vertices() const { return static_cast<Vertex>(offsets.empty() ? 0 : offsets.size() - 1); }
    template <typename F>
    void for_each_neighbor(Vertex v, F&& f) const {
        for (std::uint64_t e = offsets[v]; e < offsets[v + 1]; ++e) f(targets[e], values[e]);
    }
};

/// Semantics every dynamic graph shares (CPU PMA, adjacency sets, GPU GPMA+): edges are
/// directed and keyed by (src, dst); inserting an existing edge overwrites its value; in
/// one batch the last update of a key wins; erasing or updating an absent edge does
/// nothing (and is counted); vertex ids must be below the declared vertex count.
struct BatchResult {
    std::size_t applied = 0;  ///< edges inserted (new), erased, or whose value changed
    std::size_t ignored = 0;  ///< absent edges named by erase/update, or overwrites by insert
};

/// An edge as one sortable key: (src << 32) | dst, ordered by source then target.
constexpr std::uint64_t edge_key(Vertex src, Vertex dst) { return (std::uint64_t{src} << 32) | dst; }
constexpr Vertex key_src(std::uint64_t key) { return static_cast<Vertex>(key >> 32); }
constexpr Vertex key_dst(std::uint64_t key) { return static_cast<Vertex>(key & 0xffffffffU); }

/// A batch in key order with only the last update of each key (the rule every dynamic
/// graph applies; Update has src and dst).
template <typename Update>
std::vector<Update> last_per_key(std::span<const Update> batch) {
    std::vector<std::pair<std::uint64_t, std::size_t>> order(batch.size());  // (key, position in the batch)
    for (std::size_t i = 0; i < batch.size(); ++i) order[i] = {edge_key(batch[i].src, batch[i].dst), i};
    std::sort(order.begin(), order.end());
    std::vector<Update> unique;
    unique.reserve(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        if (i + 1 == order.size() || order[i].first != order[i + 1].first) unique.push_back(batch[order[i].second]);
    }
    return unique;
}

/// A compact copy of any dynamic graph (num_vertices, num_edges, for_each_neighbor).
template <typename Dynamic>
WeightedCsr compact_copy(const Dynamic& graph) {
    WeightedCsr csr;
    csr.offsets.reserve(static_cast<std::size_t>(graph.num_vertices()) + 1);
    csr.targets.reserve(graph.num_edges());
    csr.values.reserve(graph.num_edges());
    csr.offsets.push_back(0);
    for (Vertex v = 0; v < graph.num_vertices(); ++v) {
        graph.for_each_neighbor(v, [&csr](Vertex t, float value) {
            csr.targets.push_back(t);
            csr.values.push_back(value);
        });
        csr.offsets.push_back(csr.targets.size());
    }
    return csr;
}

}  // namespace spikeminer::graph
