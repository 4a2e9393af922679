#include "spikeminer/graph/adjacency_sets.hpp"

namespace spikeminer::graph {

BatchResult AdjacencySets::insert_edges(std::span<const EdgeUpdate> batch) {
    for (const EdgeUpdate& u : batch) check_edge(u.src, u.dst, num_vertices());
    // Applied in order, so the last update of a key wins; a key met twice counts once.
    std::map<std::pair<Vertex, Vertex>, bool> fresh;  // key -> inserted by this batch
    for (const EdgeUpdate& u : batch) {
        const bool inserted = out_[u.src].insert_or_assign(u.dst, u.value).second;
        if (inserted) ++edges_;
        fresh.try_emplace({u.src, u.dst}, inserted);
    }
    BatchResult result;
    for (const auto& [key, inserted] : fresh) ++(inserted ? result.applied : result.ignored);
    return result;
}

BatchResult AdjacencySets::erase_edges(std::span<const EdgeRef> batch) {
    for (const EdgeRef& e : batch) check_edge(e.src, e.dst, num_vertices());
    std::map<std::pair<Vertex, Vertex>, bool> seen;  // key -> erased by this batch
    for (const EdgeRef& e : batch) {
        const bool erased = out_[e.src].erase(e.dst) != 0;
        if (erased) --edges_;
        seen.try_emplace({e.src, e.dst}, erased);
    }
    BatchResult result;
    for (const auto& [key, erased] : seen) ++(erased ? result.applied : result.ignored);
    return result;
}

BatchResult AdjacencySets::update_values(std::span<const EdgeUpdate> batch) {
    for (const EdgeUpdate& u : batch) check_edge(u.src, u.dst, num_vertices());
    std::map<std::pair<Vertex, Vertex>, bool> seen;  // key -> present
    for (const EdgeUpdate& u : batch) {
        const auto it = out_[u.src].find(u.dst);
        if (it != out_[u.src].end()) it->second = u.value;
        seen.try_emplace({u.src, u.dst}, it != out_[u.src].end());
    }
    BatchResult result;
    for (const auto& [key, present] : seen) ++(present ? result.applied : result.ignored);
    return result;
}

std::optional<float> AdjacencySets::find(Vertex src, Vertex dst) const {
    if (src >= num_vertices()) return std::nullopt;
    const auto it = out_[src].find(dst);
    return it == out_[src].end() ? std::nullopt : std::optional<float>(it->second);
}

}  // namespace spikeminer::graph
