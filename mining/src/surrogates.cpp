#include "spikeminer/mining/surrogates.hpp"

#include "dithering.hpp"
#include "surrogate_random.hpp"

#include "spikeminer/core/error.hpp"

#include <algorithm>
#include <optional>
#include <vector>

namespace spikeminer::mining {

std::string surrogate_name(SurrogateKind kind) {
    switch (kind) {
        case SurrogateKind::Dither: return "dither";
        case SurrogateKind::JointIsi: return "isi";
        case SurrogateKind::Shift: return "shift";
    }
    return "unknown";
}

SurrogateKind parse_surrogate(const std::string& name) {
    for (const SurrogateKind kind : {SurrogateKind::Dither, SurrogateKind::JointIsi, SurrogateKind::Shift}) {
        if (name == surrogate_name(kind)) return kind;
    }
    throw UsageError("unknown surrogate '" + name + "': choose dither, isi or shift");
}

SpikeTrains make_surrogate(const SpikeTrains& trains, const SurrogateOptions& o, std::uint64_t index) {
    if (o.dither <= 0) throw UsageError("the surrogates' dither must be positive");
    if (o.refractory < 0) throw UsageError("the surrogates' refractory period must not be negative");
    const TimeSpan span = trains.span();
    // A move beyond the span's length means no more than one of its length (and keeps
    // every sum below within int64).
    SurrogateOptions within = o;
    within.dither = std::min(o.dither, std::max<Tick>(span.length(), 1));
    within.refractory = std::min(o.refractory, std::max<Tick>(span.length(), 1));
    std::vector<Spike> spikes;
    spikes.reserve(trains.num_spikes());
    std::vector<Tick> times;
    std::vector<Tick> placed;
    for (NeuronId n = 0; n < trains.num_neurons(); ++n) {
        times.clear();
        for (const std::uint32_t at : trains.spikes_of(n)) times.push_back(trains.times()[at]);
        if (o.kind == SurrogateKind::Shift) {
            const Tick offset = detail::uniform_between(detail::surrogate_random(o.seed, index, n, 0), -within.dither, within.dither);
            const Tick length = span.length();
            for (const Tick t : times) {
                const Tick moved = (t - span.start + offset) % length;
                spikes.push_back({span.start + (moved < 0 ? moved + length : moved), n});
            }
            continue;
        }
        placed = times;
        std::optional<detail::JointIsiDensity> density;
        if (o.kind == SurrogateKind::JointIsi) density.emplace(times, within.dither);
        for (const std::size_t parity : {0U, 1U}) {
            for (std::size_t k = parity; k < times.size(); k += 2) {
                const std::uint64_t random = detail::surrogate_random(o.seed, index, n, k);
                placed[k] = density ? density->dithered(times, placed, k, within, span, random)
                                    : detail::dither_uniformly(times, placed, k, within, span, random);
            }
        }
        for (const Tick t : placed) spikes.push_back({t, n});
    }
    SpikeTrains surrogate = SpikeTrains::from_spikes(std::move(spikes), trains.neuron_table(), trains.time_base());
    surrogate.set_span(span);
    return surrogate;
}

}  // namespace spikeminer::mining
