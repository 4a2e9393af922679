#include "spikeminer/mining/surrogates.hpp"

#include "dithering.hpp"
#include "gpu_counting.hpp"

#include "spikeminer/core/backend.hpp"
#include "spikeminer/core/error.hpp"
#include "spikeminer/core/neuron_times.hpp"

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

struct SurrogateTrains::State {
    const SpikeTrains& trains;
    detail::DitherBounds bounds;
    NeuronTimes times;
    std::vector<std::uint32_t> histograms;  // JointIsi: every neuron's, IsiBins(bounds.dither).cells() each

    // Neuron n's dithered spikes [first, last) of surrogate `index` into out[0, last - first).
    void dither(NeuronId n, std::uint64_t index, std::size_t first, std::size_t last, Tick* out) const {
        const std::span<const Tick> original = times.of(n);
        const std::size_t count = original.size();
        thread_local std::vector<Tick> placed;
        if (placed.size() < count) placed.resize(count);
        const detail::DitherSlice slice = detail::dither_slice(first, last, count);
        std::copy(original.begin() + static_cast<std::ptrdiff_t>(slice.from), original.begin() + static_cast<std::ptrdiff_t>(slice.to),
                  placed.begin() + static_cast<std::ptrdiff_t>(slice.from));
        const std::uint32_t* histogram = histograms.empty() ? nullptr : histograms.data() + n * detail::IsiBins(bounds.dither).cells();
        const auto place = [&](std::size_t lo, std::size_t hi, std::size_t parity) {
            for (std::size_t k = lo + ((lo % 2) != parity ? 1 : 0); k < hi; k += 2) {
                placed[k] = detail::dithered_spike(original.data(), placed.data(), count, k, bounds, index, n, histogram);
            }
        };
        place(slice.even_from, slice.even_to, 0);
        place(first, last, 1);
        std::copy(placed.begin() + static_cast<std::ptrdiff_t>(first), placed.begin() + static_cast<std::ptrdiff_t>(last), out);
    }
};

SpikeTrains make_surrogate(const SpikeTrains& trains, const SurrogateOptions& options, std::uint64_t index,
                           const std::vector<bool>& only) {
    return SurrogateTrains(trains, options).whole(index, only);
}

SurrogateTrains::SurrogateTrains(const SpikeTrains& trains, const SurrogateOptions& options)
    : state_(std::make_unique<State>(State{trains, detail::bounds_for(trains, options), NeuronTimes(trains), {}})) {
    if (options.kind == SurrogateKind::JointIsi) {
        state_->histograms = detail::joint_isi_histograms(state_->times, detail::IsiBins(state_->bounds.dither));
    }
}

SurrogateTrains::~SurrogateTrains() = default;

std::vector<Tick> SurrogateTrains::near(NeuronId n, std::uint64_t index, TimeSpan range) const {
    const State& s = *state_;
    const detail::DitherBounds& b = s.bounds;
    const std::span<const Tick> times = s.times.of(n);
    std::vector<Tick> out;
    if (b.kind == SurrogateKind::Shift) {
        // The spikes that land in the range come from it moved back by the offset, once
        // around the span either way at most.
        const Tick offset = detail::shift_offset(b, index, n);
        const Tick length = b.end - b.start;
        const Tick lo = std::max(range.start, b.start);
        const Tick hi = std::min(range.end, b.end);
        for (const Tick turn : {-length, Tick{0}, length}) {
            const auto first = std::lower_bound(times.begin(), times.end(), lo - offset + turn);
            const auto last = std::lower_bound(first, times.end(), hi - offset + turn);
            for (auto t = first; t < last; ++t) out.push_back(detail::shifted(*t, offset, b));
        }
        std::erase_if(out, [&](Tick t) { return t < lo || t >= hi; });
        std::sort(out.begin(), out.end());
        return out;
    }
    // A spike lands within ±dither of where it was.
    const auto first = static_cast<std::size_t>(std::lower_bound(times.begin(), times.end(), range.start - b.dither) - times.begin());
    const auto last = static_cast<std::size_t>(std::lower_bound(times.begin(), times.end(), range.end + b.dither) - times.begin());
    if (first >= last) return out;
    out.resize(last - first);
    s.dither(n, index, first, last, out.data());
    return out;
}

SpikeTrains SurrogateTrains::whole(std::uint64_t index, const std::vector<bool>& only) const {
    const State& s = *state_;
    const SpikeTrains& trains = s.trains;
    if (!only.empty() && only.size() != trains.num_neurons()) throw Error("make_surrogate: one flag per neuron is needed");
    // Each neuron's spikes go to their own slice of `spikes`, neurons side by side.
    const auto kept = [&](NeuronId n) { return only.empty() || only[n]; };
    std::vector<std::size_t> first(trains.num_neurons() + 1, 0);
    for (NeuronId n = 0; n < trains.num_neurons(); ++n) first[n + 1] = first[n] + (kept(n) ? trains.spike_count(n) : 0);
    std::vector<Spike> spikes(first.back());
#pragma omp parallel
    {
        std::vector<Tick> placed;
#pragma omp for schedule(dynamic, 4)
        for (NeuronId n = 0; n < trains.num_neurons(); ++n) {
            if (!kept(n)) continue;
            const std::span<const Tick> original = s.times.of(n);
            placed.resize(original.size());
            if (s.bounds.kind == SurrogateKind::Shift) {
                const Tick offset = detail::shift_offset(s.bounds, index, n);
                for (std::size_t k = 0; k < original.size(); ++k) placed[k] = detail::shifted(original[k], offset, s.bounds);
            } else {
                s.dither(n, index, 0, original.size(), placed.data());
            }
            for (std::size_t k = 0; k < placed.size(); ++k) spikes[first[n] + k] = {placed[k], n};
        }
    }
    SpikeTrains surrogate = SpikeTrains::from_spikes(std::move(spikes), trains.neuron_table(), trains.time_base());
    surrogate.set_span(trains.span());
    return surrogate;
}

SpikeTrains make_surrogate_on_gpu(const SpikeTrains& trains, const SurrogateOptions& options, std::uint64_t index) {
#ifdef SPIKEMINER_HAVE_CUDA
    choose_backend(Backend::Cuda);
    const NeuronTimes times(trains);
    detail::GpuSurrogates surrogates(trains, times, options, 0);
    surrogates.make(index);
    return surrogates.download();
#else
    (void)trains, (void)options, (void)index;
    throw Error("this build has no GPU engines");
#endif
}

}  // namespace spikeminer::mining
