#pragma once
// The co-firing graph of a recording: the graph whose maximal cliques are candidate
// neuron assemblies (groups of neurons that fire together more often than chance).

#include "spikeminer/core/progress.hpp"
#include "spikeminer/core/spike_trains.hpp"
#include "spikeminer/graph/graph.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace spikeminer::graph {

struct CofiringOptions {
    Tick window = 0;             ///< two spikes coincide when |t_a - t_b| <= window (ticks)
    /// Chance is judged from the pairs of spikes further apart than the window but within
    /// this much (ticks) of each other: at those offsets the pair fires at the rate of
    /// chance, so the window's offsets would catch (2 w + 1) / (2 (b - w)) of them, w and
    /// b being the window and the baseline in steps of the grid the spike times lie on
    /// (the greatest common divisor of their differences: 1 ms for a simulation in 1 us
    /// ticks). Rates that rise and fall together (up and down states, stimuli) then do
    /// not count as co-firing. 0: against independent trains of constant rates instead,
    /// n_a n_b (2 w + 1) / T over a recording of T steps.
    Tick baseline = 0;
    std::uint64_t min_count = 1; ///< an edge needs at least this many coincidences,
    double min_ratio = 0;        ///< at least this many times the chance expectation,
    double min_z = 0;            ///< and at least this many standard deviations of chance above it
};

/// A pair of neurons that coincided: a < b, how often, and how often chance would have
/// them coincide (see CofiringOptions::baseline).
struct CofiringPair {
    NeuronId a = 0;
    NeuronId b = 0;
    std::uint64_t count = 0;
    double expected = 0;
    /// count / expected (infinite for coincidences where chance has none, as when two
    /// neurons only ever fire together).
    [[nodiscard]] double ratio() const { return expected > 0 ? static_cast<double>(count) / expected : kNoChance; }
    /// (count - expected) / sqrt(expected): chance counts are Poisson (infinite likewise).
    [[nodiscard]] double z() const { return expected > 0 ? (static_cast<double>(count) - expected) / std::sqrt(expected) : kNoChance; }
    static constexpr double kNoChance = std::numeric_limits<double>::infinity();
};

struct CofiringGraph {
    Graph graph;                       ///< one vertex per neuron; the kept pairs as edges
    std::vector<CofiringPair> edges;   ///< the kept pairs, sorted by (a, b)
    std::size_t pairs_coinciding = 0;  ///< pairs with at least one coincidence
};

/// Counts the coincidences of every pair of neurons (each pair of spikes of different
/// neurons within the window once, in one sweep over the time-sorted stream) and keeps
/// the pairs that pass the three thresholds. Throws UsageError for a negative window or a
/// baseline other than 0 that is not a grid step longer than the window; reports progress per spike and throws Cancelled
/// when asked to stop.
CofiringGraph cofiring_graph(const SpikeTrains& trains, const CofiringOptions& options, Progress* progress = nullptr);

}  // namespace spikeminer::graph
