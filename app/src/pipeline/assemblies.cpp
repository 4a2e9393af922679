// See assemblies.hpp.
#include "assemblies.hpp"

#include "member_changes.hpp"

#include "spikeminer/app/pipeline/assembly_activity.hpp"
#include "spikeminer/graph/cliques.hpp"
#include "spikeminer/mining/tails.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <omp.h>
#include <set>

namespace spikeminer::pipeline::detail {
namespace {

// The false-positive rate of an active period and of a change of membership (Bonferroni
// over the periods, or the activations and members, of one assembly).
constexpr double kAlpha = 0.01;
// Steps between a larger assembly's end (start) and a part's start (end) that make the two
// a split (a merge).
constexpr Tick kHandOverSteps = 5;
// Chance's activations follow the members' rates counted over this many steps either side
// (none: the products of distinct members' counts in one step are unbiased however few
// they are, and follow rate changes of a step).
constexpr std::size_t kChanceSmoothing = 0;

// A candidate and its activity.
struct Candidate {
    bool whole = false;  // a clique of the whole recording's graph (else a window group)
    std::vector<NeuronId> members;
    std::vector<Tick> activations;  // over the whole recording
    std::vector<double> chance;     // chance's activations in each step
    Activity activity;
};

// Whether `part` lies mostly (more than half its members) inside `whole`, a larger or equal group.
bool mostly_inside(const std::vector<NeuronId>& part, const std::vector<NeuronId>& whole) {
    return whole.size() >= part.size() && 2 * shared_members(part, whole) > part.size();
}

}  // namespace

bool shows(const std::vector<NeuronId>& clique, const std::vector<NeuronId>& members) {
    const std::size_t both = shared_members(clique, members);
    return 2 * both > clique.size() && 2 * both > members.size();
}

namespace {

// Spans sorted by start, overlapping ones joined.
std::vector<TimeSpan> merged(const std::vector<TimeSpan>& sorted) {
    std::vector<TimeSpan> out;
    for (const TimeSpan& s : sorted) {
        if (!out.empty() && s.start <= out.back().end) out.back().end = std::max(out.back().end, s.end); else out.push_back(s);
    }
    return out;
}

// `periods` without the times `taken` covers (both sorted and disjoint).
std::vector<TimeSpan> without(const std::vector<TimeSpan>& periods, const std::vector<TimeSpan>& taken) {
    std::vector<TimeSpan> left;
    for (TimeSpan p : periods) {
        for (const TimeSpan& t : taken) {
            if (t.end <= p.start || t.start >= p.end) continue;
            if (t.start > p.start) left.push_back({p.start, t.start});
            p.start = std::max(p.start, t.end);
            if (p.start >= p.end) break;
        }
        if (p.start < p.end) left.push_back(p);
    }
    return left;
}

// Whether a window overlapping `piece` holds a clique that shows `members`.
bool seen_during(const std::vector<NeuronId>& members, TimeSpan piece, const std::vector<WindowSummary>& windows) {
    return std::any_of(windows.begin(), windows.end(), [&](const WindowSummary& w) {
        if (w.span.end <= piece.start || w.span.start >= piece.end) return false;
        return std::any_of(w.cliques.begin(), w.cliques.end(), [&](const std::vector<NeuronId>& c) { return shows(c, members); });
    });
}

// What is left of a candidate's on runs outside `taken`: the pieces whose activations still
// beat chance over the piece and, for a window group or a part of a larger assembly, in
// which a window shows it as a group, as periods (trimmed to their first and last
// activation) and runs.
Activity still_active(const Candidate& c, const std::vector<TimeSpan>& taken, TimeSpan span, Tick step, bool seen,
                      const std::vector<WindowSummary>& windows) {
    const std::vector<TimeSpan> pieces = without(c.activity.runs, taken);
    Activity left;
    for (const TimeSpan& p : pieces) {
        if (seen && !seen_during(c.members, p, windows)) continue;
        const auto first = std::lower_bound(c.activations.begin(), c.activations.end(), p.start);
        const auto last = std::lower_bound(first, c.activations.end(), p.end);
        if (first == last) continue;
        const double expected = expected_chance(c.chance, span, step, p);
        if (mining::poisson_tail(static_cast<std::uint64_t>(last - first), expected) * static_cast<double>(pieces.size()) > kAlpha) continue;
        left.periods.push_back({*first, *(last - 1) + 1});
        left.runs.push_back(p);
    }
    return left;
}

// The window whose step holds time t.
std::size_t window_of(const std::vector<WindowSummary>& windows, Tick step, Tick t) {
    if (windows.size() < 2 || step <= 0) return 0;
    const Tick from = windows.front().span.start;
    const auto w = t <= from ? std::size_t{0} : static_cast<std::size_t>((t - from) / step);
    return std::min(w, windows.size() - 1);
}

bool near(Tick a, Tick b, Tick tolerance) { return std::max(a, b) - std::min(a, b) <= tolerance; }

// The events of the assemblies (in id order, each with the on runs of its active periods):
// appears, ends, splits, merges at their active periods' bounds (not at the recording's own:
// an assembly active when it starts or ends neither appears nor ends; a hand-over between a
// larger assembly and its parts is judged by their on runs, whole steps, not by the first
// and last activations), grows and shrinks at their members' changes away from those bounds.
// `times` holds at least the members' spikes.
std::vector<AssemblyEvent> events_of(const NeuronTimes& times, TimeSpan span, const std::vector<Assembly>& assemblies,
                                     const std::vector<std::vector<TimeSpan>>& runs, const std::vector<WindowSummary>& windows, Tick step,
                                     Tick sync) {
    const Tick tolerance = kHandOverSteps * std::max<Tick>(step, 1);
    std::vector<AssemblyEvent> events;
    const auto add = [&](Tick t, EventKind kind, std::uint32_t id, std::uint32_t other) {
        events.push_back({window_of(windows, step, t), kind, id, other});
    };
    for (const Assembly& a : assemblies) {
        for (std::size_t k = 0; k < a.active.size(); ++k) {
            const TimeSpan& p = a.active[k];
            const TimeSpan& run = runs[a.track.id][k];
            // Its start: a split from a larger assembly ending then; a larger one's start
            // that its parts merge into; or it appears.
            bool handed_over = false;
            for (const Assembly& u : assemblies) {
                if (u.track.id == a.track.id) continue;
                for (const TimeSpan& q : runs[u.track.id]) {
                    if (mostly_inside(a.members, u.members) && u.members.size() > a.members.size() && near(q.end, run.start, tolerance)) {
                        add(p.start, EventKind::Splits, a.track.id, u.track.id);
                        handed_over = true;
                    }
                    if (mostly_inside(u.members, a.members) && a.members.size() > u.members.size() && near(q.end, run.start, tolerance)) {
                        handed_over = true;  // u merges into a: said at u's end
                    }
                }
            }
            if (!handed_over && run.start > span.start) add(p.start, EventKind::Appears, a.track.id, 0);
            // Its end: a merge into a larger assembly starting then; a split of its parts
            // starting then (said at their start); or it ends.
            handed_over = false;
            for (const Assembly& u : assemblies) {
                if (u.track.id == a.track.id) continue;
                for (const TimeSpan& q : runs[u.track.id]) {
                    if (mostly_inside(a.members, u.members) && u.members.size() > a.members.size() && near(q.start, run.end, tolerance)) {
                        add(p.end - 1, EventKind::Merges, a.track.id, u.track.id);
                        handed_over = true;
                    }
                    if (mostly_inside(u.members, a.members) && a.members.size() > u.members.size() && near(q.start, run.end, tolerance)) {
                        handed_over = true;
                    }
                }
            }
            if (!handed_over && run.end < span.end) add(p.end - 1, EventKind::Ends, a.track.id, 0);
        }
        // A change of members within the hand-over's reach of the start or end of an active
        // period (not the recording's own bounds) is that start or end seen through a few
        // activations, not a change of the assembly.
        const auto at_bound = [&](Tick t) {
            return std::any_of(runs[a.track.id].begin(), runs[a.track.id].end(), [&](const TimeSpan& r) {
                return (r.start > span.start && near(r.start, t, tolerance)) || (r.end < span.end && near(r.end, t, tolerance));
            });
        };
        std::set<std::pair<std::size_t, bool>> changed;  // (window, grew): one event each
        for (const MemberChange& c : member_changes(times, a.members, a.activations, sync, kAlpha)) {
            if (!at_bound(c.time) && changed.insert({window_of(windows, step, c.time), c.joined}).second) {
                add(c.time, c.joined ? EventKind::Grows : EventKind::Shrinks, a.track.id, 0);
            }
        }
    }
    std::stable_sort(events.begin(), events.end(), [](const AssemblyEvent& x, const AssemblyEvent& y) { return x.window < y.window; });
    return events;
}

}  // namespace

bool shows_one(const std::vector<std::vector<NeuronId>>& assemblies, const std::vector<NeuronId>& clique) {
    return std::any_of(assemblies.begin(), assemblies.end(), [&](const std::vector<NeuronId>& a) { return shows(clique, a); });
}

std::vector<std::vector<NeuronId>> whole_recording_assemblies(const SpikeTrains& trains, mining::CofiringOptions cofiring,
                                                              const RunConfig& config, Progress* progress, std::string& note) {
    cofiring.window = 0;
    cofiring.step = 0;
    cofiring.progress = progress;
    mining::CofiringWindows whole(trains, cofiring);
    mining::CofiringWindow window;
    whole.next(window);
    if (!whole.backend().note.empty()) note = whole.backend().note;
    return assemblies_of_whole(trains, window, config, progress);
}

std::vector<std::vector<NeuronId>> assemblies_of_whole(const SpikeTrains& trains, const mining::CofiringWindow& whole, const RunConfig& config,
                                                       Progress* progress) {
    const graph::Graph graph = graph::Graph::from_edges(static_cast<graph::Vertex>(trains.num_neurons()), mining::joined_pairs(whole));
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

void assemblies_through_time(const SpikeTrains& trains, const RunConfig& config, const std::vector<std::vector<NeuronId>>& whole,
                             const AssemblyTracker& tracker, PipelineResult& result) {
    const mining::CofiringOptions& cofiring = result.cofiring;
    const Tick sync = std::max<Tick>(cofiring.lags.sync, 0);
    const TimeSpan span = trains.span();
    ActivityOptions activity;
    activity.step = cofiring.step > 0 ? cofiring.step : std::max<Tick>(1, span.length() / 1000);
    activity.alpha = kAlpha;
    const int threads = config.threads != 0 ? static_cast<int>(config.threads) : omp_get_max_threads();
    std::map<NeuronId, std::set<NeuronId>> mates;  // each neuron's fellow members in the whole recording's cliques
    for (const auto& clique : whole) {
        for (const NeuronId n : clique) mates[n].insert(clique.begin(), clique.end());
    }
    // The window groups: tracked groups seen in enough windows.
    std::vector<const TrackedAssembly*> tracked;
    for (const TrackedAssembly& t : tracker.assemblies()) {
        if (t.windows.size() >= config.min_windows) tracked.push_back(&t);
    }
    // The spikes of every neuron a candidate can hold (the whole recording's cliques and the
    // window groups; fellows are in those cliques), each neuron's together.
    std::vector<NeuronId> involved;
    for (const auto& [n, fellows] : mates) involved.push_back(n);
    for (const TrackedAssembly* t : tracked) {
        for (const auto& m : t->members) involved.insert(involved.end(), m.begin(), m.end());
    }
    std::sort(involved.begin(), involved.end());
    involved.erase(std::unique(involved.begin(), involved.end()), involved.end());
    const NeuronTimes times(trains, involved);
    // Candidates: groups (a clique of the whole recording, or a window group's core) grown
    // or trimmed to the neurons firing together with them over a stretch, among their own
    // neurons and their fellows in the whole recording's cliques. Members may change through
    // the whole recording; a window group's stretch is short, and one that straddles a split
    // or a merge keeps only the neurons of most of it.
    struct Group {
        std::vector<NeuronId> core;
        std::set<NeuronId> around;
        TimeSpan during;
    };
    std::set<std::vector<NeuronId>> seen;
    std::vector<Candidate> candidates;
    // A candidate's activations over the whole recording, chance's and its activity.
    const auto assess = [&](Candidate& c) {
        std::vector<std::uint32_t> sizes;
        c.activations = activation_times(times, c.members, span, sync, 0, &sizes);
        c.chance = chance_activations(times, c.members, span, sync, activity.step, kChanceSmoothing);
        ActivityOptions own = activity;
        own.chance = c.chance;
        c.activity = active_periods(c.activations, sizes, span, own);
    };
    const auto offer = [&](const std::vector<Group>& groups, bool of_whole) {
        std::vector<std::vector<NeuronId>> members(groups.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
        for (std::size_t g = 0; g < groups.size(); ++g) {
            const Group& group = groups[g];
            members[g] = firing_together(times, group.core, {group.around.begin(), group.around.end()}, group.during, sync, kAlpha, of_whole);
        }
        const std::size_t from = candidates.size();
        for (std::vector<NeuronId>& m : members) {
            if (m.size() >= config.min_size && seen.insert(m).second) candidates.push_back({of_whole, std::move(m), {}, {}, {}});
        }
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
        for (std::size_t i = from; i < candidates.size(); ++i) assess(candidates[i]);
    };
    const auto with_fellows = [&mates](std::set<NeuronId>& any, const std::vector<NeuronId>& neurons) {
        for (const NeuronId n : neurons) {
            any.insert(n);
            if (const auto found = mates.find(n); found != mates.end()) any.insert(found->second.begin(), found->second.end());
        }
    };
    std::vector<Group> groups;
    for (const auto& clique : whole) {
        groups.push_back({clique, {}, span});
        with_fellows(groups.back().around, clique);
    }
    offer(groups, true);
    const std::size_t of_whole = candidates.size();
    // A window group mostly inside a whole-recording candidate, over a stretch mostly in that
    // candidate's on runs, is that assembly seen in part (it would lose those runs to it).
    const auto seen_in_part = [&](const std::vector<NeuronId>& core, TimeSpan during) {
        return std::any_of(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(of_whole), [&](const Candidate& c) {
            if (!mostly_inside(core, c.members)) return false;
            Tick covered = 0;
            for (const TimeSpan& r : c.activity.runs) covered += std::max<Tick>(0, std::min(r.end, during.end) - std::max(r.start, during.start));
            return 2 * covered > during.length();
        });
    };
    groups.clear();
    for (const TrackedAssembly* t : tracked) {
        const TimeSpan during{result.windows[t->windows.front()].span.start, result.windows[t->windows.back()].span.end};
        std::vector<NeuronId> core = t->core();
        if (seen_in_part(core, during)) continue;
        groups.push_back({std::move(core), {}, during});
        for (const auto& m : t->members) with_fellows(groups.back().around, m);
    }
    offer(groups, false);
    // Largest first (the whole recording's before the windows' at one size): a part mostly
    // inside a larger assembly loses the larger's on runs; a window group or a part keeps
    // only pieces in which a window shows it as a group.
    std::stable_sort(candidates.begin(), candidates.end(), [](const Candidate& x, const Candidate& y) { return x.members.size() > y.members.size(); });
    std::vector<Candidate> kept;
    // What is left of c's activity beside the larger assemblies kept; whether one holds most of it.
    const auto left_of = [&](Candidate& c) {
        std::vector<TimeSpan> taken;
        bool part = false;
        for (const Candidate& larger : kept) {
            if (!mostly_inside(c.members, larger.members)) continue;
            taken.insert(taken.end(), larger.activity.runs.begin(), larger.activity.runs.end());
            part = true;
        }
        if (part || !c.whole) {
            std::sort(taken.begin(), taken.end(), [](const TimeSpan& x, const TimeSpan& y) { return x.start < y.start; });
            c.activity = still_active(c, merged(taken), span, activity.step, part || !c.whole, result.windows);
        }
        return part;
    };
    const auto known = [&kept](const std::vector<NeuronId>& members) {
        return std::any_of(kept.begin(), kept.end(), [&](const Candidate& k) { return k.members == members; });
    };
    for (Candidate& c : candidates) {
        if (c.activity.periods.empty()) continue;
        if (left_of(c) && !c.activity.runs.empty()) {
            // A part keeps the members that fire together over what is left of it: a group
            // whose members joined where a larger assembly took over is, before that, the
            // group without them.
            const TimeSpan left{c.activity.runs.front().start, c.activity.runs.back().end};
            std::vector<NeuronId> members = firing_together(times, c.members, {}, left, sync, kAlpha, false);
            if (members != c.members) {
                if (members.size() < config.min_size || known(members)) continue;
                c.members = std::move(members);
                assess(c);
                (void)left_of(c);
            }
        }
        if (c.activity.periods.empty() || known(c.members)) continue;
        kept.push_back(std::move(c));
    }
    // Ids in order of first activity.
    std::stable_sort(kept.begin(), kept.end(),
                     [](const Candidate& x, const Candidate& y) { return x.activity.periods.front().start < y.activity.periods.front().start; });
    for (std::size_t i = 0; i < kept.size(); ++i) {
        Assembly a;
        a.track.id = static_cast<std::uint32_t>(i);
        a.members = kept[i].members;
        a.active = kept[i].activity.periods;
        a.span = {a.active.front().start, a.active.back().end};
        for (const TimeSpan& p : a.active) {
            const auto from = std::lower_bound(kept[i].activations.begin(), kept[i].activations.end(), p.start);
            a.activations.insert(a.activations.end(), from, std::lower_bound(from, kept[i].activations.end(), p.end));
        }
        result.assemblies.push_back(std::move(a));
    }
    // Each window's cliques: the assembly holding most of one (the smaller of equals, one
    // active in the window first), and the windows where each assembly was seen.
    for (WindowSummary& w : result.windows) {
        const Tick middle = w.span.start + w.span.length() / 2;
        w.assemblies.assign(w.cliques.size(), kNoAssembly);
        for (std::size_t c = 0; c < w.cliques.size(); ++c) {
            const auto rank = [&](const Assembly& a) {
                const bool on = std::any_of(a.active.begin(), a.active.end(), [&](const TimeSpan& p) { return p.start <= middle && middle < p.end; });
                return std::tuple(shared_members(w.cliques[c], a.members), on, -static_cast<std::ptrdiff_t>(a.members.size()));
            };
            const Assembly* best = nullptr;
            for (const Assembly& a : result.assemblies) {
                if (2 * shared_members(w.cliques[c], a.members) <= w.cliques[c].size()) continue;
                if (best == nullptr || rank(a) > rank(*best)) best = &a;
            }
            if (best == nullptr) continue;
            w.assemblies[c] = best->track.id;
            TrackedAssembly& track = result.assemblies[best->track.id].track;
            if (track.windows.empty() || track.windows.back() != w.index) {
                track.windows.push_back(w.index);
                track.members.emplace_back();
            }
            std::vector<NeuronId> joined;
            std::set_union(track.members.back().begin(), track.members.back().end(), w.cliques[c].begin(), w.cliques[c].end(),
                           std::back_inserter(joined));
            track.members.back() = std::move(joined);
        }
    }
    std::vector<std::vector<TimeSpan>> runs;
    for (const Candidate& c : kept) runs.push_back(c.activity.runs);
    result.events = events_of(times, span, result.assemblies, runs, result.windows, cofiring.step, sync);
}

}  // namespace spikeminer::pipeline::detail
