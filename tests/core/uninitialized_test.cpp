// Large uninitialised arrays: laid on 2 MiB boundaries (where huge pages can back them),
// usable like any vector as they grow and shrink past the size that chooses huge pages.
#include "catch.hpp"

#include "spikeminer/core/uninitialized.hpp"

#include <cstdint>
#include <numeric>

using namespace spikeminer;

TEST_CASE("large uninitialised vectors are aligned to huge pages and hold what is put in them", "[core][memory]") {
    const std::size_t large = kHugePagesFrom / sizeof(std::uint64_t) + 3;
    UninitializedVector<std::uint64_t> values(large);
    CHECK(reinterpret_cast<std::uintptr_t>(values.data()) % (std::size_t{2} << 20) == 0);
    std::iota(values.begin(), values.end(), std::uint64_t{7});
    values.resize(2 * large);  // moved to a larger array: the first values go with it
    CHECK(values[large - 1] == large + 6);
    CHECK(reinterpret_cast<std::uintptr_t>(values.data()) % (std::size_t{2} << 20) == 0);
    UninitializedVector<std::uint64_t> small(16);
    std::iota(small.begin(), small.end(), std::uint64_t{1});
    values.assign(small.begin(), small.end());  // a small one in the large one's place
    values.shrink_to_fit();
    CHECK(values.size() == 16);
    CHECK(values.back() == 16);
}
