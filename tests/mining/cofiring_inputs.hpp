#pragma once
// Random inputs for the co-firing tests (CPU and GPU): lags and recordings on a time grid.

#include "random_streams.hpp"

#include "spikeminer/mining/cofiring.hpp"

#include <algorithm>
#include <vector>

namespace spikeminer::test {

// Random lags: synchrony off, at lag 0 only or within a few ticks; up to three intervals,
// some touching, some narrower than a grid step (which may hold no lag of the grid); a
// baseline beyond them. All in steps of `grid` ticks plus part of a step.
inline mining::CofiringLags random_lags(test::Rng& rng, Tick grid) {
    mining::CofiringLags lags;
    const auto part = [&] { return rng.between(0, grid - 1); };
    const int sync = static_cast<int>(rng.between(-1, 3));
    lags.sync = sync < 0 ? -1 : sync * grid + (sync > 0 ? part() : 0);
    Tick edge = 0;
    const auto intervals = rng.between(lags.sync < 0 ? 1 : 0, 3);
    for (std::int64_t k = 0; k < intervals; ++k) {
        const Tick lo = rng.chance(50) ? edge : edge + rng.between(0, 2) * grid;
        const Tick hi = grid > 1 && rng.chance(15) ? lo + rng.between(1, grid - 1) : lo + rng.between(1, 4) * grid + part();
        lags.intervals.push_back({lo, hi});
        edge = hi;
    }
    const Tick tested = std::max(edge, std::max<Tick>(lags.sync, 0));
    lags.baseline.lo = tested + rng.between(0, 3) * grid;
    lags.baseline.hi = lags.baseline.lo + rng.between(1, 8) * grid + part();
    return lags;
}

// A recording on a grid: `neurons` neurons, background spikes and pairs that fire
// together at a few lags, so that some tests pass.
inline SpikeTrains grid_recording(test::Rng& rng, std::size_t neurons, std::size_t spikes, Tick span, Tick grid) {
    std::vector<Spike> list;
    const Tick origin = rng.between(-5, 5);
    while (list.size() < spikes) {
        const Tick t = rng.between(0, span);
        const auto n = static_cast<NeuronId>(rng.below(neurons));
        list.push_back({origin + t * grid, n});
        if (rng.chance(30)) list.push_back({origin + (t + rng.between(0, 3)) * grid, static_cast<NeuronId>((n + 1) % neurons)});
    }
    return make_trains(std::move(list), neurons);
}

// A small random case: 2-6 neurons, up to `most_spikes` spikes over 300 steps of a grid
// of 1 or 7 ticks, random lags, and windows of 1-5 random steps 70 % of the time.
struct SmallCase {
    SpikeTrains trains;
    mining::CofiringOptions options;
};

inline SmallCase small_case(unsigned seed, std::int64_t most_spikes) {
    Rng rng(seed);
    const Tick grid = rng.chance(50) ? 1 : 7;
    SmallCase c{grid_recording(rng, static_cast<std::size_t>(rng.between(2, 6)), static_cast<std::size_t>(rng.between(0, most_spikes)),
                               300, grid),
                {}};
    c.options.lags = random_lags(rng, grid);
    if (rng.chance(70)) {
        c.options.step = rng.between(5, 60) * grid;
        c.options.window = c.options.step * rng.between(1, 5);
    }
    return c;
}

// A random recording of 3 to `most_neurons` neurons on a grid of 1 or 3 ticks, and random
// lags for it, counted on `backend`.
struct RandomCase {
    SpikeTrains trains;
    mining::CofiringOptions options;
    Tick grid;
};

inline RandomCase random_case(Rng& rng, int most_neurons, int fewest_spikes, int most_spikes, Tick span, Backend backend) {
    const Tick grid = rng.chance(50) ? 1 : 3;
    SpikeTrains trains = grid_recording(rng, static_cast<std::size_t>(rng.between(3, most_neurons)),
                                        static_cast<std::size_t>(rng.between(fewest_spikes, most_spikes)), span, grid);
    mining::CofiringOptions options;
    options.backend = backend;
    options.lags = random_lags(rng, grid);
    return {std::move(trains), options, grid};
}

}  // namespace spikeminer::test
