#include "dithering.hpp"

#include "spikeminer/core/error.hpp"

#include <algorithm>

namespace spikeminer::mining::detail {

DitherBounds bounds_for(const SpikeTrains& trains, const SurrogateOptions& o) {
    if (o.dither <= 0) throw UsageError("the surrogates' dither must be positive");
    if (o.refractory < 0) throw UsageError("the surrogates' refractory period must not be negative");
    const TimeSpan span = trains.span();
    const Tick longest = std::max<Tick>(span.length(), 1);
    return DitherBounds{o.kind, std::min(o.dither, longest), std::min(o.refractory, longest), span.start, span.end, o.seed};
}

void add_joint_isi(const Tick* times, std::size_t n, const IsiBins& shape, std::uint32_t* counts) {
    for (std::size_t k = 1; k + 1 < n; ++k) {
        const std::size_t cell = shape.cell(times[k] - times[k - 1], times[k + 1] - times[k]);
        if (cell != shape.cells()) ++counts[cell];
    }
}

}  // namespace spikeminer::mining::detail
