#pragma once
// Seeded random spike streams and episodes for the counter tests (CPU and GPU). The
// generator is a plain 64-bit mixer (splitmix64), so a seed gives the same stream with any
// standard library.

#include "spikeminer/core/spike_trains.hpp"
#include "spikeminer/mining/episode.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace spikeminer::test {

/// splitmix64: small, fast and the same everywhere.
class Rng {
public:
    explicit Rng(std::uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ULL + 0x1234567ULL) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    /// Uniform in [lo, hi] (the modulo bias does not matter here).
    std::int64_t between(std::int64_t lo, std::int64_t hi) {
        return lo + static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(hi - lo + 1));
    }
    std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
    bool chance(unsigned percent) { return next() % 100 < percent; }

private:
    std::uint64_t state_;
};

/// Labels "n0", "n1", ...
inline NeuronTable labelled(std::size_t neurons) {
    NeuronTable table;
    for (std::size_t n = 0; n < neurons; ++n) table.labels.push_back("n" + std::to_string(n));
    return table;
}

/// Trains from (time, neuron) pairs, 1 ms tick, duplicates kept.
inline SpikeTrains make_trains(std::vector<Spike> spikes, std::size_t neurons, TimeBase time_base = TimeBase{1000}) {
    return SpikeTrains::from_spikes(std::move(spikes), labelled(neurons), time_base);
}

/// A tiny random stream: 2-4 neurons, 0-25 spikes in [offset, offset + 40], so that ties,
/// simultaneous spikes and same-neuron duplicates are common. Every third seed starts at
/// -20 ticks (times may be negative).
struct TinyStream {
    SpikeTrains trains;
    std::size_t neurons = 0;
};

inline TinyStream tiny_stream(std::uint64_t seed) {
    Rng rng(seed);
    const auto neurons = static_cast<std::size_t>(rng.between(2, 4));
    const auto spikes = static_cast<std::size_t>(rng.between(0, 25));
    const Tick offset = seed % 3 == 0 ? -20 : 0;
    const Tick span = rng.chance(30) ? 15 : 40;  // sometimes crowded
    std::vector<Spike> list;
    for (std::size_t i = 0; i < spikes; ++i) {
        list.push_back(Spike{offset + rng.between(0, span), static_cast<NeuronId>(rng.below(neurons))});
    }
    return TinyStream{make_trains(std::move(list), neurons), neurons};
}

/// A random stream of `spikes` spikes over `neurons` neurons in [0, span]; with
/// `bursty`, half the spikes come in bursts of a random neuron within a few ticks.
inline SpikeTrains random_stream(std::uint64_t seed, std::size_t neurons, std::size_t spikes, Tick span,
                                 bool bursty = false) {
    Rng rng(seed);
    std::vector<Spike> list;
    while (list.size() < spikes) {
        if (bursty && rng.chance(5)) {
            const Tick t = rng.between(0, span);
            const auto n = static_cast<NeuronId>(rng.below(neurons));
            const auto size = rng.between(2, 20);
            for (std::int64_t b = 0; b < size && list.size() < spikes; ++b) list.push_back(Spike{t + rng.between(0, 8), n});
        } else {
            list.push_back(Spike{rng.between(0, span), static_cast<NeuronId>(rng.below(neurons))});
        }
    }
    return make_trains(std::move(list), neurons);
}

/// The same spikes `offset` ticks later (labels and tick kept).
inline SpikeTrains shifted(const SpikeTrains& trains, Tick offset) {
    std::vector<Spike> spikes;
    for (std::size_t i = 0; i < trains.num_spikes(); ++i) spikes.push_back({trains.times()[i] + offset, trains.neurons()[i]});
    return SpikeTrains::from_spikes(std::move(spikes), trains.neuron_table(), trains.time_base());
}

/// A random episode: length 1-4, repeated neurons allowed, lo in 0..3, hi - lo in 1..6;
/// a third of the gaps start where the previous one ends (touching intervals).
inline mining::Episode random_episode(Rng& rng, std::size_t neurons, std::size_t max_length = 4) {
    mining::Episode episode;
    const auto length = static_cast<std::size_t>(rng.between(1, static_cast<std::int64_t>(max_length)));
    for (std::size_t k = 0; k < length; ++k) {
        episode.neurons.push_back(static_cast<NeuronId>(rng.below(neurons)));
        if (k == 0) continue;
        mining::Interval gap;
        gap.lo = !episode.gaps.empty() && rng.chance(33) ? episode.gaps.back().hi : rng.between(0, 3);
        gap.hi = gap.lo + rng.between(1, 6);
        episode.gaps.push_back(gap);
    }
    return episode;
}

/// `count` random episodes, each of length >= 2 followed by its twin whose first gap is
/// the touching interval (hi, 2 hi - lo] (as in (0,5] then (5,10]).
inline std::vector<mining::Episode> random_episodes(std::uint64_t seed, std::size_t neurons, std::size_t count,
                                                    std::size_t max_length = 4) {
    Rng rng(seed ^ 0xE915A0DEULL);
    std::vector<mining::Episode> episodes;
    while (episodes.size() < count) {
        mining::Episode episode = random_episode(rng, neurons, max_length);
        episodes.push_back(episode);
        if (episode.size() >= 2 && episodes.size() < count) {
            const mining::Interval first = episode.gaps.front();
            episode.gaps.front() = mining::Interval{first.hi, 2 * first.hi - first.lo};
            episodes.push_back(std::move(episode));
        }
    }
    return episodes;
}

}  // namespace spikeminer::test
