#pragma once
// Sorting on all cores: equal slices sorted side by side, then merged pairwise, round by
// round, through one buffer of the same size. For a strict weak order whose equal elements
// are indistinguishable (as spikes of the same time and neuron), the result is std::sort's.

#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace spikeminer::detail {

template <typename T, typename Less>
void parallel_sort(std::vector<T>& values, Less less) {
    constexpr std::size_t kSerialBelow = std::size_t{1} << 16;
    const auto threads = static_cast<std::size_t>(std::max(omp_get_max_threads(), 1));
    if (values.size() < kSerialBelow || threads == 1) return std::sort(values.begin(), values.end(), less);
    std::size_t slices = 1;
    while (slices < threads) slices *= 2;  // a power of two: the merge rounds pair them all
    const std::size_t n = values.size();
    const auto bound = [&](std::size_t slice) { return static_cast<std::ptrdiff_t>(n * slice / slices); };
#pragma omp parallel for schedule(dynamic, 1)
    for (std::size_t s = 0; s < slices; ++s) std::sort(values.begin() + bound(s), values.begin() + bound(s + 1), less);
    std::vector<T> buffer(n);
    for (std::size_t width = 1; width < slices; width *= 2) {
#pragma omp parallel for schedule(dynamic, 1)
        for (std::size_t s = 0; s < slices; s += 2 * width) {
            const auto first = bound(s);
            const auto middle = bound(std::min(s + width, slices));
            const auto last = bound(std::min(s + 2 * width, slices));
            std::merge(values.begin() + first, values.begin() + middle, values.begin() + middle, values.begin() + last,
                       buffer.begin() + first, less);
        }
        values.swap(buffer);
    }
}

}  // namespace spikeminer::detail
