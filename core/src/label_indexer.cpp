#include "spikeminer/core/label_indexer.hpp"

#include "spikeminer/core/error.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <numeric>

namespace spikeminer {

NeuronId LabelIndexer::intern(std::string_view label) {
    auto [it, inserted] = ids_.try_emplace(std::string(label), static_cast<NeuronId>(labels_.size()));
    if (inserted) {
        if (labels_.size() >= UINT32_MAX) throw Error("more than 2^32 - 1 distinct neuron labels");
        labels_.emplace_back(label);
    }
    return it->second;
}

LabelIndexer::Result LabelIndexer::finish() const {
    const std::size_t n = labels_.size();
    std::vector<long long> numeric(n);
    bool all_numeric = true;
    for (std::size_t i = 0; i < n && all_numeric; ++i) {
        const std::string& label = labels_[i];
        const auto [end, ec] = std::from_chars(label.data(), label.data() + label.size(), numeric[i]);
        all_numeric = ec == std::errc{} && end == label.data() + label.size();
    }
    std::vector<NeuronId> order(n);
    std::iota(order.begin(), order.end(), NeuronId{0});
    if (all_numeric) {
        std::sort(order.begin(), order.end(), [&](NeuronId a, NeuronId b) { return numeric[a] < numeric[b]; });
    }
    Result result;
    result.labels.resize(n);
    result.remap.resize(n);
    for (std::size_t rank = 0; rank < n; ++rank) {
        result.labels[rank] = labels_[order[rank]];
        result.remap[order[rank]] = static_cast<NeuronId>(rank);
    }
    return result;
}

std::string canonical_integer_label(std::string_view text) {
    long long integer = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), integer);
    if (ec == std::errc{} && end == text.data() + text.size()) return std::to_string(integer);
    double value = 0;
    auto [fend, fec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (fec != std::errc{} || fend != text.data() + text.size()) return {};
    if (!std::isfinite(value) || std::trunc(value) != value || std::fabs(value) > 9.0e15) return {};
    return std::to_string(static_cast<long long>(value));
}

}  // namespace spikeminer
