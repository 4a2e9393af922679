// One pair's co-firing test counted with two cursors (pair_test_count.hpp, what the CPU's
// and the GPU's surrogate edge tests count) against every pair of spikes checked alone.
#include "catch.hpp"
#include "random_streams.hpp"

#include "pair_test_count.hpp"

#include <algorithm>
#include <cstdlib>
#include <vector>

using namespace spikeminer;
using mining::detail::count_pair_test;
using mining::detail::PairTestLags;

namespace {

std::vector<Tick> sorted_times(test::Rng& rng, std::size_t n, Tick span) {
    std::vector<Tick> times(n);
    for (Tick& t : times) t = rng.between(0, span);
    std::sort(times.begin(), times.end());
    return times;
}

// By the definition: synchrony, each pair at most sync apart whose later spike is in
// [from, to); an interval, each pair lo < t2 - t1 <= hi with t2 (second's) in [from, to).
std::uint64_t brute(const std::vector<Tick>& first, const std::vector<Tick>& second, Tick from, Tick to, const PairTestLags& lags) {
    std::uint64_t count = 0;
    for (const Tick t1 : first) {
        for (const Tick t2 : second) {
            if (lags.synchrony) {
                const Tick later = std::max(t1, t2);
                count += std::abs(t2 - t1) <= lags.sync && later >= from && later < to ? 1 : 0;
            } else {
                count += t2 - t1 > lags.lo && t2 - t1 <= lags.hi && t2 >= from && t2 < to ? 1 : 0;
            }
        }
    }
    return count;
}

}  // namespace

TEST_CASE("a pair's test counted with two cursors equals every pair checked alone", "[mining][cofiring][significance]") {
    std::uint64_t nonzero = 0;
    for (unsigned seed = 1; seed <= 400; ++seed) {
        test::Rng rng(seed);
        const Tick span = rng.between(5, 400);
        // Few ticks for many spikes: ties, within a train and across the two, are common.
        const std::vector<Tick> first = sorted_times(rng, rng.below(60), span);
        const std::vector<Tick> second = rng.chance(10) ? first : sorted_times(rng, rng.below(60), span);
        const Tick from = rng.between(-20, span);
        const Tick to = from + rng.between(0, span);
        PairTestLags lags;
        lags.synchrony = rng.chance(50);
        lags.sync = rng.between(0, 6);
        lags.lo = rng.between(-1, 10);
        lags.hi = lags.lo + rng.between(1, 12);
        INFO("seed " << seed);
        const std::uint64_t expected = brute(first, second, from, to, lags);
        CHECK(count_pair_test(first.data(), first.size(), second.data(), second.size(), from, to, lags) == expected);
        nonzero += expected != 0 ? 1 : 0;
    }
    CHECK(nonzero > 200);
}
