#include "recording.hpp"

#include "spikeminer/core/error.hpp"

namespace spikeminer::io::detail {

void spikes_from_ragged(Recording& recording, const std::vector<double>& times, const std::vector<std::int64_t>& ends,
                        const std::vector<NeuronId>& ids, const std::string& file, const std::string& times_path,
                        const std::string& index_path, Progress* progress) {
    const std::string index_where = file + ": dataset '" + index_path + "'";
    const std::string times_where = file + ": dataset '" + times_path + "'";
    std::int64_t previous = 0;
    for (std::size_t n = 0; n < ends.size(); ++n) {
        if (ends[n] < previous) {
            throw Error(index_where + " is not monotone: element " + std::to_string(n) + " is " +
                        std::to_string(ends[n]) + " after " + std::to_string(previous));
        }
        previous = ends[n];
    }
    const auto total = static_cast<std::int64_t>(times.size());
    if (previous != total) {
        throw Error(index_where + " ends at " + std::to_string(previous) + " but '" + times_path + "' holds " +
                    std::to_string(total) + " values" +
                    (previous > total ? " (the index points past the data)" : " (spikes belong to no unit)"));
    }
    if (progress != nullptr) progress->begin("converting spike times", times.size());
    UninitializedVector<Tick> ticks(times.size());
    UninitializedVector<NeuronId> neurons(times.size());
    std::size_t start = 0;
    bool out_of_order = false;
    for (std::size_t n = 0; n < ends.size(); ++n) {
        const auto end = static_cast<std::size_t>(ends[n]);
        for (std::size_t i = start; i < end; ++i) {
            out_of_order = out_of_order || (i > start && times[i] < times[i - 1]);
            const Tick tick = to_tick(recording.time_base, times[i],
                                      [&] { return times_where + " element " + std::to_string(i); });
            ticks[i] = tick;
            neurons[i] = ids[n];
        }
        start = end;
        if (progress != nullptr) progress->update(end);
    }
    recording.spikes = SpikeColumns::own(std::move(ticks), std::move(neurons));
    recording.neuron_out_of_order = out_of_order;
    if (progress != nullptr) progress->finish();
}

}  // namespace spikeminer::io::detail
