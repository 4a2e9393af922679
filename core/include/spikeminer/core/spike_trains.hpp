#pragma once

#include "spikeminer/core/time_base.hpp"
#include "spikeminer/core/uninitialized.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace spikeminer {

/// Dense neuron index 0..N-1; the label from the file is kept beside it.
using NeuronId = std::uint32_t;

/// A half-open span of time [start, end) in ticks.
struct TimeSpan {
    Tick start = 0;
    Tick end = 0;
    [[nodiscard]] Tick length() const { return end - start; }
    bool operator==(const TimeSpan&) const = default;
};

/// What to do with two spikes of one neuron at the same tick.
enum class DuplicatePolicy {
    Keep,   ///< keep both (the default: nothing is dropped silently)
    Merge,  ///< keep one; the number merged is reported
};

/// One spike as the readers collect it, before sorting.
struct Spike {
    Tick time;
    NeuronId neuron;
};

/// Everything a reader learned about the neurons besides their spikes.
/// A point in the plane of the electrodes, in µm.
struct Position {
    double x = 0;
    double y = 0;
    bool operator==(const Position&) const = default;
};

/// The merged stream's two columns, spike by spike: owned (own()) or borrowed from memory
/// that `keeper` keeps alive, such as a file the reading process mapped. Immutable.
struct SpikeColumns {
    std::span<const Tick> times;
    std::span<const NeuronId> neurons;
    std::shared_ptr<const void> keeper;

    /// Columns that own their vectors (moved in; sizes must match, as from_columns checks).
    template <typename Times, typename Neurons>
    static SpikeColumns own(Times times, Neurons neurons) {
        struct Owned {
            Times times;
            Neurons neurons;
        };
        auto owned = std::make_shared<const Owned>(Owned{std::move(times), std::move(neurons)});
        return SpikeColumns{owned->times, owned->neurons, owned};
    }
};

struct NeuronTable {
    /// Label of each neuron as the file names it ("3", "unit_12"); size N.
    std::vector<std::string> labels;
    /// Electrode group of each neuron, or empty when the file has none.
    std::vector<std::string> groups;
    /// Observation intervals of each neuron, or empty when the file has none.
    std::vector<std::vector<TimeSpan>> observed;
    /// Position of each neuron's electrode, or empty when the file has none.
    std::vector<Position> positions;
};

/// Spike trains of N neurons in integer ticks: the merged event stream sorted by
/// (time, neuron) and, per neuron, the positions of its spikes in that stream.
///
/// Memory: 12 bytes per spike for the stream (int64 time, uint32 neuron) plus 4 bytes
/// per spike for the per-neuron index, so 16 bytes per spike in all; at most 2^32 - 1
/// spikes. Immutable once built.
class SpikeTrains {
public:
    SpikeTrains() = default;

    /// Builds from unsorted spikes (sorted here by (time, neuron); the vector is consumed).
    /// Throws Error when a neuron index is out of range of the table.
    static SpikeTrains from_spikes(std::vector<Spike> spikes, NeuronTable neurons, TimeBase time_base,
                                   DuplicatePolicy duplicates = DuplicatePolicy::Keep);
    /// Builds from the stream's columns. Columns already in (time, neuron) order (as a
    /// spikeminer HDF5 file stores them) are kept as they are, borrowed memory included;
    /// others are sorted into owned ones. The checks and the per-neuron index run on all
    /// cores. Throws Error as from_spikes does, and when the columns differ in length.
    static SpikeTrains from_columns(SpikeColumns columns, NeuronTable neurons, TimeBase time_base,
                                    DuplicatePolicy duplicates = DuplicatePolicy::Keep);

    /// Number of neurons N (including neurons that never fire).
    [[nodiscard]] std::size_t num_neurons() const { return neurons_.labels.size(); }
    /// Number of spikes in the stream.
    [[nodiscard]] std::size_t num_spikes() const { return stream_.times.size(); }
    [[nodiscard]] const TimeBase& time_base() const { return time_base_; }

    /// Spike times of the merged stream, sorted by (time, neuron).
    [[nodiscard]] std::span<const Tick> times() const { return stream_.times; }
    /// Neuron of each spike of the merged stream.
    [[nodiscard]] std::span<const NeuronId> neurons() const { return stream_.neurons; }

    /// Positions in the stream of neuron n's spikes, ascending (so times ascend too).
    [[nodiscard]] std::span<const std::uint32_t> spikes_of(NeuronId n) const;
    /// Those of them within `span` (found by binary search).
    [[nodiscard]] std::span<const std::uint32_t> spikes_of(NeuronId n, TimeSpan span) const;
    /// Number of spikes of neuron n.
    [[nodiscard]] std::size_t spike_count(NeuronId n) const { return spikes_of(n).size(); }
    /// The per-neuron index whole, as a device copies it: every neuron's positions
    /// (spikes_of), neuron after neuron, and the N + 1 offsets at which each neuron's begin
    /// (both empty for a SpikeTrains made by its default constructor).
    [[nodiscard]] std::span<const std::uint32_t> spike_index() const { return spike_index_; }
    [[nodiscard]] std::span<const std::uint64_t> neuron_offsets() const { return neuron_offsets_; }

    [[nodiscard]] const std::string& label(NeuronId n) const { return neurons_.labels.at(n); }
    [[nodiscard]] const NeuronTable& neuron_table() const { return neurons_; }

    /// The recording span: set by the reader when the file states it, else from the
    /// first spike to one tick after the last.
    [[nodiscard]] TimeSpan span() const { return span_; }
    void set_span(TimeSpan span);

    /// Number of (neuron, tick) duplicates merged when built with DuplicatePolicy::Merge,
    /// or present in the stream when kept.
    [[nodiscard]] std::size_t duplicates() const { return duplicates_; }
    /// True when the input was not already in (time, neuron) order and had to be sorted.
    [[nodiscard]] bool was_sorted_on_load() const { return sorted_on_load_; }

    /// Overrides the flag above, for formats stored neuron by neuron, where only spikes
    /// out of order within one neuron mean the input was unsorted.
    void set_sorted_on_load(bool sorted) { sorted_on_load_ = sorted; }

    /// Free-form provenance (source file, format, session description, ...).
    [[nodiscard]] const std::map<std::string, std::string>& metadata() const { return metadata_; }
    void set_metadata(const std::string& key, const std::string& value) { metadata_[key] = value; }

    /// The dense index of the neuron with this label; throws Error naming the label.
    [[nodiscard]] NeuronId find_label(const std::string& label) const;

private:
    TimeBase time_base_;
    NeuronTable neurons_;
    SpikeColumns stream_;
    std::vector<std::uint64_t> neuron_offsets_;  // N + 1 offsets into spike_index_
    UninitializedVector<std::uint32_t> spike_index_;  // stream positions grouped by neuron
    TimeSpan span_;
    std::size_t duplicates_ = 0;
    bool sorted_on_load_ = false;
    std::map<std::string, std::string> metadata_;
};

}  // namespace spikeminer
