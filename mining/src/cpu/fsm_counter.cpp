// The streaming finite-state counter. For each node k it keeps the distinct end times of
// partial occurrences e1..ek that started after the last counted occurrence. A spike of
// e(k+1) at time t extends one iff some kept end s has lo < t - s <= hi; since the kept
// ends are sorted, after dropping those with s < t - hi the oldest one decides. The first
// time e_N is reached, an occurrence with the earliest possible end is complete: count it,
// forget every partial (the next occurrence must start after t), and skip the other spikes
// at t. A kept end s is never used by a spike at the same time (t - s = 0 is not > lo >= 0),
// so the order of simultaneous spikes cannot change the count.
#include "cpu_counters.hpp"

#include <deque>

namespace spikeminer::mining::detail {

std::uint64_t count_fsm(const NeuronTimes& times, const Episode& episode) {
    const std::size_t length = episode.size();
    // The episode's distinct neurons, each with its positions in the episode and a cursor.
    struct Source {
        NeuronId neuron;
        std::span<const Tick> spikes;
        std::size_t cursor = 0;
        std::vector<std::size_t> positions;
    };
    std::vector<Source> sources;
    for (std::size_t k = 0; k < length; ++k) {
        const NeuronId n = episode.neurons[k];
        std::size_t s = 0;
        while (s < sources.size() && sources[s].neuron != n) ++s;
        if (s == sources.size()) sources.push_back(Source{n, times.of(n), 0, {}});
        sources[s].positions.push_back(k);
    }
    std::vector<std::deque<Tick>> ends(length);
    std::uint64_t count = 0;
    for (;;) {
        Tick t = std::numeric_limits<Tick>::max();
        for (const Source& source : sources) {
            if (source.cursor < source.spikes.size()) t = std::min(t, source.spikes[source.cursor]);
        }
        if (t == std::numeric_limits<Tick>::max()) break;
        bool complete = false;
        for (Source& source : sources) {
            if (source.cursor == source.spikes.size() || source.spikes[source.cursor] != t) continue;
            while (source.cursor < source.spikes.size() && source.spikes[source.cursor] == t) ++source.cursor;
            for (const std::size_t k : source.positions) {
                if (complete) break;
                if (k > 0) {
                    std::deque<Tick>& previous = ends[k - 1];
                    const Interval& gap = episode.gaps[k - 1];
                    while (!previous.empty() && previous.front() < t - gap.hi) previous.pop_front();
                    if (previous.empty() || previous.front() >= t - gap.lo) continue;
                }
                if (k + 1 == length) {
                    complete = true;
                    continue;
                }
                std::deque<Tick>& mine = ends[k];
                while (!mine.empty() && mine.front() < t - episode.gaps[k].hi) mine.pop_front();  // can no longer extend
                if (mine.empty() || mine.back() != t) mine.push_back(t);
            }
        }
        if (complete) {
            ++count;
            for (auto& list : ends) list.clear();
        }
    }
    return count;
}

}  // namespace spikeminer::mining::detail
