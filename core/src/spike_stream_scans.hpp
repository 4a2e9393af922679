#pragma once
// Passes over the merged spike stream on all cores, for SpikeTrains::from_columns: the
// checks, the order, the duplicates and the per-neuron index, and the conversions between
// a list of spikes and the stream's two columns.

#include "spikeminer/core/spike_trains.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace spikeminer::detail {

/// The columns of `spikes`, owned.
SpikeColumns split_columns(const std::vector<Spike>& spikes);
/// The spikes of `columns`, in their order.
std::vector<Spike> zip_columns(const SpikeColumns& columns);

/// The first spike whose neuron is not below `num_neurons` or whose time is beyond
/// ±max_tick; the number of spikes when there is none.
std::size_t first_invalid_spike(const SpikeColumns& columns, std::size_t num_neurons, Tick max_tick);
/// True when the spikes are in (time, neuron) order.
bool in_stream_order(const SpikeColumns& columns);
/// The number of spikes equal to the one before them (same time and neuron).
std::size_t adjacent_duplicates(const SpikeColumns& columns);

/// The stream positions of each neuron's spikes, ascending within a neuron: `offsets`
/// (num_neurons + 1) into `index` (one per spike). A counting sort, each thread counting
/// and placing one block of the stream.
void index_by_neuron(std::span<const NeuronId> neurons, std::size_t num_neurons, std::vector<std::uint64_t>& offsets,
                     UninitializedVector<std::uint32_t>& index);

}  // namespace spikeminer::detail
