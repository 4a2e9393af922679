// See assemblies.hpp.
#include "assemblies.hpp"

#include "spikeminer/app/pipeline/assembly_activity.hpp"
#include "spikeminer/graph/cliques.hpp"

#include <algorithm>
#include <iterator>

namespace spikeminer::pipeline::detail {
namespace {

// A candidate assembly before its activity decides whether it is reported.
struct Candidate {
    TrackedAssembly track;
    std::vector<NeuronId> members;
};

// The window holding time t at its start's side: the one whose step t falls in.
std::size_t window_of(const std::vector<WindowSummary>& windows, Tick step, Tick t) {
    if (windows.size() < 2 || step <= 0) return 0;
    const Tick from = windows.front().span.start;
    const auto w = t <= from ? std::size_t{0} : static_cast<std::size_t>((t - from) / step);
    return std::min(w, windows.size() - 1);
}

}  // namespace

std::vector<std::vector<NeuronId>> whole_recording_assemblies(const SpikeTrains& trains, mining::CofiringOptions cofiring,
                                                              const RunConfig& config, Progress* progress, std::string& note) {
    cofiring.window = 0;
    cofiring.step = 0;
    cofiring.progress = progress;
    mining::CofiringWindows whole(trains, cofiring);
    mining::CofiringWindow window;
    whole.next(window);
    if (!whole.backend().note.empty()) note = whole.backend().note;
    const graph::Graph graph = graph::Graph::from_edges(static_cast<graph::Vertex>(trains.num_neurons()), mining::joined_pairs(window));
    graph::CliqueOptions cliques;
    cliques.min_size = config.min_size;
    cliques.backend = parse_backend(config.backend);
    cliques.threads = config.threads;
    cliques.progress = progress;
    std::vector<std::vector<NeuronId>> found;
    (void)graph::enumerate_maximal_cliques(graph, cliques, [&found](std::span<const graph::Vertex> c) { found.emplace_back(c.begin(), c.end()); });
    std::sort(found.begin(), found.end());
    return found;
}

std::optional<std::uint32_t> holding(const std::vector<std::vector<NeuronId>>& assemblies, const std::vector<NeuronId>& clique) {
    std::optional<std::uint32_t> best;
    for (std::size_t a = 0; a < assemblies.size(); ++a) {
        if (best && assemblies[a].size() >= assemblies[*best].size()) continue;
        if (std::includes(assemblies[a].begin(), assemblies[a].end(), clique.begin(), clique.end())) best = static_cast<std::uint32_t>(a);
    }
    return best;
}

void assemblies_through_time(const SpikeTrains& trains, const RunConfig& config, const std::vector<std::vector<NeuronId>>& whole,
                             const AssemblyTracker& tracker, PipelineResult& result) {
    const auto first_track = static_cast<std::uint32_t>(whole.size());
    std::vector<Candidate> candidates(whole.size());
    for (std::size_t a = 0; a < whole.size(); ++a) {
        candidates[a].track.id = static_cast<std::uint32_t>(a);
        candidates[a].members = whole[a];
    }
    // Where each whole-recording assembly was seen: its windows' cliques.
    for (const WindowSummary& w : result.windows) {
        for (std::size_t c = 0; c < w.cliques.size(); ++c) {
            if (w.assemblies[c] >= first_track) continue;
            TrackedAssembly& track = candidates[w.assemblies[c]].track;
            if (track.windows.empty() || track.windows.back() != w.index) {
                track.windows.push_back(w.index);
                track.members.emplace_back();
            }
            std::vector<NeuronId>& seen = track.members.back();
            std::vector<NeuronId> joined;
            std::set_union(seen.begin(), seen.end(), w.cliques[c].begin(), w.cliques[c].end(), std::back_inserter(joined));
            seen = std::move(joined);
        }
    }
    for (const TrackedAssembly& t : tracker.assemblies()) {
        if (t.windows.size() < config.min_windows) continue;
        Candidate c{t, t.core()};
        c.track.id = first_track + t.id;
        candidates.push_back(std::move(c));
    }

    const mining::CofiringOptions& cofiring = result.cofiring;
    const Tick sync = std::max<Tick>(cofiring.lags.sync, 0);
    const TimeSpan span = trains.span();
    const mining::Interval baseline = cofiring.lags.baseline;
    const Tick shifts[] = {baseline.lo + 1, (baseline.lo + baseline.hi) / 2, baseline.hi};
    ActivityOptions activity;
    activity.step = cofiring.step > 0 ? cofiring.step : std::max<Tick>(1, span.length() / 1000);
    std::vector<std::uint32_t> reported;
    for (Candidate& c : candidates) {
        const std::vector<Tick> activations = activation_times(trains, c.members, span, sync);
        activity.chance_per_tick = chance_activation_rate(trains, c.members, span, sync, shifts);
        std::vector<TimeSpan> periods = active_periods(activations, span, activity);
        if (periods.empty()) continue;
        Assembly a;
        a.track = std::move(c.track);
        a.members = std::move(c.members);
        a.active = std::move(periods);
        a.span = {a.active.front().start, a.active.back().end};
        for (const TimeSpan& p : a.active) {
            const auto from = std::lower_bound(activations.begin(), activations.end(), p.start);
            const auto to = std::lower_bound(from, activations.end(), p.end);
            a.activations.insert(a.activations.end(), from, to);
            result.events.push_back({window_of(result.windows, cofiring.step, p.start), EventKind::Appears, a.track.id, 0});
            result.events.push_back({window_of(result.windows, cofiring.step, p.end - 1), EventKind::Ends, a.track.id, 0});
        }
        reported.push_back(a.track.id);
        result.assemblies.push_back(std::move(a));
    }
    // The window groups' changes of membership, between reported assemblies.
    const auto is_reported = [&](std::uint32_t id) { return std::binary_search(reported.begin(), reported.end(), id); };
    for (const AssemblyEvent& e : tracker.events()) {
        const AssemblyEvent moved{e.window, e.kind, first_track + e.assembly, first_track + e.other};
        const bool change = e.kind == EventKind::Grows || e.kind == EventKind::Shrinks || e.kind == EventKind::Splits || e.kind == EventKind::Merges;
        const bool both = e.kind == EventKind::Grows || e.kind == EventKind::Shrinks || is_reported(moved.other);
        if (change && is_reported(moved.assembly) && both) result.events.push_back(moved);
    }
    std::stable_sort(result.events.begin(), result.events.end(), [](const AssemblyEvent& x, const AssemblyEvent& y) { return x.window < y.window; });
    for (WindowSummary& w : result.windows) {
        for (std::uint32_t& id : w.assemblies) id = is_reported(id) ? id : kNoAssembly;
    }
}

}  // namespace spikeminer::pipeline::detail
