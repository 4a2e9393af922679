// Sorting on all cores gives std::sort's order, for any number of threads and slices
// (including slices of unequal size and many equal elements).
#include "catch.hpp"

#include "parallel_sort.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

TEST_CASE("parallel_sort sorts as std::sort does, on any number of threads", "[sort]") {
    const int threads = GENERATE(1, 2, 3, 5, 8);
    const std::size_t n = GENERATE(std::size_t{0}, std::size_t{70'001}, std::size_t{300'007});
    std::mt19937_64 random(static_cast<std::uint64_t>(threads) * 1000 + n);
    std::vector<std::pair<std::int64_t, std::uint32_t>> values(n);
    for (auto& [time, neuron] : values) {
        time = static_cast<std::int64_t>(random() % 5000) - 2500;  // many equal times
        neuron = static_cast<std::uint32_t>(random() % 7);
    }
    auto expected = values;
    std::sort(expected.begin(), expected.end());
    const int before = omp_get_max_threads();
    omp_set_num_threads(threads);
    spikeminer::detail::parallel_sort(values, std::less<>());
    omp_set_num_threads(before);
    INFO(threads << " threads, " << n << " values");
    CHECK(values == expected);
}
