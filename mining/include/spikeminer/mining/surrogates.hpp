#pragma once
// Surrogate recordings for significance tests: each neuron's spikes moved at random in a
// way that keeps its firing rate and (within the dither) its rate profile, but breaks the
// timing between neurons. Deterministic: surrogate `index` of a seed is the same spikes on
// every run and every backend, drawn from a counter-based generator (one value per seed,
// surrogate, neuron and spike), so that any surrogate can be made alone, in any order.

#include "spikeminer/core/spike_trains.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace spikeminer::mining {

enum class SurrogateKind {
    Dither,    ///< each spike moved uniformly within ±dither, keeping the refractory period
    JointIsi,  ///< each spike moved within ±dither as the neuron's pairs of successive intervals allow
    Shift,     ///< each neuron's whole train moved by one offset within ±dither, circularly in the span
};

/// "dither", "isi" or "shift".
std::string surrogate_name(SurrogateKind kind);
/// Parses --surrogate; throws UsageError listing the choices.
SurrogateKind parse_surrogate(const std::string& name);

struct SurrogateOptions {
    SurrogateKind kind = SurrogateKind::Dither;
    Tick dither = 0;      ///< the largest move, in ticks (> 0)
    Tick refractory = 0;  ///< Dither: two spikes of a neuron stay at least this far apart (when they were)
    std::uint64_t seed = 1;
    bool operator==(const SurrogateOptions&) const = default;
};

/// Surrogate number `index` of `trains`: the same neurons, the same number of spikes per
/// neuron, every spike within the recording's span.
/// - Dither: spike k of a neuron goes to a uniform tick within ±dither of its time and
///   within the refractory period of its neighbours: the even-numbered spikes first,
///   between their original neighbours, then the odd ones between their moved neighbours
///   (so every draw is independent of the others and the order of a neuron's spikes is
///   kept). A spike whose neighbours already break the refractory period stays.
/// - JointIsi (joint-ISI dithering, Gerstein 2004): as Dither, except that a spike between
///   two neighbours, each nearer than 20 x dither, moves along its pair of intervals
///   (before + after stays the same) with the probability the neuron's own joint
///   distribution of successive intervals gives that pair: a histogram of bins of
///   dither / 8, smoothed by a kernel of about one bin. The move is drawn bin by bin, then
///   uniformly within the bin. Bursts, regular firing and refractoriness survive; the
///   timing between neurons does not. Other spikes (first, last, after a long silence) are
///   dithered uniformly.
/// - Shift: a neuron's spikes all move by one uniform offset within ±dither, wrapping
///   around the span's ends.
/// With `only` (one flag per neuron), the neurons not flagged have no spikes in the
/// surrogate: the flagged ones are as in the whole surrogate, and so are the counts of
/// episodes made of them, at a fraction of the work.
/// Throws UsageError for a dither that is not positive or a negative refractory period.
SpikeTrains make_surrogate(const SpikeTrains& trains, const SurrogateOptions& options, std::uint64_t index,
                           const std::vector<bool>& only = {});

/// Single neurons' surrogate trains over stretches of time, spike for spike as
/// make_surrogate makes them: what a test within one co-firing window needs, at the cost of
/// the spikes near the window instead of the whole recording.
class SurrogateTrains {
public:
    /// Checks the options as make_surrogate does (UsageError). The trains must outlive this.
    SurrogateTrains(const SpikeTrains& trains, const SurrogateOptions& options);
    ~SurrogateTrains();
    SurrogateTrains(const SurrogateTrains&) = delete;
    SurrogateTrains& operator=(const SurrogateTrains&) = delete;

    /// Neuron n's spikes in surrogate `index` that land in `range`, in time order, with
    /// perhaps a few just outside it. Safe to call from several threads.
    [[nodiscard]] std::vector<Tick> near(NeuronId n, std::uint64_t index, TimeSpan range) const;
    /// The whole surrogate `index` (make_surrogate's, with `only` as there), without making
    /// again what every surrogate shares (the neurons' joint-interval histograms).
    [[nodiscard]] SpikeTrains whole(std::uint64_t index, const std::vector<bool>& only = {}) const;

private:
    struct State;
    std::unique_ptr<State> state_;
};

/// The same surrogate made on the GPU, spike for spike, and read back (significance tests
/// count surrogates where they are made; this is their check). Throws Error in builds
/// without CUDA or without a device, GpuOutOfMemory when the device is full.
SpikeTrains make_surrogate_on_gpu(const SpikeTrains& trains, const SurrogateOptions& options, std::uint64_t index);

}  // namespace spikeminer::mining
