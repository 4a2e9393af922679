#include "brute_force.hpp"

#include <algorithm>
#include <stdexcept>

namespace spikeminer::test {
namespace {

// Extends the partial occurrence `path` (nodes 0..k-1 chosen) at node k by every event of
// the stream that fits, recursing to the end.
void extend(const SpikeTrains& trains, const mining::Episode& episode, std::vector<std::uint32_t>& path,
            std::vector<BruteOccurrence>& out) {
    const std::size_t k = path.size();
    if (k == episode.size()) {
        const auto times = trains.times();
        out.push_back(BruteOccurrence{path, times[path.front()], times[path.back()]});
        return;
    }
    const auto times = trains.times();
    const auto neurons = trains.neurons();
    for (std::uint32_t i = 0; i < trains.num_spikes(); ++i) {
        if (neurons[i] != episode.neurons[k]) continue;
        if (k > 0) {
            const Tick gap = times[i] - times[path.back()];
            const mining::Interval& allowed = episode.gaps[k - 1];
            if (!(allowed.lo < gap && gap <= allowed.hi)) continue;
        }
        path.push_back(i);
        extend(trains, episode, path, out);
        path.pop_back();
    }
}

std::vector<std::pair<Tick, Tick>> spans_of(const std::vector<BruteOccurrence>& occurrences) {
    std::vector<std::pair<Tick, Tick>> spans;
    spans.reserve(occurrences.size());
    for (const BruteOccurrence& o : occurrences) spans.emplace_back(o.start, o.end);
    return spans;
}

}  // namespace

std::vector<BruteOccurrence> all_occurrences(const SpikeTrains& trains, const mining::Episode& episode) {
    if (episode.neurons.empty() || episode.gaps.size() + 1 != episode.neurons.size()) {
        throw std::logic_error("brute force: malformed episode");
    }
    std::vector<BruteOccurrence> out;
    std::vector<std::uint32_t> path;
    extend(trains, episode, path, out);
    return out;
}

std::uint64_t max_non_overlapped(std::vector<std::pair<Tick, Tick>> spans) {
    // best[i]: the largest set among the first i spans in end order. Span i either is not
    // in the set (best[i]) or is, with a best set among the spans that end strictly
    // before it starts (a prefix in end order, found by binary search).
    std::sort(spans.begin(), spans.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    std::vector<std::uint64_t> best(spans.size() + 1, 0);
    for (std::size_t i = 0; i < spans.size(); ++i) {
        const auto before = std::partition_point(spans.begin(), spans.begin() + static_cast<std::ptrdiff_t>(i),
                                                 [&](const auto& s) { return s.second < spans[i].first; });
        const auto j = static_cast<std::size_t>(before - spans.begin());
        best[i + 1] = std::max(best[i], best[j] + 1);
    }
    return best.back();
}

std::uint64_t max_non_overlapped_exhaustive(const std::vector<std::pair<Tick, Tick>>& spans) {
    if (spans.size() > 20) throw std::logic_error("exhaustive search: too many spans");
    const auto disjoint = [](const auto& a, const auto& b) { return a.second < b.first || b.second < a.first; };
    std::uint64_t best = 0;
    for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << spans.size()); ++mask) {
        std::uint64_t size = 0;
        bool ok = true;
        for (std::size_t i = 0; i < spans.size() && ok; ++i) {
            if ((mask >> i & 1U) == 0) continue;
            ++size;
            for (std::size_t j = 0; j < i && ok; ++j) {
                if ((mask >> j & 1U) != 0 && !disjoint(spans[i], spans[j])) ok = false;
            }
        }
        if (ok) best = std::max(best, size);
    }
    return best;
}

std::uint64_t brute_count(const SpikeTrains& trains, const mining::Episode& episode) {
    return max_non_overlapped(spans_of(all_occurrences(trains, episode)));
}

std::vector<std::pair<Tick, Tick>> greedy_spans(const std::vector<BruteOccurrence>& occurrences) {
    std::vector<std::pair<Tick, Tick>> chosen;
    for (;;) {
        const BruteOccurrence* next = nullptr;
        for (const BruteOccurrence& o : occurrences) {
            if (!chosen.empty() && o.start <= chosen.back().second) continue;
            if (next == nullptr || o.end < next->end || (o.end == next->end && o.start > next->start)) next = &o;
        }
        if (next == nullptr) return chosen;
        chosen.emplace_back(next->start, next->end);
    }
}

std::vector<BruteFrequent> brute_mine(const SpikeTrains& trains, const std::vector<NeuronId>& alphabet,
                                      const std::vector<mining::Interval>& intervals,
                                      const std::vector<std::uint64_t>& thresholds, std::size_t max_level) {
    std::vector<BruteFrequent> found;
    // Every episode of one length: odometers over neuron choices and interval choices.
    for (std::size_t length = 1; length <= max_level; ++length) {
        const std::uint64_t threshold = thresholds[std::min(length, thresholds.size()) - 1];
        std::vector<std::size_t> which(length, 0);
        for (bool more_neurons = true; more_neurons;) {
            std::vector<std::size_t> gap_choice(length - 1, 0);
            for (bool more_gaps = true; more_gaps;) {
                mining::Episode episode;
                for (std::size_t k = 0; k < length; ++k) episode.neurons.push_back(alphabet[which[k]]);
                for (std::size_t k = 0; k + 1 < length; ++k) episode.gaps.push_back(intervals[gap_choice[k]]);
                const std::uint64_t count = brute_count(trains, episode);
                if (count >= threshold) found.push_back(BruteFrequent{episode, count});
                more_gaps = false;
                for (std::size_t k = 0; k + 1 < length; ++k) {
                    if (++gap_choice[k] < intervals.size()) {
                        more_gaps = true;
                        break;
                    }
                    gap_choice[k] = 0;
                }
            }
            more_neurons = false;
            for (std::size_t k = 0; k < length; ++k) {
                if (++which[k] < alphabet.size()) {
                    more_neurons = true;
                    break;
                }
                which[k] = 0;
            }
        }
    }
    std::sort(found.begin(), found.end(),
              [](const BruteFrequent& a, const BruteFrequent& b) { return a.episode < b.episode; });
    return found;
}

}  // namespace spikeminer::test
