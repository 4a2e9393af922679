// See event_recovery.hpp.
#include "event_recovery.hpp"

#include <algorithm>
#include <set>

namespace spikeminer::pipeline::detail {
namespace {

// Reported events match embedded ones this close in time.
constexpr double kWithinSeconds = 10;

struct TruthEvent {
    EventKind kind;
    Tick time;
    std::vector<NeuronId> members;
};

struct Stretch {
    std::vector<NeuronId> members;
    TimeSpan span;
};

bool related(const std::vector<NeuronId>& a, const std::vector<NeuronId>& b) {
    std::vector<NeuronId> both;
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(both));
    return 2 * both.size() > std::min(a.size(), b.size());
}

// The events of the embedded stretches, within the recording [from, to).
std::vector<TruthEvent> truth_events(const simulator::GroundTruth& truth, Tick from, Tick to, Tick slack) {
    std::vector<Stretch> stretches;
    for (const auto& a : truth.assemblies) {
        std::vector<NeuronId> members = a.members;
        std::sort(members.begin(), members.end());
        for (const TimeSpan& p : a.active) stretches.push_back({members, p});
    }
    const auto near = [slack](Tick x, Tick y) { return std::max(x, y) - std::min(x, y) <= slack; };
    std::vector<TruthEvent> events;
    std::set<std::pair<std::size_t, int>> said;  // (stretch, kind) once
    const auto say = [&](std::size_t s, EventKind kind, Tick t) {
        if (said.insert({s, static_cast<int>(kind)}).second) events.push_back({kind, t, stretches[s].members});
    };
    for (std::size_t i = 0; i < stretches.size(); ++i) {
        const Stretch& x = stretches[i];
        std::vector<std::size_t> before, after;  // related stretches ending as x starts; starting as it ends
        for (std::size_t j = 0; j < stretches.size(); ++j) {
            if (j == i || !related(x.members, stretches[j].members)) continue;
            if (near(stretches[j].span.end, x.span.start)) before.push_back(j);
            if (near(stretches[j].span.start, x.span.end)) after.push_back(j);
        }
        if (x.span.start > from + slack) {
            if (before.empty()) {
                say(i, EventKind::Appears, x.span.start);
            } else if (before.size() >= 2) {
                for (const std::size_t j : before) say(j, EventKind::Merges, x.span.start);
            } else {
                std::size_t siblings = 0;  // stretches starting with x from the same one
                for (std::size_t k = 0; k < stretches.size(); ++k) {
                    if (near(stretches[k].span.start, x.span.start) && related(stretches[k].members, stretches[before[0]].members)) ++siblings;
                }
                const std::size_t had = stretches[before[0]].members.size();
                if (siblings >= 2) say(i, EventKind::Splits, x.span.start);
                else if (x.members.size() > had) say(i, EventKind::Grows, x.span.start);
                else if (x.members.size() < had) say(i, EventKind::Shrinks, x.span.start);
            }
        }
        if (x.span.end < to - slack && after.empty()) say(i, EventKind::Ends, x.span.end);
    }
    return events;
}

}  // namespace

void recover_events(const simulator::GroundTruth& truth, const PipelineResult& result, const TimeBase& time_base, Recovery& r) {
    if (result.windows.empty()) return;
    const Tick from = result.windows.front().span.start;
    const Tick to = result.windows.back().span.end;
    const Tick slack = time_base.from_seconds(1.0);
    const std::vector<TruthEvent> embedded = truth_events(truth, from, to, slack);
    r.events = embedded.size();
    r.events_reported = result.events.size();
    const Tick within = time_base.from_seconds(kWithinSeconds);
    std::vector<bool> used(result.events.size(), false);
    double error = 0;
    for (const TruthEvent& t : embedded) {
        std::size_t best = result.events.size();
        Tick best_gap = within + 1;
        for (std::size_t e = 0; e < result.events.size(); ++e) {
            const AssemblyEvent& reported = result.events[e];
            if (used[e] || reported.kind != t.kind || reported.window >= result.windows.size()) continue;
            const auto a = assembly_index(result, reported.assembly);
            if (!a || jaccard(result.assemblies[*a].members, t.members) < 0.5) continue;
            const Tick at = result.windows[reported.window].span.start;
            const Tick gap = std::max(at, t.time) - std::min(at, t.time);
            if (gap < best_gap) {
                best_gap = gap;
                best = e;
            }
        }
        if (best == result.events.size()) continue;
        used[best] = true;
        ++r.events_found;
        error += time_base.to_seconds(best_gap);
    }
    r.events_true = static_cast<std::size_t>(std::count(used.begin(), used.end(), true));
    r.event_time_error_s = r.events_found == 0 ? 0.0 : error / static_cast<double>(r.events_found);
}

}  // namespace spikeminer::pipeline::detail
