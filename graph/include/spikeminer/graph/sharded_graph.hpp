#pragma once
// A dynamic graph cut by source vertex into shards, one per device (GPMA's multi-GPU
// layout): shard s holds the out-edges of the vertices in [cuts[s], cuts[s + 1]), each
// shard a whole structure (GpuPma, or CpuPma where host threads stand in for devices). A
// batch is split by source and the shares applied at once, one host thread per device, so
// the graph after every batch is the one structure's (dynamic_graph.hpp's rules are per
// key, and a key lives in one shard).

#include "spikeminer/core/device_threads.hpp"
#include "spikeminer/core/error.hpp"
#include "spikeminer/graph/dynamic_graph.hpp"
#include "spikeminer/graph/graph.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace spikeminer::graph {

/// Cuts (cuts[0] = 0, then each shard's first vertex) that give the `shards` ranges about
/// the same number of `sample`'s edges by source; even vertex ranges for an empty sample.
/// Throws Error for a sample edge past the vertex count.
inline std::vector<Vertex> balanced_cuts(Vertex vertices, std::size_t shards, std::span<const EdgeUpdate> sample) {
    std::vector<Vertex> cuts(shards, 0);
    if (sample.empty()) {
        for (std::size_t s = 1; s < shards; ++s) cuts[s] = static_cast<Vertex>(std::uint64_t{vertices} * s / shards);
        return cuts;
    }
    std::vector<std::uint64_t> out_degree(vertices, 0);
    for (const EdgeUpdate& e : sample) {
        if (e.src >= vertices || e.dst >= vertices) check_edge(e.src, e.dst, vertices);  // throws, naming the edge
        ++out_degree[e.src];
    }
    std::uint64_t seen = 0;
    std::size_t s = 1;
    for (Vertex v = 0; v < vertices && s < shards; ++v) {
        // Vertex v opens shard s once the shards before it hold their share.
        while (s < shards && seen * shards >= sample.size() * s) cuts[s++] = v;
        seen += out_degree[v];
    }
    while (s < shards) cuts[s++] = vertices;
    return cuts;
}

template <typename Dynamic>
class ShardedGraph {
public:
    /// Shard s is made on devices[s] (a device may be named twice; kNoDevice: on the host),
    /// cut at `cuts` (balanced_cuts).
    ShardedGraph(Vertex vertices, std::vector<int> devices, std::vector<Vertex> cuts)
        : vertices_(vertices), cuts_(checked(std::move(cuts), devices.size())),
          shards_(std::move(devices), [vertices](std::size_t) { return std::make_unique<Dynamic>(vertices); }) {}

    /// A batch that fails in one shard (out of memory) leaves the shares the other shards
    /// applied.
    BatchResult insert_edges(std::span<const EdgeUpdate> batch) {
        return apply(split(batch), [](Dynamic& g, std::span<const EdgeUpdate> share) { return g.insert_edges(share); });
    }
    BatchResult erase_edges(std::span<const EdgeRef> batch) {
        return apply(split(batch), [](Dynamic& g, std::span<const EdgeRef> share) { return g.erase_edges(share); });
    }
    BatchResult update_values(std::span<const EdgeUpdate> batch) {
        return apply(split(batch), [](Dynamic& g, std::span<const EdgeUpdate> share) { return g.update_values(share); });
    }

    /// The shard of the out-edges of `src`.
    [[nodiscard]] std::size_t shard_of(Vertex src) const {
        return static_cast<std::size_t>(std::upper_bound(cuts_.begin() + 1, cuts_.end(), src) - cuts_.begin() - 1);
    }
    /// `batch` by shard, each share in the batch's order (so the last update of a key stays
    /// last). Throws Error, splitting nothing, when an edge names a vertex past the graph.
    template <typename Update>
    [[nodiscard]] std::vector<std::vector<Update>> split(std::span<const Update> batch) const {
        std::vector<std::vector<Update>> shares(shards());
        for (const Update& u : batch) {
            // A bad edge changes no shard, as it changes nothing in one structure.
            if (u.src >= vertices_ || u.dst >= vertices_) check_edge(u.src, u.dst, vertices_);
            shares[shard_of(u.src)].push_back(u);
        }
        return shares;
    }

    [[nodiscard]] std::optional<float> find(Vertex src, Vertex dst) const {
        if (src >= vertices_) return std::nullopt;
        const std::size_t s = shard_of(src);
        std::optional<float> found;
        on_devices(std::span(shards_.devices()).subspan(s, 1), [&](std::size_t) { found = shards_[s].find(src, dst); });
        return found;
    }
    /// The whole graph, each vertex's row from its shard.
    [[nodiscard]] WeightedCsr to_csr() const {
        std::vector<WeightedCsr> parts(shards());
        shards_.each([&](std::size_t s, const Dynamic& shard) { parts[s] = shard.to_csr(); });
        WeightedCsr csr;
        csr.offsets.assign(1, 0);
        for (Vertex v = 0; v < vertices_; ++v) {
            const WeightedCsr& part = parts[shard_of(v)];
            csr.targets.insert(csr.targets.end(), part.targets.begin() + part.offsets[v], part.targets.begin() + part.offsets[v + 1]);
            csr.values.insert(csr.values.end(), part.values.begin() + part.offsets[v], part.values.begin() + part.offsets[v + 1]);
            csr.offsets.push_back(csr.targets.size());
        }
        return csr;
    }
    [[nodiscard]] Vertex num_vertices() const { return vertices_; }
    [[nodiscard]] std::size_t num_edges() const {
        std::vector<std::size_t> edges(shards());
        shards_.each([&](std::size_t s, const Dynamic& shard) { edges[s] = shard.num_edges(); });
        std::size_t total = 0;
        for (const std::size_t e : edges) total += e;
        return total;
    }

    [[nodiscard]] std::size_t shards() const { return shards_.size(); }
    /// Shard s, to be used on a thread where its device is current.
    [[nodiscard]] Dynamic& shard(std::size_t s) { return shards_[s]; }
    [[nodiscard]] const std::vector<int>& devices() const { return shards_.devices(); }
    [[nodiscard]] const std::vector<Vertex>& cuts() const { return cuts_; }

private:
    template <typename Update, typename Apply>
    BatchResult apply(const std::vector<std::vector<Update>>& shares, Apply each) {
        std::vector<BatchResult> results(shards());
        shards_.each([&](std::size_t s, Dynamic& shard) {
            if (!shares[s].empty()) results[s] = each(shard, std::span<const Update>(shares[s]));
        });
        BatchResult sum;
        for (const BatchResult& r : results) {
            sum.applied += r.applied;
            sum.ignored += r.ignored;
        }
        return sum;
    }

    static std::vector<Vertex> checked(std::vector<Vertex> cuts, std::size_t devices) {
        if (cuts.size() != devices || cuts.empty() || cuts[0] != 0 || !std::is_sorted(cuts.begin(), cuts.end())) {
            throw Error("sharded graph: one cut a device, the first 0, in order");
        }
        return cuts;
    }

    Vertex vertices_;
    std::vector<Vertex> cuts_;
    PerDevice<Dynamic> shards_;
};

}  // namespace spikeminer::graph
