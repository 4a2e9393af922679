// See event_recovery.hpp.
#include "event_recovery.hpp"

#include <algorithm>
#include <optional>
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

// Each embedded assembly's active periods, in order.
std::vector<Stretch> stretches_of(const simulator::GroundTruth& truth) {
    std::vector<Stretch> stretches;
    for (const auto& a : truth.assemblies) {
        std::vector<NeuronId> members = a.members;
        std::sort(members.begin(), members.end());
        for (const TimeSpan& p : a.active) stretches.push_back({members, p});
    }
    return stretches;
}

bool near(Tick x, Tick y, Tick slack) { return std::max(x, y) - std::min(x, y) <= slack; }

// The stretch that stretch i continues as one assembly that grows or shrinks: the only
// related stretch ending as it starts, from which no other starts then, with other members.
std::optional<std::size_t> continues(const std::vector<Stretch>& stretches, std::size_t i, Tick slack) {
    std::optional<std::size_t> from;
    for (std::size_t j = 0; j < stretches.size(); ++j) {
        if (j == i || !related(stretches[i].members, stretches[j].members) || !near(stretches[j].span.end, stretches[i].span.start, slack)) continue;
        if (from) return std::nullopt;
        from = j;
    }
    if (!from || stretches[*from].members == stretches[i].members) return std::nullopt;
    for (std::size_t k = 0; k < stretches.size(); ++k) {
        if (k != i && near(stretches[k].span.start, stretches[i].span.start, slack) && related(stretches[k].members, stretches[*from].members)) {
            return std::nullopt;
        }
    }
    return from;
}

// The events of the embedded stretches, within the recording [from, to).
std::vector<TruthEvent> truth_events(const simulator::GroundTruth& truth, Tick from, Tick to, Tick slack) {
    const std::vector<Stretch> stretches = stretches_of(truth);
    const auto near = [slack](Tick x, Tick y) { return detail::near(x, y, slack); };
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

TimeSpan continued_span(const simulator::GroundTruth& truth, TimeSpan period, const std::vector<NeuronId>& members, Tick slack) {
    const std::vector<Stretch> stretches = stretches_of(truth);
    std::vector<NeuronId> sorted = members;
    std::sort(sorted.begin(), sorted.end());
    const auto at = std::find_if(stretches.begin(), stretches.end(), [&](const Stretch& x) { return x.members == sorted && x.span == period; });
    if (at == stretches.end()) return period;
    TimeSpan span = period;
    // Back through the stretches it continues, and on through those that continue it (each
    // step to a stretch not seen, so that it ends).
    std::set<std::size_t> seen{static_cast<std::size_t>(at - stretches.begin())};
    for (std::optional<std::size_t> i = *seen.begin(); (i = continues(stretches, *i, slack)) && seen.insert(*i).second;) {
        span.start = std::min(span.start, stretches[*i].span.start);
    }
    for (std::size_t i = static_cast<std::size_t>(at - stretches.begin());;) {
        std::optional<std::size_t> next;
        for (std::size_t k = 0; k < stretches.size() && !next; ++k) {
            if (continues(stretches, k, slack) == i && !seen.count(k)) next = k;
        }
        if (!next) break;
        seen.insert(*next);
        span.end = std::max(span.end, stretches[*next].span.end);
        i = *next;
    }
    return span;
}

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
