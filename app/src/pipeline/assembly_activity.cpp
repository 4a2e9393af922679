// See assembly_activity.hpp.
#include "spikeminer/app/pipeline/assembly_activity.hpp"

#include "spikeminer/mining/tails.hpp"

#include <algorithm>
#include <cmath>

namespace spikeminer::pipeline {
namespace {

// Rounds of estimating the on rate from the on steps and finding the states again.
constexpr int kRounds = 8;

// The most likely on/off state of each step (Viterbi) for counts per step, off's expected
// count in each step (chance's) and on's (chance's and the assembly's own), and the log
// probabilities of a switch and of staying.
std::vector<bool> most_likely_states(const std::vector<std::uint32_t>& counts, const std::vector<double>& off, double own, double log_switch,
                                     double log_stay) {
    // A step's log probability under each state, less what both share (ln n!).
    const auto emit = [](std::uint32_t n, double mean) { return static_cast<double>(n) * std::log(mean) - mean; };
    const std::size_t steps = counts.size();
    std::vector<std::uint8_t> came_from(2 * steps, 0);  // the better previous state of (step, state)
    double score[2] = {emit(counts[0], off[0]), emit(counts[0], off[0] + own)};
    for (std::size_t i = 1; i < steps; ++i) {
        double next[2];
        for (int state = 0; state < 2; ++state) {
            const double stay = score[state] + log_stay;
            const double change = score[1 - state] + log_switch;
            came_from[2 * i + static_cast<std::size_t>(state)] = static_cast<std::uint8_t>(stay >= change ? state : 1 - state);
            next[state] = std::max(stay, change) + emit(counts[i], state == 0 ? off[i] : off[i] + own);
        }
        score[0] = next[0];
        score[1] = next[1];
    }
    std::vector<bool> on_steps(steps);
    int state = score[1] > score[0] ? 1 : 0;
    for (std::size_t i = steps; i-- > 0;) {
        on_steps[i] = state == 1;
        state = came_from[2 * i + static_cast<std::size_t>(state)];
    }
    return on_steps;
}

}  // namespace

std::vector<Tick> activation_times(const SpikeTrains& trains, const std::vector<NeuronId>& members, TimeSpan span, Tick within,
                                   Tick shift) {
    // The members' spikes (shifted) within the span, in time order, each with its member's index.
    const auto all = trains.times();
    const auto before = [all](std::uint32_t i, Tick t) { return all[i] < t; };
    std::vector<std::pair<Tick, std::size_t>> spikes;
    for (std::size_t m = 0; m < members.size(); ++m) {
        const Tick moved = static_cast<Tick>(m) * shift;
        const auto of = trains.spikes_of(members[m]);
        const auto first = std::lower_bound(of.begin(), of.end(), span.start - moved, before);
        const auto last = std::lower_bound(first, of.end(), span.end - moved, before);
        for (auto it = first; it != last; ++it) spikes.emplace_back(all[*it] + moved, m);
    }
    std::sort(spikes.begin(), spikes.end());
    std::vector<Tick> out;
    std::vector<std::size_t> in_reach(members.size(), 0);
    std::size_t distinct = 0;
    std::size_t end = 0;  // spikes [i, end) are within `within` of spike i
    for (std::size_t i = 0; i < spikes.size();) {
        while (end < spikes.size() && spikes[end].first - spikes[i].first <= within) {
            if (in_reach[spikes[end].second]++ == 0) ++distinct;
            ++end;
        }
        if (2 * distinct > members.size()) {
            out.push_back(spikes[i].first);
            std::fill(in_reach.begin(), in_reach.end(), 0);  // the next group starts after this one's spikes
            distinct = 0;
            i = end;
            continue;
        }
        if (--in_reach[spikes[i].second] == 0) --distinct;
        ++i;
    }
    return out;
}

std::vector<double> chance_activations(const SpikeTrains& trains, const std::vector<NeuronId>& members, TimeSpan span, Tick within,
                                       Tick step, std::size_t smooth) {
    const std::size_t steps = span.length() <= 0 || step <= 0 ? 0 : static_cast<std::size_t>((span.length() + step - 1) / step);
    std::vector<double> chance(steps, 0);
    if (steps == 0 || members.empty()) return chance;
    // Each member's spikes up to the start of each step (a running count).
    const auto all = trains.times();
    std::vector<std::vector<double>> before(members.size(), std::vector<double>(steps + 1, 0));
    for (std::size_t m = 0; m < members.size(); ++m) {
        for (const std::uint32_t i : trains.spikes_of(members[m])) {
            const Tick t = all[i];
            if (t >= span.start && t < span.end) before[m][static_cast<std::size_t>((t - span.start) / step) + 1] += 1;
        }
        for (std::size_t s = 0; s < steps; ++s) before[m][s + 1] += before[m][s];
    }
    const std::size_t need = members.size() / 2 + 1;  // more than half
    const auto w = static_cast<double>(std::max<Tick>(within, 1));
    const double floor = 0.5 / static_cast<double>(steps);  // half an activation over the span
    std::vector<double> e(need + 1);
    for (std::size_t s = 0; s < steps; ++s) {
        const std::size_t from = s >= smooth ? s - smooth : 0;
        const std::size_t to = std::min(steps, s + smooth + 1);
        const double ticks = static_cast<double>(to - from) * static_cast<double>(step);
        // e_j of the members' rates (per tick), j up to `need`, member by member.
        std::fill(e.begin(), e.end(), 0.0);
        e[0] = 1;
        for (std::size_t m = 0; m < members.size(); ++m) {
            const double rate = (before[m][to] - before[m][from]) / ticks;
            for (std::size_t j = std::min(need, m + 1); j >= 1; --j) e[j] += e[j - 1] * rate;
        }
        const double per_tick = static_cast<double>(need) * e[need] * std::pow(w, static_cast<double>(need - 1));
        chance[s] = std::max(floor, per_tick * static_cast<double>(step));
    }
    return chance;
}

double expected_chance(const std::vector<double>& chance, TimeSpan span, Tick step, TimeSpan piece) {
    double expected = 0;
    for (Tick t = std::max(piece.start, span.start); t < piece.end && t < span.end;) {
        const auto i = static_cast<std::size_t>((t - span.start) / step);
        if (i >= chance.size()) break;
        const Tick step_end = span.start + static_cast<Tick>(i + 1) * step;
        const Tick until = std::min(piece.end, step_end);
        expected += chance[i] * static_cast<double>(until - t) / static_cast<double>(step);
        t = until;
    }
    return expected;
}

Activity active_periods(std::span<const Tick> activations, TimeSpan span, const ActivityOptions& options) {
    Activity out;
    const std::vector<double>& off = options.chance;
    if (activations.empty() || off.empty() || options.step <= 0) return out;
    const std::size_t steps = off.size();
    std::vector<std::uint32_t> counts(steps, 0);
    for (const Tick t : activations) {
        if (t < span.start || t >= span.end) continue;
        const auto i = static_cast<std::size_t>((t - span.start) / options.step);
        if (i < steps) ++counts[i];
    }
    const double log_switch = std::log(options.switch_probability);
    const double log_stay = std::log1p(-options.switch_probability);
    // The assembly's own rate a step: the whole span's to start with, then its on steps'.
    double own = std::max(static_cast<double>(activations.size()) / static_cast<double>(steps), 1.0 / static_cast<double>(steps));
    std::vector<bool> on_steps;
    for (int round = 0; round < kRounds; ++round) {
        on_steps = most_likely_states(counts, off, own, log_switch, log_stay);
        double seen = 0;
        std::size_t on_count = 0;
        for (std::size_t i = 0; i < steps; ++i) {
            if (!on_steps[i]) continue;
            seen += static_cast<double>(counts[i]) - off[i];
            ++on_count;
        }
        if (on_count == 0) return out;
        const double next = std::max(seen / static_cast<double>(on_count), 1.0 / static_cast<double>(steps));
        if (std::fabs(next - own) <= 1e-9 * own) break;
        own = next;
    }
    // Runs of on steps, each kept when its activations are improbable under chance.
    std::vector<TimeSpan> runs;
    for (std::size_t i = 0; i < steps; ++i) {
        if (!on_steps[i]) continue;
        const Tick from = span.start + static_cast<Tick>(i) * options.step;
        const Tick to = std::min(span.end, from + options.step);
        if (runs.empty() || runs.back().end != from) runs.push_back({from, to}); else runs.back().end = to;
    }
    for (const TimeSpan& run : runs) {
        const auto first = std::lower_bound(activations.begin(), activations.end(), run.start);
        const auto last = std::lower_bound(first, activations.end(), run.end);
        if (first == last) continue;
        const double expected = expected_chance(off, span, options.step, run);
        if (mining::poisson_tail(static_cast<std::uint64_t>(last - first), expected) * static_cast<double>(runs.size()) > options.alpha) continue;
        out.periods.push_back({*first, *(last - 1) + 1});
        out.runs.push_back(run);
    }
    return out;
}

}  // namespace spikeminer::pipeline
