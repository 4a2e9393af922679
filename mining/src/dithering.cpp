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

std::vector<std::uint32_t> joint_isi_histograms(const NeuronTimes& times, const IsiBins& shape) {
    const std::size_t neurons = times.offsets.size() - 1;
    std::vector<std::uint32_t> histograms(neurons * shape.cells(), 0);
#pragma omp parallel for schedule(dynamic, 4)
    for (std::size_t n = 0; n < neurons; ++n) {
        const std::span<const Tick> t = times.of(static_cast<NeuronId>(n));
        std::uint32_t* counts = histograms.data() + n * shape.cells();
        for (std::size_t k = 1; k + 1 < t.size(); ++k) {
            const std::size_t cell = shape.cell(t[k] - t[k - 1], t[k + 1] - t[k]);
            if (cell != shape.cells()) ++counts[cell];
        }
    }
    return histograms;
}

}  // namespace spikeminer::mining::detail
