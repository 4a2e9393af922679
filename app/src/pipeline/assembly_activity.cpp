// See assembly_activity.hpp.
#include "spikeminer/app/pipeline/assembly_activity.hpp"

#include "spikeminer/mining/tails.hpp"

#include <algorithm>
#include <cmath>

namespace spikeminer::pipeline {
namespace {

// Rounds of estimating the on rate from the on steps and finding the states again.
constexpr int kRounds = 8;

// Sorts `items`, made of runs [runs[r], runs[r + 1]) each sorted, by merging neighbouring
// runs: log2(runs) passes rather than a sort's log2(items).
template <typename T>
void merge_runs(std::vector<T>& items, std::vector<std::size_t> runs) {
    if (runs.size() <= 2) return;  // one run or none: in order already
    std::vector<T> merged(items.size());
    while (runs.size() > 2) {
        const std::size_t count = runs.size() - 1;
        std::vector<std::size_t> next{0};
        for (std::size_t r = 0; r < count; r += 2) {
            const std::size_t middle = runs[r + 1];
            const std::size_t end = r + 1 < count ? runs[r + 2] : middle;
            const auto at = [&items](std::size_t i) { return items.begin() + static_cast<std::ptrdiff_t>(i); };
            std::merge(at(runs[r]), at(middle), at(middle), at(end), merged.begin() + static_cast<std::ptrdiff_t>(runs[r]));
            next.push_back(end);
        }
        items.swap(merged);
        runs = std::move(next);
    }
}

// The most likely on/off state of each step (Viterbi) for counts per step, off's expected
// count in each step and on's (off's and the assembly's own), and the log probabilities of
// a switch and of staying; with the path's log probability (less what all paths share).
struct States {
    std::vector<bool> on;
    double score = 0;
};

States most_likely_states(const std::vector<std::uint32_t>& counts, const std::vector<double>& off, double own, double log_switch,
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
    States out{std::vector<bool>(steps), std::max(score[0], score[1])};
    int state = score[1] > score[0] ? 1 : 0;
    for (std::size_t i = steps; i-- > 0;) {
        out.on[i] = state == 1;
        state = came_from[2 * i + static_cast<std::size_t>(state)];
    }
    return out;
}

// Viterbi training from activations beyond chance a step of `low` while off and `high` while
// on: the states, then each level re-estimated from its steps (`low` stays 0 when
// `fixed_low`), until they settle.
States fit_states(const std::vector<std::uint32_t>& counts, const std::vector<double>& chance, double low, double high, bool fixed_low,
                  double log_switch, double log_stay) {
    const std::size_t steps = counts.size();
    const double least = 1.0 / static_cast<double>(steps);
    std::vector<double> off(steps);
    States states;
    for (int round = 0; round < kRounds; ++round) {
        for (std::size_t i = 0; i < steps; ++i) off[i] = chance[i] + low;
        states = most_likely_states(counts, off, high - low, log_switch, log_stay);
        double beyond[2] = {0, 0};
        std::size_t of_state[2] = {0, 0};
        for (std::size_t i = 0; i < steps; ++i) {
            beyond[states.on[i]] += static_cast<double>(counts[i]) - chance[i];
            ++of_state[states.on[i]];
        }
        if (of_state[1] == 0) break;
        const double next_low = fixed_low || of_state[0] == 0 ? 0.0 : std::max(0.0, beyond[0] / static_cast<double>(of_state[0]));
        const double next_high = std::max(beyond[1] / static_cast<double>(of_state[1]), least);
        if (next_high <= next_low) break;  // no two levels
        if (std::fabs(next_high - high) <= 1e-9 * high && std::fabs(next_low - low) <= 1e-9 * high) break;
        high = next_high;
        low = next_low;
    }
    return states;
}

// Two levels of activations beyond chance a step: the means of the lower and the upper of two
// clusters (1-D k-means) of the counts beyond chance averaged over `reach` steps either side.
std::pair<double, double> two_levels(const std::vector<std::uint32_t>& counts, const std::vector<double>& chance, std::size_t reach) {
    const std::size_t steps = counts.size();
    std::vector<double> before(steps + 1, 0);
    for (std::size_t i = 0; i < steps; ++i) before[i + 1] = before[i] + static_cast<double>(counts[i]) - chance[i];
    std::vector<double> level(steps);
    for (std::size_t i = 0; i < steps; ++i) {
        const std::size_t from = i >= reach ? i - reach : 0;
        const std::size_t to = std::min(steps, i + reach + 1);
        level[i] = (before[to] - before[from]) / static_cast<double>(to - from);
    }
    auto [lo, hi] = std::minmax_element(level.begin(), level.end());
    double centre[2] = {*lo, *hi};
    for (int round = 0; round < kRounds && centre[0] < centre[1]; ++round) {
        double sum[2] = {0, 0};
        std::size_t n[2] = {0, 0};
        for (const double x : level) {
            const int side = x - centre[0] > centre[1] - x ? 1 : 0;
            sum[side] += x;
            ++n[side];
        }
        if (n[0] == 0 || n[1] == 0) break;
        centre[0] = sum[0] / static_cast<double>(n[0]);
        centre[1] = sum[1] / static_cast<double>(n[1]);
    }
    return {std::max(0.0, centre[0]), centre[1]};
}

// Whether the activations of the off steps hold fewer members than those of the on steps
// (one-sided z-test of the means, Welch's standard error, at `alpha`): parts of the assembly
// firing with a straggler, not the whole assembly firing less often.
bool fewer_members_off(std::span<const Tick> activations, std::span<const std::uint32_t> sizes, TimeSpan span, Tick step,
                       const std::vector<bool>& on, double alpha) {
    double sum[2] = {0, 0}, squares[2] = {0, 0}, n[2] = {0, 0};
    for (std::size_t k = 0; k < activations.size(); ++k) {
        const auto i = static_cast<std::size_t>((activations[k] - span.start) / step);
        if (activations[k] < span.start || i >= on.size()) continue;
        const int state = on[i] ? 1 : 0;
        const auto x = static_cast<double>(sizes[k]);
        sum[state] += x;
        squares[state] += x * x;
        n[state] += 1;
    }
    if (n[0] < 2 || n[1] < 2) return false;
    double mean[2], variance[2];
    for (int state = 0; state < 2; ++state) {
        mean[state] = sum[state] / n[state];
        variance[state] = std::max(0.0, (squares[state] - n[state] * mean[state] * mean[state]) / (n[state] - 1));
    }
    const double error = std::sqrt(variance[0] / n[0] + variance[1] / n[1]);
    if (error == 0) return mean[0] < mean[1];
    return 0.5 * std::erfc((mean[1] - mean[0]) / error / std::sqrt(2.0)) <= alpha;
}

}  // namespace

std::vector<Tick> activation_times(const NeuronTimes& times, const std::vector<NeuronId>& members, TimeSpan span, Tick within,
                                   Tick shift, std::vector<std::uint32_t>* sizes) {
    if (sizes != nullptr) sizes->clear();
    // The members' spikes (shifted) within the span, in time order, each with its member's
    // index: each member's run is in time order already, and the runs are merged.
    std::vector<std::pair<Tick, std::size_t>> spikes;
    std::vector<std::size_t> runs{0};
    for (std::size_t m = 0; m < members.size(); ++m) {
        const Tick moved = static_cast<Tick>(m) * shift;
        for (const Tick t : times.of(members[m], {span.start - moved, span.end - moved})) spikes.emplace_back(t + moved, m);
        runs.push_back(spikes.size());
    }
    merge_runs(spikes, std::move(runs));
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
            if (sizes != nullptr) sizes->push_back(static_cast<std::uint32_t>(distinct));
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

std::vector<Tick> activation_times(const SpikeTrains& trains, const std::vector<NeuronId>& members, TimeSpan span, Tick within,
                                   Tick shift, std::vector<std::uint32_t>* sizes) {
    return activation_times(NeuronTimes(trains, members), members, span, within, shift, sizes);
}

std::vector<double> chance_activations(const NeuronTimes& times, const std::vector<NeuronId>& members, TimeSpan span, Tick within,
                                       Tick step, std::size_t smooth) {
    const std::size_t steps = span.length() <= 0 || step <= 0 ? 0 : static_cast<std::size_t>((span.length() + step - 1) / step);
    std::vector<double> chance(steps, 0);
    if (steps == 0 || members.empty()) return chance;
    // Each member's spikes up to the start of each step (a running count).
    std::vector<std::vector<double>> before(members.size(), std::vector<double>(steps + 1, 0));
    for (std::size_t m = 0; m < members.size(); ++m) {
        for (const Tick t : times.of(members[m])) {
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

Activity active_periods(std::span<const Tick> activations, std::span<const std::uint32_t> sizes, TimeSpan span, const ActivityOptions& options) {
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
    // Off is chance alone, or chance and a lower level of activations that are not the whole
    // assembly (its parts firing, each with a straggler, as after a split): the second when
    // it explains the counts better by more than its extra level costs (half the log of the
    // steps, BIC) and its off steps' activations hold fewer members than its on steps'.
    const double whole = std::max(static_cast<double>(activations.size()) / static_cast<double>(steps), 1.0 / static_cast<double>(steps));
    States states = fit_states(counts, off, 0.0, whole, true, log_switch, log_stay);
    const auto reach = static_cast<std::size_t>(std::ceil(-log_switch));
    if (const auto [low, high] = two_levels(counts, off, reach); sizes.size() == activations.size() && low > 0 && high > low) {
        States lower = fit_states(counts, off, low, high, false, log_switch, log_stay);
        if (lower.score - states.score > 0.5 * std::log(static_cast<double>(steps)) &&
            fewer_members_off(activations, sizes, span, options.step, lower.on, options.alpha)) {
            states = std::move(lower);
        }
    }
    const std::vector<bool>& on_steps = states.on;
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
