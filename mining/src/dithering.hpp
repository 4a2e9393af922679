#pragma once
// How one spike of a neuron moves in a surrogate (surrogates.hpp): dithered uniformly, as
// the neuron's joint distribution of successive intervals allows, or shifted with its
// whole train. One source for the CPU and the CUDA kernels, so that both place every
// spike on the same tick.

#include "host_device.hpp"
#include "sorted_times.hpp"
#include "surrogate_random.hpp"

#include "spikeminer/core/neuron_times.hpp"
#include "spikeminer/mining/surrogates.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace spikeminer::mining::detail {

/// A surrogate's limits in ticks: the options clamped to the recording's span [start, end).
struct DitherBounds {
    SurrogateKind kind = SurrogateKind::Dither;
    Tick dither = 1;
    Tick refractory = 0;
    Tick start = 0;
    Tick end = 0;
    std::uint64_t seed = 1;
};

/// Checks the options (UsageError for a dither that is not positive or a negative
/// refractory period) and clamps dither and refractory period to the span's length: a
/// move beyond it means no more than one of its length, and keeps every sum within int64.
DitherBounds bounds_for(const SpikeTrains& trains, const SurrogateOptions& options);

/// Where spike k of a neuron's n spikes may go: within ±dither of times[k], inside the
/// span, at least the refractory period from its neighbours in `placed` (already final).
/// Empty (lo > hi) when they leave no room.
struct Room {
    Tick lo = 0;
    Tick hi = -1;
    [[nodiscard]] SPIKEMINER_HOST_DEVICE bool empty() const { return lo > hi; }
};

SPIKEMINER_HOST_DEVICE inline Room room_for(const Tick* times, const Tick* placed, std::size_t n, std::size_t k,
                                            const DitherBounds& b) {
    Room room{times[k] - b.dither > b.start ? times[k] - b.dither : b.start,
              times[k] + b.dither < b.end - 1 ? times[k] + b.dither : b.end - 1};
    if (k > 0 && placed[k - 1] + b.refractory > room.lo) room.lo = placed[k - 1] + b.refractory;
    if (k + 1 < n && placed[k + 1] - b.refractory < room.hi) room.hi = placed[k + 1] - b.refractory;
    return room;
}

/// Spike k anywhere in its room, uniformly; it stays when there is none.
SPIKEMINER_HOST_DEVICE inline Tick dither_uniformly(const Tick* times, const Tick* placed, std::size_t n, std::size_t k,
                                                    const DitherBounds& b, std::uint64_t random) {
    const Room room = room_for(times, placed, n, k, b);
    return room.empty() ? times[k] : uniform_between(random, room.lo, room.hi);
}

/// A neuron's whole train moved by one offset within ±dither, wrapping around the span.
/// The moved train is the original rotated: spikes [0, split) and [split, n) trade places
/// (shift_split), each keeping its order.
SPIKEMINER_HOST_DEVICE inline Tick shift_offset(const DitherBounds& b, std::uint64_t surrogate, NeuronId neuron) {
    return uniform_between(surrogate_random(b.seed, surrogate, neuron, 0), -b.dither, b.dither);
}

SPIKEMINER_HOST_DEVICE inline Tick shifted(Tick t, Tick offset, const DitherBounds& b) {
    const Tick moved = (t - b.start + offset) % (b.end - b.start);
    return b.start + (moved < 0 ? moved + (b.end - b.start) : moved);
}

/// The first spike whose shifted time no longer wraps (offset < 0) or wraps (offset >= 0):
/// spike k of the shifted train lands at k - split when k >= split, else at k + n - split.
SPIKEMINER_HOST_DEVICE inline std::size_t shift_split(const Tick* times, std::size_t n, Tick offset, const DitherBounds& b) {
    const Tick boundary = offset < 0 ? b.start - offset : b.end - offset;  // the first time at or after it is split
    return first_at(times, n, boundary);
}

/// The joint histogram of successive intervals (a, b), both shorter than 20 x dither, in
/// square bins of dither / 8 (at least one tick): its shape for a dither.
struct IsiBins {
    Tick bin = 1;
    Tick longest = 20;  ///< intervals from here on are not in the histogram
    std::size_t bins = 20;

    explicit SPIKEMINER_HOST_DEVICE IsiBins(Tick dither)
        : bin(dither / 8 > 1 ? dither / 8 : 1), longest(dither > INT64_MAX / 20 ? INT64_MAX : 20 * dither) {
        bins = static_cast<std::size_t>((longest + bin - 1) / bin);
    }
    /// The cell of intervals (a, b), or `cells()` when one is out of the histogram.
    [[nodiscard]] SPIKEMINER_HOST_DEVICE std::size_t cell(Tick a, Tick b) const {
        if (a < 0 || b < 0 || a >= longest || b >= longest) return cells();
        return static_cast<std::size_t>(a / bin) * bins + static_cast<std::size_t>(b / bin);
    }
    [[nodiscard]] SPIKEMINER_HOST_DEVICE std::size_t cells() const { return bins * bins; }
};

/// A product rounded once, never fused into a following addition: the CUDA compiler fuses
/// a * b + c into one rounding, the host compiler does not, and their sums would differ.
SPIKEMINER_HOST_DEVICE inline double product(double a, double b) {
#ifdef __CUDA_ARCH__
    return __dmul_rn(a, b);
#else
    return a * b;
#endif
}

/// One neuron's histogram (IsiBins' cells, row a, column b) and the moves it weighs.
struct JointIsiView {
    IsiBins shape;
    const std::uint32_t* counts;

    /// The histogram at the cell of (a, b), smoothed by a [1 2 1] / 4 kernel along each
    /// axis (exact in double: the weights are powers of two, the counts integers).
    [[nodiscard]] SPIKEMINER_HOST_DEVICE double smoothed(Tick a, Tick b) const {
        if (shape.cell(a, b) == shape.cells()) return 0;
        const auto i = static_cast<std::ptrdiff_t>(a / shape.bin);
        const auto j = static_cast<std::ptrdiff_t>(b / shape.bin);
        const auto last = static_cast<std::ptrdiff_t>(shape.bins) - 1;
        const double weight[3] = {0.25, 0.5, 0.25};
        double sum = 0;
        for (std::ptrdiff_t di = -1; di <= 1; ++di) {
            for (std::ptrdiff_t dj = -1; dj <= 1; ++dj) {
                if (i + di < 0 || i + di > last || j + dj < 0 || j + dj > last) continue;
                sum += weight[di + 1] * weight[dj + 1] * counts[static_cast<std::size_t>(i + di) * shape.bins + static_cast<std::size_t>(j + dj)];
            }
        }
        return sum;
    }

    /// Spike k moved within its room with the probability the smoothed histogram gives its
    /// new pair of intervals (their sum fixed by its neighbours in `placed`), drawn bin by
    /// bin and then uniformly within the bin. Spikes without two near neighbours are
    /// dithered uniformly.
    [[nodiscard]] SPIKEMINER_HOST_DEVICE Tick dithered(const Tick* times, const Tick* placed, std::size_t n, std::size_t k,
                                                       const DitherBounds& b, std::uint64_t random) const {
        const bool near_neighbours = k > 0 && k + 1 < n && times[k] - placed[k - 1] < shape.longest && placed[k + 1] - times[k] < shape.longest;
        if (!near_neighbours) return dither_uniformly(times, placed, n, k, b, random);
        const Room room = room_for(times, placed, n, k, b);
        if (room.empty()) return times[k];
        // The room in bins of shape.bin ticks (the last one shorter), each weighed by the
        // density at its middle and its length; a tiny floor keeps a pair the histogram
        // never saw possible. The room spans at most 2 x dither + 1 ticks: 33 bins or fewer.
        constexpr double kFloor = 1e-9;
        constexpr std::size_t kMostSteps = 34;
        const auto steps = static_cast<std::size_t>((room.hi - room.lo) / shape.bin) + 1;
        double cumulative[kMostSteps];
        double total = 0;
        for (std::size_t s = 0; s < steps; ++s) {
            const Tick lo = room.lo + static_cast<Tick>(s) * shape.bin;
            const Tick hi = lo + shape.bin - 1 < room.hi ? lo + shape.bin - 1 : room.hi;
            const Tick middle = lo + (hi - lo) / 2;
            total += product(smoothed(middle - placed[k - 1], placed[k + 1] - middle) + kFloor, static_cast<double>(hi - lo + 1));
            cumulative[s] = total;
        }
        const double u = static_cast<double>(random >> 11) * 0x1p-53 * total;
        std::size_t s = 0;  // the first bin whose cumulative weight exceeds u
        while (s + 1 < steps && cumulative[s] <= u) ++s;
        const Tick lo = room.lo + static_cast<Tick>(s) * shape.bin;
        return uniform_between(splitmix64(random), lo, lo + shape.bin - 1 < room.hi ? lo + shape.bin - 1 : room.hi);
    }
};

/// Every neuron's joint-interval histogram (shape.cells() cells each, neuron after neuron),
/// on all cores.
std::vector<std::uint32_t> joint_isi_histograms(const NeuronTimes& times, const IsiBins& shape);

/// What placing a neuron's dithered spikes [first, last) of its n needs: spike k's place
/// depends on its neighbours' (even k: the originals; odd k: the placed even ones), so the
/// even spikes of [even_from, even_to) = [first - 1, last + 1) are placed first, between
/// the originals of [from, to) = [first - 2, last + 2) (each clipped to the train).
struct DitherSlice {
    std::size_t from = 0;
    std::size_t even_from = 0;
    std::size_t even_to = 0;
    std::size_t to = 0;
};

SPIKEMINER_HOST_DEVICE inline DitherSlice dither_slice(std::size_t first, std::size_t last, std::size_t n) {
    return {first >= 2 ? first - 2 : 0, first >= 1 ? first - 1 : 0, last + 1 < n ? last + 1 : n, last + 2 < n ? last + 2 : n};
}

/// Spike k of a neuron's n spikes in a dithered surrogate (Dither or JointIsi: `histogram`
/// is then the neuron's), given its neighbours in `placed`. Even-numbered spikes are
/// placed first between their original neighbours, then the odd ones between their moved
/// neighbours, so that every draw is independent of the others.
SPIKEMINER_HOST_DEVICE inline Tick dithered_spike(const Tick* times, const Tick* placed, std::size_t n, std::size_t k,
                                                  const DitherBounds& b, std::uint64_t surrogate, NeuronId neuron,
                                                  const std::uint32_t* histogram) {
    const std::uint64_t random = surrogate_random(b.seed, surrogate, neuron, k);
    if (b.kind == SurrogateKind::JointIsi) return JointIsiView{IsiBins(b.dither), histogram}.dithered(times, placed, n, k, b, random);
    return dither_uniformly(times, placed, n, k, b, random);
}

}  // namespace spikeminer::mining::detail
