// The whole recording's counts that sliding windows summed, read by another test over the
// same spikes (CofiringWindows::take_whole_recording_counts, whole_recording_from): the
// lags they hold are read, the others counted, and the window equals the one counted from
// the spikes alone, whatever the two sets of lags share; level 2 of the mining reads them
// and finds the episodes it finds alone.
#include "catch.hpp"

#include "brute_cofiring.hpp"
#include "cofiring_inputs.hpp"
#include "random_streams.hpp"

#include "spikeminer/mining/cofiring.hpp"
#include "spikeminer/mining/mine.hpp"

using namespace spikeminer;
using mining::CofiringOptions;
using mining::CofiringWindow;
using mining::CofiringWindows;

namespace {

// The counts sliding windows over `trains` summed with `options` (nullopt: one window).
std::optional<mining::WholeRecordingCounts> windows_counts(const SpikeTrains& trains, const CofiringOptions& options) {
    CofiringWindows windows(trains, options);
    if (windows.size() == 1) return std::nullopt;
    REQUIRE(windows.keep_whole_recording());
    CHECK_FALSE(windows.take_whole_recording_counts().has_value());  // no window counted yet
    CofiringWindow window;
    while (windows.next(window)) {}
    std::optional<mining::WholeRecordingCounts> counts = windows.take_whole_recording_counts();
    REQUIRE(counts.has_value());
    CHECK_FALSE(windows.take_whole_recording_counts().has_value());  // moved out
    CHECK_FALSE(windows.whole_recording(window));
    return counts;
}

}  // namespace

TEST_CASE("a whole recording's window read from the windows' counts, the other lags counted, equals its own count", "[mining][cofiring]") {
    std::size_t edges = 0;
    std::size_t compared = 0;
    for (unsigned seed = 300; seed < 320; ++seed) {
        test::Rng rng(seed);
        auto [trains, options, grid] = test::random_case(rng, 30, 200, 1500, 20'000, Backend::Cpu);
        options.step = rng.between(300, 2000) * grid;
        options.window = options.step * rng.between(2, 5);
        options.threads = 1 + seed % 2;
        options.test.q = 1;  // the windows' edges do not matter here: no p-value tables to make
        const std::optional<mining::WholeRecordingCounts> counted = windows_counts(trains, options);
        if (!counted) continue;
        CHECK(counted->counts.size() == trains.num_neurons() * trains.num_neurons() * counted->lags.size());
        // Other lags: the windows' own, some sharing the windows' baseline (as level 2's
        // sieve does in a run), and any.
        for (int kind = 0; kind < 3; ++kind) {
            CofiringOptions other = options;
            other.window = other.step = 0;
            // Mostly the test off (every pair counted is an edge, its counts compared).
            other.test.q = rng.chance(25) ? 0.05 : 1.0;
            if (kind > 0) {
                other.lags = test::random_lags(rng, grid);
                if (kind == 1 && other.lags.baseline.lo <= options.lags.baseline.lo) other.lags.baseline = options.lags.baseline;
            }
            INFO("seed " << seed << ", lags of kind " << kind);
            const CofiringWindow expected = mining::cofiring_whole_recording(trains, other);
            const CofiringWindow read = mining::cofiring_whole_recording(trains, other, &*counted);
            CHECK(read.span.start == expected.span.start);
            CHECK(read.span.end == expected.span.end);
            CHECK(read.tests == expected.tests);
            CHECK(test::edge_mismatch(read.edges, expected.edges).empty());
            CHECK(read.edges.size() == expected.edges.size());
            edges += read.edges.size();
            ++compared;
        }
    }
    CHECK(compared > 30);
    CHECK(edges > 1000);  // not a comparison of empty sets
}

TEST_CASE("counts of another recording's neurons are not read", "[mining][cofiring]") {
    test::Rng rng(7);
    const SpikeTrains trains = test::grid_recording(rng, 6, 1500, 20'000, 1);
    const SpikeTrains more = test::grid_recording(rng, 7, 1500, 20'000, 1);
    CofiringOptions options;
    options.backend = Backend::Cpu;
    options.lags = mining::parse_lags("2", "0-3", "10-20", TimeBase{1'000'000}, "us");
    options.step = 2000;
    options.window = 6000;
    const std::optional<mining::WholeRecordingCounts> counted = windows_counts(trains, options);
    REQUIRE(counted.has_value());
    options.window = options.step = 0;
    CofiringWindows whole(more, options);
    CofiringWindow window;
    CHECK_FALSE(whole.whole_recording_from(*counted, window));
    CofiringWindows same(trains, options);
    CHECK(same.whole_recording_from(*counted, window));
}

TEST_CASE("level 2 reading the windows' counts mines the episodes it mines alone", "[mining][cofiring]") {
    std::size_t episodes = 0;
    for (unsigned seed = 50; seed < 58; ++seed) {
        test::Rng rng(seed);
        const SpikeTrains trains = test::grid_recording(rng, static_cast<std::size_t>(rng.between(4, 12)), 4000, 40'000, 1);
        const TimeBase tb{1'000'000};
        CofiringOptions windows;
        windows.backend = Backend::Cpu;
        windows.lags = mining::parse_lags("2", "", "20-40", tb, "us");
        windows.step = 2000;
        windows.window = 4000 * rng.between(1, 3);
        const std::optional<mining::WholeRecordingCounts> counted = windows_counts(trains, windows);
        REQUIRE(counted.has_value());
        mining::MiningOptions options;
        options.intervals = mining::parse_intervals("0-5,5-10", tb, "us");
        options.chance = mining::ChanceTest{windows.lags.baseline, mining::Correction::BenjaminiHochberg, 0.05};
        options.min_counts = {3};
        options.max_level = 3;
        options.count.backend = Backend::Cpu;
        const mining::MiningResult alone = mining::mine(trains, options);
        options.pair_counts = &*counted;
        const mining::MiningResult read = mining::mine(trains, options);
        INFO("seed " << seed);
        REQUIRE(read.episodes.size() == alone.episodes.size());
        for (std::size_t i = 0; i < read.episodes.size(); ++i) {
            CHECK(read.episodes[i].episode == alone.episodes[i].episode);
            CHECK(read.episodes[i].count == alone.episodes[i].count);
        }
        REQUIRE(read.levels.size() == alone.levels.size());
        for (std::size_t l = 0; l < read.levels.size(); ++l) {
            CHECK(read.levels[l].candidates == alone.levels[l].candidates);
            CHECK(read.levels[l].chance_tests == alone.levels[l].chance_tests);
            CHECK(read.levels[l].beat_chance == alone.levels[l].beat_chance);
        }
        episodes += read.episodes.size();
    }
    CHECK(episodes > 40);
}
