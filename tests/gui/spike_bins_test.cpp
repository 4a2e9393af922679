// SpikeBins against the spikes themselves: a neuron has a bit in [first, last) exactly when
// one of its spikes falls in those bins' ticks, on random trains of several spans and sizes.
#include "catch.hpp"

#include "spike_bins.hpp"

#include <random>

using namespace spikeminer;

namespace {

NeuronTable numbered(std::size_t neurons) {
    NeuronTable table;
    for (std::size_t n = 0; n < neurons; ++n) table.labels.push_back(std::to_string(n));
    return table;
}

bool brute_any(const SpikeTrains& trains, const gui::SpikeBins& bins, NeuronId n, std::size_t first, std::size_t last) {
    const Tick from = bins.start() + static_cast<Tick>(first) * bins.width();
    const Tick to = bins.start() + static_cast<Tick>(last) * bins.width();
    for (const std::uint32_t i : trains.spikes_of(n)) {
        if (trains.times()[i] >= from && trains.times()[i] < to) return true;
    }
    return false;
}

}  // namespace

TEST_CASE("spike bins: a range of bins has a spike exactly when the spikes say so", "[spike-bins]") {
    std::mt19937_64 random(5);
    for (const Tick span : {Tick{50}, Tick{10'000}, Tick{3'000'000'000}}) {
        for (const std::size_t neurons : {std::size_t{1}, std::size_t{7}, std::size_t{20'000}}) {
            std::vector<Spike> spikes;
            for (int k = 0; k < 3000; ++k) {
                spikes.push_back({static_cast<Tick>(random() % static_cast<std::uint64_t>(span)) - span / 3, static_cast<NeuronId>(random() % neurons)});
            }
            const SpikeTrains trains = SpikeTrains::from_spikes(spikes, numbered(neurons), TimeBase{1'000'000});
            const gui::SpikeBins bins(trains);
            INFO("span " << span << ", neurons " << neurons << ", bins " << bins.bins() << " of " << bins.width() << " ticks");
            REQUIRE(bins.bins() >= 1);
            CHECK(bins.bins() * neurons <= (std::size_t{1} << 28) + 64 * neurons);
            CHECK(bins.start() == trains.times().front());
            CHECK(bins.start() + static_cast<Tick>(bins.bins()) * bins.width() > trains.times().back());
            for (int k = 0; k < 2000; ++k) {
                const auto n = static_cast<NeuronId>(random() % neurons);
                std::size_t first = random() % (bins.bins() + 2);
                std::size_t last = random() % 3 == 0 ? first + random() % 3 : random() % (bins.bins() + 2);
                if (first > last) std::swap(first, last);
                REQUIRE(bins.any(n, first, last) == brute_any(trains, bins, n, first, std::min(last, bins.bins())));
            }
        }
    }
}
