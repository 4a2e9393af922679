#include "spike_stream_scans.hpp"

#include "spikeminer/core/uninitialized.hpp"

#include <omp.h>

#include <algorithm>

namespace spikeminer::detail {
namespace {

// Below this many spikes a pass runs on one thread: starting the others costs more.
constexpr std::size_t kParallelFrom = std::size_t{1} << 16;

bool parallel(std::size_t count) { return count >= kParallelFrom; }

bool before(const SpikeColumns& c, std::size_t i, std::size_t j) {
    return c.times[i] != c.times[j] ? c.times[i] < c.times[j] : c.neurons[i] < c.neurons[j];
}

}  // namespace

SpikeColumns split_columns(const std::vector<Spike>& spikes) {
    const std::size_t count = spikes.size();
    UninitializedVector<Tick> times(count);
    UninitializedVector<NeuronId> neurons(count);
#pragma omp parallel for schedule(static) if (parallel(count))
    for (std::size_t i = 0; i < count; ++i) {
        times[i] = spikes[i].time;
        neurons[i] = spikes[i].neuron;
    }
    return SpikeColumns::own(std::move(times), std::move(neurons));
}

std::vector<Spike> zip_columns(const SpikeColumns& columns) {
    const std::size_t count = columns.times.size();
    std::vector<Spike> spikes(count);
#pragma omp parallel for schedule(static) if (parallel(count))
    for (std::size_t i = 0; i < count; ++i) spikes[i] = Spike{columns.times[i], columns.neurons[i]};
    return spikes;
}

std::size_t first_invalid_spike(const SpikeColumns& columns, std::size_t num_neurons, Tick max_tick) {
    const std::size_t count = columns.times.size();
    std::size_t first = count;
#pragma omp parallel for schedule(static) reduction(min : first) if (parallel(count))
    for (std::size_t i = 0; i < count; ++i) {
        const Tick t = columns.times[i];
        if (columns.neurons[i] >= num_neurons || t > max_tick || t < -max_tick) first = std::min(first, i);
    }
    return first;
}

bool in_stream_order(const SpikeColumns& columns) {
    const std::size_t count = columns.times.size();
    std::size_t disorders = 0;
#pragma omp parallel for schedule(static) reduction(+ : disorders) if (parallel(count))
    for (std::size_t i = 1; i < count; ++i) disorders += before(columns, i, i - 1) ? 1 : 0;
    return disorders == 0;
}

std::size_t adjacent_duplicates(const SpikeColumns& columns) {
    const std::size_t count = columns.times.size();
    std::size_t equal = 0;
#pragma omp parallel for schedule(static) reduction(+ : equal) if (parallel(count))
    for (std::size_t i = 1; i < count; ++i) {
        equal += columns.times[i] == columns.times[i - 1] && columns.neurons[i] == columns.neurons[i - 1] ? 1 : 0;
    }
    return equal;
}

void index_by_neuron(std::span<const NeuronId> neurons, std::size_t num_neurons, std::vector<std::uint64_t>& offsets,
                     UninitializedVector<std::uint32_t>& index) {
    const std::size_t count = neurons.size();
    // One block per thread, each with a counter per neuron: fewer blocks when the counters
    // would outnumber the spikes.
    std::size_t blocks = parallel(count) ? static_cast<std::size_t>(std::max(omp_get_max_threads(), 1)) : 1;
    blocks = std::max<std::size_t>(1, std::min(blocks, count / std::max<std::size_t>(num_neurons, 1)));
    const auto bound = [&](std::size_t b) { return count * b / blocks; };
    std::vector<std::uint64_t> cursor(blocks * num_neurons, 0);  // per block and neuron: its count, then where it writes
#pragma omp parallel for schedule(static, 1) if (blocks > 1)
    for (std::size_t b = 0; b < blocks; ++b) {
        std::uint64_t* counts = cursor.data() + b * num_neurons;
        for (std::size_t i = bound(b); i < bound(b + 1); ++i) ++counts[neurons[i]];
    }
    offsets.assign(num_neurons + 1, 0);
    std::uint64_t at = 0;
    for (std::size_t n = 0; n < num_neurons; ++n) {
        offsets[n] = at;
        for (std::size_t b = 0; b < blocks; ++b) {
            const std::uint64_t c = cursor[b * num_neurons + n];
            cursor[b * num_neurons + n] = at;
            at += c;
        }
    }
    offsets[num_neurons] = at;
    index.resize(count);
#pragma omp parallel for schedule(static, 1) if (blocks > 1)
    for (std::size_t b = 0; b < blocks; ++b) {
        std::uint64_t* next = cursor.data() + b * num_neurons;
        for (std::size_t i = bound(b); i < bound(b + 1); ++i) index[next[neurons[i]]++] = static_cast<std::uint32_t>(i);
    }
}

}  // namespace spikeminer::detail
