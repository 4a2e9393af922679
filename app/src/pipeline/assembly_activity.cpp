// See assembly_activity.hpp.
#include "spikeminer/app/pipeline/assembly_activity.hpp"

#include "spikeminer/mining/tails.hpp"

#include <algorithm>
#include <cmath>

namespace spikeminer::pipeline {
namespace {

// Rounds of estimating the on rate from the on steps and finding the states again.
constexpr int kRounds = 8;

// The most likely on/off state of each step (Viterbi) for counts per step, off's and on's
// expected counts a step, and the log probability of a switch.
std::vector<bool> most_likely_states(const std::vector<std::uint32_t>& counts, double off, double on, double log_switch,
                                     double log_stay) {
    // A step's log probability under each state, less what both share (ln n!).
    const auto emit = [](std::uint32_t n, double mean) { return static_cast<double>(n) * std::log(mean) - mean; };
    const std::size_t steps = counts.size();
    std::vector<std::uint8_t> came_from(2 * steps, 0);  // the better previous state of (step, state)
    double score[2] = {emit(counts[0], off), emit(counts[0], on)};
    for (std::size_t i = 1; i < steps; ++i) {
        double next[2];
        for (int state = 0; state < 2; ++state) {
            const double stay = score[state] + log_stay;
            const double change = score[1 - state] + log_switch;
            came_from[2 * i + static_cast<std::size_t>(state)] = static_cast<std::uint8_t>(stay >= change ? state : 1 - state);
            next[state] = std::max(stay, change) + emit(counts[i], state == 0 ? off : on);
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

double chance_activation_rate(const SpikeTrains& trains, const std::vector<NeuronId>& members, TimeSpan span, Tick within,
                              std::span<const Tick> shifts) {
    if (shifts.empty() || span.length() <= 0) return 0;
    double total = 0;
    for (const Tick shift : shifts) total += static_cast<double>(activation_times(trains, members, span, within, shift).size());
    return total / static_cast<double>(shifts.size()) / static_cast<double>(span.length());
}

std::vector<TimeSpan> active_periods(std::span<const Tick> activations, TimeSpan span, const ActivityOptions& options) {
    if (activations.empty() || span.length() <= 0 || options.step <= 0) return {};
    const auto steps = static_cast<std::size_t>((span.length() + options.step - 1) / options.step);
    std::vector<std::uint32_t> counts(steps, 0);
    for (const Tick t : activations) {
        if (t >= span.start && t < span.end) ++counts[static_cast<std::size_t>((t - span.start) / options.step)];
    }
    const auto step = static_cast<double>(options.step);
    const double floor_rate = 0.5 / static_cast<double>(span.length());  // half an activation over the span
    const double off = std::max(options.chance_per_tick, floor_rate) * step;
    const double log_switch = std::log(options.switch_probability);
    const double log_stay = std::log1p(-options.switch_probability);
    // The on rate: the whole span's to start with (at least twice off's), then its on steps'.
    double on = std::max(2 * off, static_cast<double>(activations.size()) / static_cast<double>(steps));
    std::vector<bool> on_steps;
    for (int round = 0; round < kRounds; ++round) {
        on_steps = most_likely_states(counts, off, on, log_switch, log_stay);
        std::uint64_t seen = 0;
        std::size_t on_count = 0;
        for (std::size_t i = 0; i < steps; ++i) {
            if (!on_steps[i]) continue;
            seen += counts[i];
            ++on_count;
        }
        if (on_count == 0) return {};
        const double next = std::max(2 * off, static_cast<double>(seen) / static_cast<double>(on_count));
        if (std::fabs(next - on) <= 1e-9 * on) break;
        on = next;
    }
    // Runs of on steps, each kept when its activations are improbable under chance.
    struct Run {
        std::size_t first;
        std::size_t last;
    };
    std::vector<Run> runs;
    for (std::size_t i = 0; i < steps; ++i) {
        if (!on_steps[i]) continue;
        if (runs.empty() || runs.back().last != i) runs.push_back({i, i + 1}); else runs.back().last = i + 1;
    }
    std::vector<TimeSpan> periods;
    for (const Run& run : runs) {
        const Tick from = span.start + static_cast<Tick>(run.first) * options.step;
        const Tick to = span.start + static_cast<Tick>(run.last) * options.step;
        const auto first = std::lower_bound(activations.begin(), activations.end(), from);
        const auto last = std::lower_bound(first, activations.end(), to);
        if (first == last) continue;
        const auto seen = static_cast<std::uint64_t>(last - first);
        const double expected = off * static_cast<double>(run.last - run.first);
        if (mining::poisson_tail(seen, expected) > options.alpha / static_cast<double>(runs.size())) continue;
        periods.push_back({*first, *(last - 1) + 1});
    }
    return periods;
}

}  // namespace spikeminer::pipeline
