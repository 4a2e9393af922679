#pragma once

#include "spikeminer/core/spike_trains.hpp"

#include <cstdint>
#include <vector>

namespace spikeminer::gui {

/// Each neuron's spikes as one bit per time bin (set: a spike in the bin), for drawing a
/// raster zoomed out: whether a pixel column holds a spike of a neuron is then a test of a
/// few words instead of a search through its spikes. Bins are equal, cover the first to the
/// last spike, and number at most 32,768 per neuron and 2^28 in all (32 MiB).
class SpikeBins {
public:
    explicit SpikeBins(const SpikeTrains& trains);

    /// The first bin's start, in ticks.
    [[nodiscard]] Tick start() const { return start_; }
    /// One bin's width, in ticks (at least 1).
    [[nodiscard]] Tick width() const { return width_; }
    [[nodiscard]] std::size_t bins() const { return bins_; }
    /// True when neuron `n` has a spike in a bin of [first, last) (clamped to the bins).
    [[nodiscard]] bool any(NeuronId n, std::size_t first, std::size_t last) const;

private:
    Tick start_ = 0;
    Tick width_ = 1;
    std::size_t bins_ = 0;
    std::size_t words_ = 0;  // per neuron
    std::vector<std::uint64_t> bits_;
};

}  // namespace spikeminer::gui
