#pragma once
// Small helpers shared by the mining tests: counting with one CPU counter, and text for
// failure messages.

#include "catch.hpp"

#include "spikeminer/mining/count.hpp"

#include <sstream>
#include <string>
#include <vector>

namespace spikeminer::test {

/// Neurons of the hand-made streams.
constexpr NeuronId A = 0;
constexpr NeuronId B = 1;
constexpr NeuronId C = 2;

/// Counts with `counter` on the CPU backend and checks that it ran there.
inline std::vector<std::uint64_t> cpu_counts(const SpikeTrains& trains, const std::vector<mining::Episode>& episodes,
                                             mining::Counter counter, unsigned threads = 0) {
    mining::CountOptions options;
    options.counter = counter;
    options.backend = Backend::Cpu;
    options.threads = threads;
    const mining::CountResult result = mining::count_episodes(trains, episodes, options);
    REQUIRE(result.counter == counter);
    REQUIRE(result.backend == Backend::Cpu);
    REQUIRE(result.counts.size() == episodes.size());
    return result.counts;
}

inline std::uint64_t cpu_count(const SpikeTrains& trains, const mining::Episode& episode, mining::Counter counter) {
    return cpu_counts(trains, {episode}, counter).front();
}

/// "0 -(1,3]-> 2" with neuron indices and bounds in ticks.
inline std::string describe(const mining::Episode& episode) {
    std::ostringstream text;
    for (std::size_t k = 0; k < episode.neurons.size(); ++k) {
        if (k > 0) text << " -(" << episode.gaps[k - 1].lo << "," << episode.gaps[k - 1].hi << "]-> ";
        text << episode.neurons[k];
    }
    return text.str();
}

/// "t@n t@n ..." for the whole stream.
inline std::string describe(const SpikeTrains& trains) {
    std::ostringstream text;
    for (std::size_t i = 0; i < trains.num_spikes(); ++i) text << trains.times()[i] << "@" << trains.neurons()[i] << " ";
    return text.str();
}

}  // namespace spikeminer::test
