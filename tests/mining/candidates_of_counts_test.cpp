// The CPU's candidate tests of a window's counts (candidates_of_counts: tiles of pairs, and a
// quick look at the level tables that passes over most pairs) against every pair's tests
// offered one by one to the rule (for_each_candidate), on counts set at the tables' edges:
// each test's count one below, at and one above the least count of level 0 for its
// baseline, baselines on both sides of the tables' end, over random layouts.
#include "catch.hpp"

#include "cofiring_counter.hpp"
#include "cofiring_decide.hpp"

#include "cofiring_inputs.hpp"
#include "random_streams.hpp"

#include <algorithm>
#include <tuple>
#include <vector>

using namespace spikeminer;
using mining::detail::CandidateRule;
using mining::detail::CofiringCandidate;
using mining::detail::kLevels;
using mining::detail::LagLayout;
using mining::detail::SlotRun;

namespace {

constexpr std::uint64_t kTableD = 48;  // baselines the tables hold (the engine's hold 4,096)

// Puts `total` into the slots of `run` of `cell`, split at random.
void spread(test::Rng& rng, std::uint64_t* cell, const SlotRun& run, std::uint64_t total) {
    for (int s = run.first; s < run.last; ++s) {
        const std::uint64_t part = s + 1 == run.last ? total : static_cast<std::uint64_t>(rng.between(0, static_cast<std::int64_t>(total)));
        cell[s] += part;
        total -= part;
    }
}

auto key(const CofiringCandidate& c) { return std::tuple(c.a, c.b, c.interval, c.level, c.count, c.baseline); }

std::vector<CofiringCandidate> sorted(std::vector<CofiringCandidate> candidates) {
    std::sort(candidates.begin(), candidates.end(), [](const auto& l, const auto& r) { return key(l) < key(r); });
    return candidates;
}

}  // namespace

TEST_CASE("a window's candidates are every test the rule takes, counts at the level tables' edges included", "[mining][cofiring]") {
    std::size_t offered = 0;
    std::size_t at_least = 0;
    std::size_t at_edge = 0;
    for (unsigned seed = 1; seed <= 12; ++seed) {
        test::Rng rng(seed);
        INFO("seed " << seed);
        const Tick grid = rng.chance(50) ? 1 : 5;
        const LagLayout layout = mining::detail::lay_out(test::random_lags(rng, grid), grid);
        mining::EdgeTest test;
        test.q = rng.chance(50) ? 0.01 : 0.2;
        const std::size_t n = 70;  // more than a tile of 64 neurons
        const std::vector<std::uint32_t> tables = mining::detail::level_tables(layout, test, kTableD, 1);
        CandidateRule rule = mining::detail::candidate_rule(layout, test, n);
        rule.table = tables.data();
        rule.table_d = kTableD;
        std::vector<std::uint64_t> spikes(n, 50);
        spikes[3] = 0;  // a silent neuron's pairs are no tests
        rule.window_spikes = spikes.data();
        rule.tests = n * (n - 1) / 2 * static_cast<std::uint64_t>(layout.tests_per_pair());

        const auto slots = static_cast<std::size_t>(layout.slots);
        std::vector<std::uint64_t> counts(n * n * slots, 0);
        const auto least = [&](int type, std::uint64_t d) { return tables[static_cast<std::uint64_t>(type) * kLevels * kTableD + d]; };
        for (std::size_t x = 0; x < n; ++x) {
            for (std::size_t y = x + 1; y < n; ++y) {
                std::uint64_t* yx = counts.data() + (y * n + x) * slots;
                std::uint64_t* xy = counts.data() + (x * n + y) * slots;
                const auto d = static_cast<std::uint64_t>(rng.between(0, kTableD + 3));  // past the tables now and then
                const auto on_yx = static_cast<std::uint64_t>(rng.between(0, static_cast<std::int64_t>(d)));
                spread(rng, yx, layout.baseline_run, on_yx);
                spread(rng, xy, layout.baseline_run, d - on_yx);
                // Each test's count near the least count of level 0 for d (or anywhere when
                // d is past the tables).
                const auto near = [&](int type) {
                    if (d >= kTableD) return static_cast<std::uint64_t>(rng.between(0, 60));
                    const std::uint64_t edge = least(type, d);
                    const std::int64_t offset = rng.between(-1, 1);
                    at_least += offset == 0 ? 1 : 0;
                    return offset < 0 ? (edge == 0 ? 0 : edge - 1) : edge + static_cast<std::uint64_t>(offset);
                };
                if (layout.synchrony) {
                    const std::uint64_t c = near(0);
                    // All at lag 0 when synchrony is lag 0 alone.
                    const bool lag_zero_only = layout.sync_run.first == layout.sync_run.last;
                    const auto at_zero = lag_zero_only ? c : static_cast<std::uint64_t>(rng.between(0, static_cast<std::int64_t>(c)));
                    const auto on_yx_sync = static_cast<std::uint64_t>(rng.between(0, static_cast<std::int64_t>(c - at_zero)));
                    yx[0] += at_zero / 2;
                    xy[0] += at_zero - at_zero / 2;
                    spread(rng, yx, layout.sync_run, on_yx_sync);
                    spread(rng, xy, layout.sync_run, c - at_zero - on_yx_sync);
                }
                for (int k = 0; k < layout.intervals; ++k) {
                    spread(rng, yx, layout.interval_runs[k], near(k + 1));
                    spread(rng, xy, layout.interval_runs[k], near(k + 1));
                }
            }
        }

        std::vector<CofiringCandidate> expected;
        for (std::size_t x = 0; x < n; ++x) {
            for (std::size_t y = x + 1; y < n; ++y) {
                if (spikes[x] == 0 || spikes[y] == 0) continue;
                mining::detail::for_each_candidate(rule, static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y),
                                                   counts.data() + (y * n + x) * slots, counts.data() + (x * n + y) * slots, spikes[x],
                                                   spikes[y], [&](const CofiringCandidate& c) { expected.push_back(c); });
            }
        }
        unsigned long long at_level[kLevels] = {};
        for (const CofiringCandidate& c : expected) ++at_level[c.level];
        const int level = mining::detail::deepest_needed_level(at_level, rule);
        std::erase_if(expected, [level](const CofiringCandidate& c) { return c.level < level; });
        offered += expected.size();
        for (const CofiringCandidate& c : expected) {  // candidates whose count is exactly the least
            at_edge += c.baseline < kTableD && c.count == least(c.interval + 1, c.baseline) ? 1 : 0;
        }

        const auto threads = static_cast<unsigned>(rng.between(1, 3));
        const std::vector<CofiringCandidate> found = mining::detail::candidates_of_counts(counts.data(), n, layout.slots, rule, threads);
        REQUIRE(found.size() == expected.size());
        const std::vector<CofiringCandidate> a = sorted(found);
        const std::vector<CofiringCandidate> b = sorted(expected);
        for (std::size_t i = 0; i < a.size(); ++i) CHECK(key(a[i]) == key(b[i]));
    }
    // The counts reached the tables' edges, and candidates came of them.
    CHECK(at_least > 1000);
    CHECK(offered > 1000);
    CHECK(at_edge > 100);
}
