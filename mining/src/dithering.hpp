#pragma once
// How one spike of a neuron moves in a dithered surrogate (surrogates.hpp): uniformly, or
// as the neuron's joint distribution of successive intervals allows.

#include "spikeminer/mining/surrogates.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace spikeminer::mining::detail {

/// Where spike k may go: within ±dither of times[k], inside the span, at least `refractory`
/// from its neighbours in `placed` (already final). Empty (lo > hi) when they leave no room.
struct Room {
    Tick lo = 0;
    Tick hi = -1;
    [[nodiscard]] bool empty() const { return lo > hi; }
};
Room room_for(std::span<const Tick> times, std::span<const Tick> placed, std::size_t k, const SurrogateOptions& o, TimeSpan span);

/// Spike k anywhere in its room, uniformly; it stays when there is none.
Tick dither_uniformly(std::span<const Tick> times, std::span<const Tick> placed, std::size_t k, const SurrogateOptions& o,
                      TimeSpan span, std::uint64_t random);

/// One neuron's joint histogram of successive intervals (a, b), both shorter than
/// 20 x dither, in square bins of dither / 8 (at least one tick).
class JointIsiDensity {
public:
    JointIsiDensity(std::span<const Tick> times, Tick dither);

    /// Spike k moved within its room with the probability the smoothed histogram gives its
    /// new pair of intervals (their sum fixed by its neighbours in `placed`), drawn bin by
    /// bin and then uniformly within the bin. Spikes without two near neighbours are
    /// dithered uniformly.
    [[nodiscard]] Tick dithered(std::span<const Tick> times, std::span<const Tick> placed, std::size_t k,
                                const SurrogateOptions& o, TimeSpan span, std::uint64_t random) const;

private:
    /// The histogram at bin (i, j), smoothed by a [1 2 1] / 4 kernel along each axis.
    [[nodiscard]] double smoothed(Tick a, Tick b) const;

    Tick bin_;
    Tick longest_;  ///< intervals from here on are not in the histogram
    std::size_t bins_;
    std::vector<std::uint32_t> counts_;  ///< bins_ x bins_, row a, column b
};

}  // namespace spikeminer::mining::detail
