#pragma once

#include "spikeminer/graph/dynamic_graph.hpp"

#include <map>
#include <optional>
#include <span>
#include <vector>

namespace spikeminer::graph {

/// A dynamic directed graph as one ordered map (target -> value) per vertex: GPMA's
/// "AdjLists (CPU)" baseline, with the semantics of dynamic_graph.hpp.
class AdjacencySets {
public:
    explicit AdjacencySets(Vertex vertices) : out_(vertices) {}

    BatchResult insert_edges(std::span<const EdgeUpdate> batch);
    BatchResult erase_edges(std::span<const EdgeRef> batch);
    BatchResult update_values(std::span<const EdgeUpdate> batch);

    [[nodiscard]] std::optional<float> find(Vertex src, Vertex dst) const;
    [[nodiscard]] std::size_t degree(Vertex v) const { return out_[v].size(); }
    template <typename F>
    void for_each_neighbor(Vertex v, F&& f) const {
        for (const auto& [target, value] : out_[v]) f(target, value);
    }
    [[nodiscard]] WeightedCsr to_csr() const { return compact_copy(*this); }

    [[nodiscard]] Vertex num_vertices() const { return static_cast<Vertex>(out_.size()); }
    [[nodiscard]] std::size_t num_edges() const { return edges_; }

private:
    std::vector<std::map<Vertex, float>> out_;
    std::size_t edges_ = 0;
};

}  // namespace spikeminer::graph
