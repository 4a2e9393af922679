#include "dithering.hpp"

#include "surrogate_random.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

namespace spikeminer::mining::detail {

Room room_for(std::span<const Tick> times, std::span<const Tick> placed, std::size_t k, const SurrogateOptions& o, TimeSpan span) {
    Room room{std::max(times[k] - o.dither, span.start), std::min(times[k] + o.dither, span.end - 1)};
    if (k > 0) room.lo = std::max(room.lo, placed[k - 1] + o.refractory);
    if (k + 1 < times.size()) room.hi = std::min(room.hi, placed[k + 1] - o.refractory);
    return room;
}

Tick dither_uniformly(std::span<const Tick> times, std::span<const Tick> placed, std::size_t k, const SurrogateOptions& o,
                      TimeSpan span, std::uint64_t random) {
    const Room room = room_for(times, placed, k, o, span);
    return room.empty() ? times[k] : uniform_between(random, room.lo, room.hi);
}

JointIsiDensity::JointIsiDensity(std::span<const Tick> times, Tick dither)
    : bin_(std::max<Tick>(dither / 8, 1)), longest_(dither > INT64_MAX / 20 ? INT64_MAX : 20 * dither) {
    bins_ = static_cast<std::size_t>((longest_ + bin_ - 1) / bin_);
    counts_.assign(bins_ * bins_, 0);
    for (std::size_t k = 1; k + 1 < times.size(); ++k) {
        const Tick a = times[k] - times[k - 1];
        const Tick b = times[k + 1] - times[k];
        if (a < longest_ && b < longest_) ++counts_[static_cast<std::size_t>(a / bin_) * bins_ + static_cast<std::size_t>(b / bin_)];
    }
}

double JointIsiDensity::smoothed(Tick a, Tick b) const {
    if (a < 0 || b < 0 || a >= longest_ || b >= longest_) return 0;
    const auto i = static_cast<std::ptrdiff_t>(a / bin_);
    const auto j = static_cast<std::ptrdiff_t>(b / bin_);
    const auto last = static_cast<std::ptrdiff_t>(bins_) - 1;
    constexpr double kWeight[3] = {0.25, 0.5, 0.25};
    double sum = 0;
    for (std::ptrdiff_t di = -1; di <= 1; ++di) {
        for (std::ptrdiff_t dj = -1; dj <= 1; ++dj) {
            if (i + di < 0 || i + di > last || j + dj < 0 || j + dj > last) continue;
            sum += kWeight[di + 1] * kWeight[dj + 1] * counts_[static_cast<std::size_t>(i + di) * bins_ + static_cast<std::size_t>(j + dj)];
        }
    }
    return sum;
}

Tick JointIsiDensity::dithered(std::span<const Tick> times, std::span<const Tick> placed, std::size_t k, const SurrogateOptions& o,
                               TimeSpan span, std::uint64_t random) const {
    const bool near_neighbours = k > 0 && k + 1 < times.size() && times[k] - placed[k - 1] < longest_ && placed[k + 1] - times[k] < longest_;
    if (!near_neighbours) return dither_uniformly(times, placed, k, o, span, random);
    const Room room = room_for(times, placed, k, o, span);
    if (room.empty()) return times[k];
    // The room in bins of bin_ ticks (the last one shorter), each weighed by the density at
    // its middle and its length; a tiny floor keeps a pair the histogram never saw possible.
    // The room spans at most 2 x dither + 1 ticks: 33 bins of dither / 8 or fewer.
    constexpr double kFloor = 1e-9;
    const auto steps = static_cast<std::size_t>((room.hi - room.lo) / bin_) + 1;
    std::array<double, 34> cumulative{};
    double total = 0;
    for (std::size_t s = 0; s < steps; ++s) {
        const Tick lo = room.lo + static_cast<Tick>(s) * bin_;
        const Tick hi = std::min(lo + bin_ - 1, room.hi);
        const Tick middle = lo + (hi - lo) / 2;
        total += (smoothed(middle - placed[k - 1], placed[k + 1] - middle) + kFloor) * static_cast<double>(hi - lo + 1);
        cumulative[s] = total;
    }
    const double u = static_cast<double>(random >> 11) * 0x1p-53 * total;
    const auto end = cumulative.begin() + static_cast<std::ptrdiff_t>(steps);
    const std::size_t s = std::min<std::size_t>(static_cast<std::size_t>(std::upper_bound(cumulative.begin(), end, u) - cumulative.begin()), steps - 1);
    const Tick lo = room.lo + static_cast<Tick>(s) * bin_;
    return uniform_between(splitmix64(random), lo, std::min(lo + bin_ - 1, room.hi));
}

}  // namespace spikeminer::mining::detail
