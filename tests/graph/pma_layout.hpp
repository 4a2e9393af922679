// The packed memory array's invariants, checked alike on the CPU PMA and GPMA+.
#pragma once

#include "catch.hpp"

#include "spikeminer/graph/cpu_pma.hpp"

#include <bit>
#include <cstdint>

namespace spikeminer::test {

/// A power-of-two capacity of at least the smallest size, the segment size it implies, no
/// leaf beyond its upper bound (so none is ever full), the counts summing to the edges, and
/// the whole array above the smallest size at least half as dense as the root's lower bound
/// (it shrinks).
template <typename Pma>
void check_pma_layout(const Pma& pma) {
    const std::size_t capacity = pma.capacity();
    REQUIRE(std::has_single_bit(capacity));
    REQUIRE(capacity >= graph::CpuPma::kMinCapacity);
    REQUIRE(pma.segment_size() == graph::PmaDensity::segment_size(capacity));
    const auto leaf_limit = static_cast<std::uint32_t>(graph::PmaDensity::kLeafUpper * static_cast<double>(pma.segment_size()));
    std::size_t total = 0;
    for (const std::uint32_t c : pma.segment_counts()) {
        REQUIRE(c <= leaf_limit);
        total += c;
    }
    REQUIRE(total == pma.num_edges());
    if (capacity > graph::CpuPma::kMinCapacity) {
        REQUIRE(static_cast<double>(pma.num_edges()) >= graph::PmaDensity::kRootLower * static_cast<double>(capacity) / 2);
    }
}

}  // namespace spikeminer::test
