// See tracking.hpp.
#include "spikeminer/app/pipeline/tracking.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <tuple>

namespace spikeminer::pipeline {

std::string event_name(EventKind kind) {
    switch (kind) {
        case EventKind::Appears: return "appears";
        case EventKind::Grows: return "grows";
        case EventKind::Shrinks: return "shrinks";
        case EventKind::Splits: return "splits";
        case EventKind::Merges: return "merges";
        case EventKind::Ends: return "ends";
    }
    return "appears";
}

std::size_t shared_members(const std::vector<NeuronId>& a, const std::vector<NeuronId>& b) {
    std::size_t shared = 0;
    for (std::size_t i = 0, j = 0; i < a.size() && j < b.size();) {
        if (a[i] < b[j]) ++i;
        else if (b[j] < a[i]) ++j;
        else { ++shared; ++i; ++j; }
    }
    return shared;
}

double jaccard(const std::vector<NeuronId>& a, const std::vector<NeuronId>& b) {
    const std::size_t shared = shared_members(a, b);
    const std::size_t together = a.size() + b.size() - shared;
    return together == 0 ? 0.0 : static_cast<double>(shared) / static_cast<double>(together);
}

std::vector<NeuronId> TrackedAssembly::core() const {
    std::map<NeuronId, std::size_t> seen;
    for (const auto& set : members) {
        for (const NeuronId n : set) ++seen[n];
    }
    std::vector<NeuronId> out;
    for (const auto& [n, times] : seen) {
        if (2 * times >= members.size()) out.push_back(n);
    }
    return out;
}

AssemblyTracker::AssemblyTracker(TrackingOptions options) : options_(options) {}

void AssemblyTracker::add_window(std::size_t window, const std::vector<std::vector<NeuronId>>& cliques) {
    struct Match {
        double similarity;
        std::uint32_t assembly;
        std::size_t clique;
    };
    std::vector<Match> matches;
    for (const std::uint32_t id : open_) {
        for (std::size_t c = 0; c < cliques.size(); ++c) {
            const double similarity = jaccard(assemblies_[id].members.back(), cliques[c]);
            if (similarity >= options_.jaccard && similarity > 0) matches.push_back({similarity, id, c});
        }
    }
    // Best first; ties by the older assembly, then the earlier clique.
    std::sort(matches.begin(), matches.end(), [](const Match& x, const Match& y) {
        return std::tuple(-x.similarity, x.assembly, x.clique) < std::tuple(-y.similarity, y.assembly, y.clique);
    });
    constexpr std::uint32_t kNone = ~std::uint32_t{0};
    std::vector<std::uint32_t> clique_to(cliques.size(), kNone);  // the assembly each clique continues
    std::map<std::uint32_t, std::size_t> assembly_to;             // the clique each assembly goes on with
    for (const Match& m : matches) {
        if (clique_to[m.clique] != kNone || assembly_to.count(m.assembly) != 0) continue;
        clique_to[m.clique] = m.assembly;
        assembly_to[m.assembly] = m.clique;
    }
    std::vector<AssemblyEvent> events;
    std::map<std::uint32_t, std::size_t> size_before;
    for (const auto& [id, c] : assembly_to) {
        TrackedAssembly& a = assemblies_[id];
        size_before[id] = a.members.back().size();
        a.windows.push_back(window);
        a.members.push_back(cliques[c]);
    }
    // Cliques left: another view of the assembly they match best when all their neurons are
    // its own, in the window before or in this one (edges missing in this window cut one
    // group into overlapping cliques); else split from it; else new.
    std::vector<std::uint32_t> opened;
    for (std::size_t c = 0; c < cliques.size(); ++c) {
        if (clique_to[c] != kNone) continue;
        const auto parent = std::find_if(matches.begin(), matches.end(), [c](const Match& m) { return m.clique == c; });
        if (parent != matches.end()) {
            TrackedAssembly& a = assemblies_[parent->assembly];
            const std::vector<NeuronId>& before = a.members[a.members.size() - 2];  // it went on in this window: two sets at least
            std::vector<NeuronId> known;
            std::set_union(before.begin(), before.end(), a.members.back().begin(), a.members.back().end(), std::back_inserter(known));
            if (std::includes(known.begin(), known.end(), cliques[c].begin(), cliques[c].end())) {
                std::vector<NeuronId> both;
                std::set_union(a.members.back().begin(), a.members.back().end(), cliques[c].begin(), cliques[c].end(), std::back_inserter(both));
                a.members.back() = std::move(both);
                clique_to[c] = parent->assembly;
                continue;
            }
        }
        const auto id = static_cast<std::uint32_t>(assemblies_.size());
        assemblies_.push_back({id, {window}, {cliques[c]}});
        opened.push_back(id);
        clique_to[c] = id;
        if (parent != matches.end()) {
            events.push_back({window, EventKind::Splits, id, parent->assembly});
        } else {
            events.push_back({window, EventKind::Appears, id, 0});
        }
    }
    for (const auto& [id, before] : size_before) {
        const std::size_t now = assemblies_[id].members.back().size();
        if (now > before) events.push_back({window, EventKind::Grows, id, 0});
        if (now < before) events.push_back({window, EventKind::Shrinks, id, 0});
    }
    // Assemblies left: merged into the one that took the clique they match best, or
    // unseen (ended once the gap is too long).
    std::vector<std::uint32_t> still_open;
    for (const std::uint32_t id : open_) {
        if (assembly_to.count(id) != 0) {
            still_open.push_back(id);
            continue;
        }
        const auto joined = std::find_if(matches.begin(), matches.end(), [id](const Match& m) { return m.assembly == id; });
        const std::size_t last = assemblies_[id].windows.back();
        if (joined != matches.end()) {
            events.push_back({last, EventKind::Merges, id, clique_to[joined->clique]});
        } else if (window - last > options_.max_gap) {
            events.push_back({last, EventKind::Ends, id, 0});
        } else {
            still_open.push_back(id);
        }
    }
    still_open.insert(still_open.end(), opened.begin(), opened.end());
    open_ = std::move(still_open);
    events_.insert(events_.end(), events.begin(), events.end());
    last_ids_.assign(clique_to.begin(), clique_to.end());
}

void AssemblyTracker::finish() {
    for (const std::uint32_t id : open_) events_.push_back({assemblies_[id].windows.back(), EventKind::Ends, id, 0});
    open_.clear();
    // In window order (an end is found only when the gap has passed).
    std::stable_sort(events_.begin(), events_.end(), [](const AssemblyEvent& x, const AssemblyEvent& y) { return x.window < y.window; });
}

}  // namespace spikeminer::pipeline
