#include "spikeminer/graph/adjacency_sets.hpp"

namespace spikeminer::graph {
// The batch's last update of each key, applied in key order: the same rule and the same
// counts as the PMA.
BatchResult AdjacencySets::insert_edges(std::span<const EdgeUpdate> batch) {
    for (const EdgeUpdate& u : batch) check_edge(u.src, u.dst, num_vertices());
    BatchResult result;
    for (const EdgeUpdate& u : last_per_key(batch)) {
        const bool inserted = out_[u.src].insert_or_assign(u.dst, u.value).second;
        ++(inserted ? result.applied : result.ignored);
    }
    edges_ += result.applied;
    return result;
}

BatchResult AdjacencySets::erase_edges(std::span<const EdgeRef> batch) {
    for (const EdgeRef& e : batch) check_edge(e.src, e.dst, num_vertices());
    BatchResult result;
    for (const EdgeRef& e : last_per_key(batch)) ++(out_[e.src].erase(e.dst) != 0 ? result.applied : result.ignored);
    edges_ -= result.applied;
    return result;
}

BatchResult AdjacencySets::update_values(std::span<const EdgeUpdate> batch) {
    for (const EdgeUpdate& u : batch) check_edge(u.src, u.dst, num_vertices());
    BatchResult result;
    for (const EdgeUpdate& u : last_per_key(batch)) {
        const auto it = out_[u.src].find(u.dst);
        if (it == out_[u.src].end()) {
            ++result.ignored;
        } else {
            it->second = u.value;
            ++result.applied;
        }
    }
    return result;
}

std::optional<float> AdjacencySets::find(Vertex src, Vertex dst) const {
    if (src >= num_vertices()) return std::nullopt;
    const auto it = out_[src].find(dst);
    return it == out_[src].end() ? std::nullopt : std::optional<float>(it->second);
}

}  // namespace spikeminer::graph
