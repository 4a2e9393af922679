#include "spike_bins.hpp"

#include <algorithm>

namespace spikeminer::gui {
namespace {

constexpr std::size_t kMostBinsPerNeuron = 32'768;
constexpr std::size_t kMostBits = std::size_t{1} << 28;

}  // namespace

SpikeBins::SpikeBins(const SpikeTrains& trains) {
    const auto times = trains.times();
    if (times.empty() || trains.num_neurons() == 0) return;
    start_ = times.front();
    const auto span = static_cast<std::uint64_t>(times.back() - times.front()) + 1;
    const std::size_t most = std::max<std::size_t>(64, std::min(kMostBinsPerNeuron, kMostBits / trains.num_neurons()));
    width_ = static_cast<Tick>((span + most - 1) / most);
    bins_ = static_cast<std::size_t>((span + static_cast<std::uint64_t>(width_) - 1) / static_cast<std::uint64_t>(width_));
    words_ = (bins_ + 63) / 64;
    bits_.assign(words_ * trains.num_neurons(), 0);
    const auto neurons = trains.neurons();
    for (std::size_t i = 0; i < times.size(); ++i) {
        const auto bin = static_cast<std::size_t>((times[i] - start_) / width_);
        bits_[neurons[i] * words_ + bin / 64] |= std::uint64_t{1} << (bin % 64);
    }
}

bool SpikeBins::any(NeuronId n, std::size_t first, std::size_t last) const {
    last = std::min(last, bins_);
    if (first >= last) return false;
    const std::uint64_t* row = bits_.data() + static_cast<std::size_t>(n) * words_;
    const std::size_t w0 = first / 64;
    const std::size_t w1 = (last - 1) / 64;
    const std::uint64_t head = ~std::uint64_t{0} << (first % 64);
    const std::uint64_t tail = ~std::uint64_t{0} >> (63 - (last - 1) % 64);
    if (w0 == w1) return (row[w0] & head & tail) != 0;
    if ((row[w0] & head) != 0 || (row[w1] & tail) != 0) return true;
    return std::any_of(row + w0 + 1, row + w1, [](std::uint64_t word) { return word != 0; });
}

}  // namespace spikeminer::gui
