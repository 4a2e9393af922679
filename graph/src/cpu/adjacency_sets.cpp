#include "spikeminer/graph/adjacency_sets.hpp"

namespace spikeminer::graph {
namespace {

// Applies `change` to each update in order (so the last update of a key wins) and counts
// each key once, by what its first update in the batch did.
template <typename Update, typename Change>
BatchResult in_order(std::span<const Update> batch, Change change) {
    std::map<std::pair<Vertex, Vertex>, bool> first;  // key -> changed the graph
    for (const Update& u : batch) {
        const bool changed = change(u);
        first.try_emplace({u.src, u.dst}, changed);
    }
    BatchResult result;
    for (const auto& [key, changed] : first) ++(changed ? result.applied : result.ignored);
    return result;
}

}  // namespace

BatchResult AdjacencySets::insert_edges(std::span<const EdgeUpdate> batch) {
    for (const EdgeUpdate& u : batch) check_edge(u.src, u.dst, num_vertices());
    return in_order(batch, [this](const EdgeUpdate& u) {
        const bool inserted = out_[u.src].insert_or_assign(u.dst, u.value).second;
        edges_ += inserted ? 1 : 0;
        return inserted;
    });
}

BatchResult AdjacencySets::erase_edges(std::span<const EdgeRef> batch) {
    for (const EdgeRef& e : batch) check_edge(e.src, e.dst, num_vertices());
    return in_order(batch, [this](const EdgeRef& e) {
        const bool erased = out_[e.src].erase(e.dst) != 0;
        edges_ -= erased ? 1 : 0;
        return erased;
    });
}

BatchResult AdjacencySets::update_values(std::span<const EdgeUpdate> batch) {
    for (const EdgeUpdate& u : batch) check_edge(u.src, u.dst, num_vertices());
    return in_order(batch, [this](const EdgeUpdate& u) {
        const auto it = out_[u.src].find(u.dst);
        if (it == out_[u.src].end()) return false;
        it->second = u.value;
        return true;
    });
}

std::optional<float> AdjacencySets::find(Vertex src, Vertex dst) const {
    if (src >= num_vertices()) return std::nullopt;
    const auto it = out_[src].find(dst);
    return it == out_[src].end() ? std::nullopt : std::optional<float>(it->second);
}

}  // namespace spikeminer::graph
