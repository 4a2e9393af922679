#include "spikeminer/mining/surrogates.hpp"

#include "surrogate_random.hpp"

#include "spikeminer/core/error.hpp"

#include <algorithm>
#include <vector>

namespace spikeminer::mining {
namespace {

// Spike k of a neuron within ±dither of `times[k]`, at least `refractory` from the
// neighbours in `placed` (already final) and the span; stays put when the neighbours
// leave no room.
Tick dithered(std::span<const Tick> times, const std::vector<Tick>& placed, std::size_t k, const SurrogateOptions& o,
              TimeSpan span, std::uint64_t random) {
    Tick lo = std::max(times[k] - o.dither, span.start);
    Tick hi = std::min(times[k] + o.dither, span.end - 1);
    if (k > 0) lo = std::max(lo, placed[k - 1] + o.refractory);
    if (k + 1 < times.size()) hi = std::min(hi, placed[k + 1] - o.refractory);
    return lo <= hi ? detail::uniform_between(random, lo, hi) : times[k];
}

}  // namespace

std::string surrogate_name(SurrogateKind kind) { return kind == SurrogateKind::Dither ? "dither" : "shift"; }

SurrogateKind parse_surrogate(const std::string& name) {
    if (name == "dither") return SurrogateKind::Dither;
    if (name == "shift") return SurrogateKind::Shift;
    throw UsageError("unknown surrogate '" + name + "': choose dither or shift");
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
        for (const std::size_t parity : {0U, 1U}) {
            for (std::size_t k = parity; k < times.size(); k += 2) {
                placed[k] = dithered(times, placed, k, within, span, detail::surrogate_random(o.seed, index, n, k));
            }
        }
        for (const Tick t : placed) spikes.push_back({t, n});
    }
    SpikeTrains surrogate = SpikeTrains::from_spikes(std::move(spikes), trains.neuron_table(), trains.time_base());
    surrogate.set_span(span);
    return surrogate;
}

}  // namespace spikeminer::mining
