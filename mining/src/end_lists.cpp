#include "end_lists.hpp"

#include <algorithm>
#include <numeric>

namespace spikeminer::mining::detail {

std::vector<std::uint32_t> prefix_order(std::span<const Extension> extensions, std::vector<PrefixGroup>& groups) {
    std::vector<std::uint32_t> order(extensions.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        const Extension& x = extensions[a];
        const Extension& y = extensions[b];
        return x.parent != y.parent ? x.parent < y.parent : x.neuron < y.neuron;
    });
    groups.clear();
    for (std::size_t i = 0; i < order.size(); ++i) {
        const std::uint32_t parent = extensions[order[i]].parent;
        if (groups.empty() || groups.back().parent != parent) groups.push_back(PrefixGroup{parent, i, i});
        groups.back().last = i + 1;
    }
    return order;
}

}  // namespace spikeminer::mining::detail
