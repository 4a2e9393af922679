// Stage 7's end: what the pipeline recovered of a simulation's ground truth.
#include "spikeminer/app/pipeline/pipeline.hpp"

#include "event_recovery.hpp"

#include <algorithm>
#include <cstdlib>
#include <optional>

namespace spikeminer::pipeline {
namespace {

using ChainTruth = simulator::GroundTruth::ChainTruth;

double share(std::size_t part, std::size_t whole) { return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole); }

// Whether the step from node k of `episode` to node k+1 is link l of `chain`, at a delay
// interval that holds the link's delays.
bool is_link(const mining::Episode& episode, std::size_t k, const ChainTruth& chain, std::size_t l) {
    return episode.neurons[k] == chain.neurons[l] && episode.neurons[k + 1] == chain.neurons[(l + 1) % chain.neurons.size()] &&
           episode.gaps[k].lo < chain.delays[l].start && chain.delays[l].end <= episode.gaps[k].hi;
}

// Whether `episode` runs along one chain, in its order, possibly skipping neurons, each
// step's interval holding the sum of the delays of the links it spans.
bool is_chain_run(const mining::Episode& episode, const std::vector<ChainTruth>& chains) {
    for (const ChainTruth& chain : chains) {
        const std::size_t links = chain.delays.size();
        for (std::size_t start = 0; start < chain.neurons.size(); ++start) {
            if (chain.neurons[start] != episode.neurons[0]) continue;
            std::size_t at = start;  // the chain position of the episode's node k
            bool run = true;
            for (std::size_t k = 0; run && k + 1 < episode.size(); ++k) {
                // The next node: the nearest later position of the chain with its neuron.
                Tick low = 0;
                Tick high = 0;
                run = false;
                for (std::size_t next = at; next < links; ++next) {
                    low += chain.delays[next].start;
                    high += chain.delays[next].end;
                    if (chain.neurons[(next + 1) % chain.neurons.size()] != episode.neurons[k + 1]) continue;
                    run = episode.gaps[k].lo < low && high <= episode.gaps[k].hi;
                    at = next + 1;
                    break;
                }
            }
            if (run) return true;
        }
    }
    return false;
}

// Whether every neuron of `episode` is a member of one embedded assembly (its members fire
// within the jitter of each other, so in sequences too).
bool within_one_assembly(const mining::Episode& episode, const simulator::GroundTruth& truth) {
    return std::any_of(truth.assemblies.begin(), truth.assemblies.end(), [&](const auto& a) {
        return std::all_of(episode.neurons.begin(), episode.neurons.end(),
                           [&](NeuronId n) { return std::find(a.members.begin(), a.members.end(), n) != a.members.end(); });
    });
}

// The stretches an embedded assembly was active: its periods, or the whole recording.
std::vector<TimeSpan> periods(const simulator::GroundTruth::AssemblyTruth& truth, const std::vector<WindowSummary>& windows) {
    if (!truth.active.empty()) return truth.active;
    if (windows.empty()) return {};
    return {{windows.front().span.start, windows.back().span.end}};
}

bool overlap(TimeSpan x, TimeSpan y) { return x.start < y.end && y.start < x.end; }

Tick overlap_length(TimeSpan x, TimeSpan y) { return std::max<Tick>(0, std::min(x.end, y.end) - std::max(x.start, y.start)); }

// The active period of `tracked` that overlaps `stretch` most (its span when it has none
// listed); none when none overlaps.
std::optional<TimeSpan> active_during(const Assembly& tracked, TimeSpan stretch) {
    const std::vector<TimeSpan> periods = tracked.active.empty() ? std::vector<TimeSpan>{tracked.span} : tracked.active;
    std::optional<TimeSpan> best;
    for (const TimeSpan& p : periods) {
        if (overlap(p, stretch) && (!best || overlap_length(p, stretch) > overlap_length(*best, stretch))) best = p;
    }
    return best;
}

}  // namespace

double Recovery::chain_recall() const { return share(chain_links_found, chain_links); }
double Recovery::chain_precision() const { return share(long_episodes_true, long_episodes); }
double Recovery::assembly_recall() const { return share(assembly_periods_found, assembly_periods); }
double Recovery::assembly_precision() const { return share(assemblies_true, assemblies_tracked); }

Recovery recover(const simulator::GroundTruth& truth, const PipelineResult& result, const TimeBase& time_base) {
    Recovery r;
    for (const ChainTruth& chain : truth.chains) {
        for (std::size_t l = 0; l < chain.delays.size(); ++l) {
            ++r.chain_links;
            const bool found = std::any_of(result.episodes.episodes.begin(), result.episodes.episodes.end(), [&](const auto& f) {
                for (std::size_t k = 0; k + 1 < f.episode.size(); ++k) {
                    if (is_link(f.episode, k, chain, l)) return true;
                }
                return false;
            });
            r.chain_links_found += found ? 1 : 0;
        }
    }
    for (const auto& f : result.episodes.episodes) {
        if (f.episode.size() < 3) continue;
        ++r.long_episodes;
        r.long_episodes_true += is_chain_run(f.episode, truth.chains) || within_one_assembly(f.episode, truth) ? 1 : 0;
    }
    std::vector<bool> tracked_true(result.assemblies.size(), false);
    double error_s = 0;
    for (const auto& embedded : truth.assemblies) {
        for (const TimeSpan period : periods(embedded, result.windows)) {
            ++r.assembly_periods;
            // The tracked assembly most like it among those active during the stretch, and its
            // active period there.
            double best = 0;
            std::size_t match = 0;
            TimeSpan span;
            for (std::size_t a = 0; a < result.assemblies.size(); ++a) {
                const Assembly& tracked = result.assemblies[a];
                const std::optional<TimeSpan> active = active_during(tracked, period);
                if (!active) continue;
                const double similarity = jaccard(tracked.members, embedded.members);
                if (similarity >= 0.5 && similarity > best) {
                    best = similarity;
                    match = a;
                    span = *active;
                }
            }
            if (best == 0) continue;
            ++r.assembly_periods_found;
            tracked_true[match] = true;
            // An assembly that grows or shrinks goes on: its span runs through the change.
            const TimeSpan whole = detail::continued_span(truth, period, embedded.members, time_base.from_seconds(1.0));
            error_s += time_base.to_seconds(std::abs(span.start - whole.start) + std::abs(span.end - whole.end));
        }
    }
    r.assemblies_tracked = result.assemblies.size();
    r.assemblies_true = static_cast<std::size_t>(std::count(tracked_true.begin(), tracked_true.end(), true));
    r.span_error_s = r.assembly_periods_found == 0 ? 0.0 : error_s / static_cast<double>(r.assembly_periods_found);
    detail::recover_events(truth, result, time_base, r);
    return r;
}

}  // namespace spikeminer::pipeline
