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
    // Each neuron's spikes go to their own slice of `spikes`, neurons side by side.
    std::vector<Spike> spikes(trains.num_spikes());
    std::vector<std::size_t> first(trains.num_neurons() + 1, 0);
    for (NeuronId n = 0; n < trains.num_neurons(); ++n) first[n + 1] = first[n] + trains.spike_count(n);
#pragma omp parallel
    {
        std::vector<Tick> times;
        std::vector<Tick> placed;
#pragma omp for schedule(dynamic, 4)
        for (NeuronId n = 0; n < trains.num_neurons(); ++n) {
            times.clear();
            for (const std::uint32_t at : trains.spikes_of(n)) times.push_back(trains.times()[at]);
            Spike* out = spikes.data() + first[n];
            if (o.kind == SurrogateKind::Shift) {
                const Tick offset = detail::uniform_between(detail::surrogate_random(o.seed, index, n, 0), -within.dither, within.dither);
                const Tick length = span.length();
                for (std::size_t k = 0; k < times.size(); ++k) {
                    const Tick moved = (times[k] - span.start + offset) % length;
                    out[k] = {span.start + (moved < 0 ? moved + length : moved), n};
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
            for (std::size_t k = 0; k < placed.size(); ++k) out[k] = {placed[k], n};
        }
    }
    SpikeTrains surrogate = SpikeTrains::from_spikes(std::move(spikes), trains.neuron_table(), trains.time_base());
    surrogate.set_span(span);
    return surrogate;
}

}  // namespace spikeminer::mining
