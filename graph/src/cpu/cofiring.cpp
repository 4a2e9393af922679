// See cofiring.hpp.
#include "spikeminer/graph/cofiring.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/graph/dynamic_graph.hpp"

#include <algorithm>
#include <numeric>
#include <unordered_map>
#include <utility>

namespace spikeminer::graph {

CofiringGraph cofiring_graph(const SpikeTrains& trains, const CofiringOptions& options, Progress* progress) {
    if (options.window < 0) throw UsageError("the co-firing window must not be negative");
    // Chance counts the offsets two spikes can have, on the grid the spike times lie on (a
    // simulation's 1 ms steps in 1 us ticks: a 2 ms window holds 5 offsets, not 4,001
    // ticks' worth of 1/1,000 each).
    const auto times = trains.times();
    Tick grid = 0;
    for (std::size_t i = 1; i < times.size() && grid != 1; ++i) grid = std::gcd(grid, times[i] - times.front());
    grid = std::max<Tick>(grid, 1);
    if (options.baseline != 0 && options.baseline / grid <= options.window / grid) {
        throw UsageError("the co-firing baseline must be 0 or reach at least one time step (" + std::to_string(grid) +
                         " ticks here) beyond the window");
    }
    struct Tally {
        std::uint64_t coincident = 0;  // within the window
        std::uint64_t near = 0;        // within the baseline
    };
    const Tick reach = std::max(options.window, options.baseline);
    const auto neurons = trains.neurons();
    std::unordered_map<std::uint64_t, Tally> tallies;  // edge_key(a, b), a < b
    if (progress != nullptr) progress->begin("co-firing pairs", times.size());
    std::size_t first = 0;  // the earliest spike within reach of spike i
    for (std::size_t i = 0; i < times.size(); ++i) {
        while (times[first] < times[i] - reach) ++first;
        for (std::size_t j = first; j < i; ++j) {
            if (neurons[j] == neurons[i]) continue;
            const auto [a, b] = std::minmax(neurons[i], neurons[j]);
            Tally& tally = tallies[edge_key(a, b)];
            ++tally.near;
            if (times[i] - times[j] <= options.window) ++tally.coincident;
        }
        if (progress != nullptr && i % 65536 == 0) progress->update(i);
    }
    if (progress != nullptr) progress->finish();

    const double window_offsets = static_cast<double>(2 * (options.window / grid) + 1);
    const double share = window_offsets / static_cast<double>(2 * (options.baseline / grid - options.window / grid));
    const double per_offset = window_offsets / static_cast<double>(std::max<Tick>(trains.span().length() / grid, 1));
    CofiringGraph out;
    for (const auto& [key, tally] : tallies) {
        if (tally.coincident == 0) continue;
        ++out.pairs_coinciding;
        CofiringPair pair;
        pair.a = key_src(key);
        pair.b = key_dst(key);
        pair.count = tally.coincident;
        pair.expected = options.baseline != 0
            ? static_cast<double>(tally.near - tally.coincident) * share
            : static_cast<double>(trains.spike_count(pair.a)) * static_cast<double>(trains.spike_count(pair.b)) * per_offset;
        if (pair.count < options.min_count || pair.ratio() < options.min_ratio || pair.z() < options.min_z) continue;
        out.edges.push_back(pair);
    }
    std::sort(out.edges.begin(), out.edges.end(), [](const CofiringPair& x, const CofiringPair& y) {
        return std::pair(x.a, x.b) < std::pair(y.a, y.b);
    });
    std::vector<std::pair<Vertex, Vertex>> kept;
    for (const CofiringPair& pair : out.edges) kept.emplace_back(pair.a, pair.b);
    out.graph = Graph::from_edges(static_cast<Vertex>(trains.num_neurons()), kept);
    return out;
}

}  // namespace spikeminer::graph
