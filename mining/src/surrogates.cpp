#include "spikeminer/mining/surrogates.hpp"

#include "dithering.hpp"
#include "gpu_counting.hpp"
#include "neuron_times.hpp"

#include "spikeminer/core/backend.hpp"
#include "spikeminer/core/error.hpp"

#include <algorithm>
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

SpikeTrains make_surrogate(const SpikeTrains& trains, const SurrogateOptions& options, std::uint64_t index,
                           const std::vector<bool>& only) {
    if (!only.empty() && only.size() != trains.num_neurons()) throw Error("make_surrogate: one flag per neuron is needed");
    const detail::DitherBounds bounds = detail::bounds_for(trains, options);
    const detail::IsiBins shape(bounds.dither);
    // Each neuron's spikes go to their own slice of `spikes`, neurons side by side.
    const auto kept = [&](NeuronId n) { return only.empty() || only[n]; };
    std::vector<std::size_t> first(trains.num_neurons() + 1, 0);
    for (NeuronId n = 0; n < trains.num_neurons(); ++n) first[n + 1] = first[n] + (kept(n) ? trains.spike_count(n) : 0);
    std::vector<Spike> spikes(first.back());
#pragma omp parallel
    {
        std::vector<Tick> times;
        std::vector<Tick> placed;
        std::vector<std::uint32_t> histogram;
#pragma omp for schedule(dynamic, 4)
        for (NeuronId n = 0; n < trains.num_neurons(); ++n) {
            if (!kept(n)) continue;
            times.clear();
            for (const std::uint32_t at : trains.spikes_of(n)) times.push_back(trains.times()[at]);
            Spike* out = spikes.data() + first[n];
            const std::size_t count = times.size();
            if (options.kind == SurrogateKind::Shift) {
                const Tick offset = detail::shift_offset(bounds, index, n);
                for (std::size_t k = 0; k < count; ++k) out[k] = {detail::shifted(times[k], offset, bounds), n};
                continue;
            }
            if (options.kind == SurrogateKind::JointIsi) {
                histogram.assign(shape.cells(), 0);
                detail::add_joint_isi(times.data(), count, shape, histogram.data());
            }
            placed = times;
            for (const std::size_t parity : {0U, 1U}) {
                for (std::size_t k = parity; k < count; k += 2) {
                    placed[k] = detail::dithered_spike(times.data(), placed.data(), count, k, bounds, index, n, histogram.data());
                }
            }
            for (std::size_t k = 0; k < count; ++k) out[k] = {placed[k], n};
        }
    }
    SpikeTrains surrogate = SpikeTrains::from_spikes(std::move(spikes), trains.neuron_table(), trains.time_base());
    surrogate.set_span(trains.span());
    return surrogate;
}

SpikeTrains make_surrogate_on_gpu(const SpikeTrains& trains, const SurrogateOptions& options, std::uint64_t index) {
#ifdef SPIKEMINER_HAVE_CUDA
    choose_backend(Backend::Cuda);
    const detail::NeuronTimes times(trains);
    detail::GpuSurrogates surrogates(trains, times, options, 0);
    surrogates.make(index);
    return surrogates.download();
#else
    (void)trains, (void)options, (void)index;
    throw Error("this build has no GPU engines");
#endif
}

}  // namespace spikeminer::mining
