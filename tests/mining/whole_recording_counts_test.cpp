// The whole recording's counts that sliding windows summed, read by another test over the
// same spikes (CofiringWindows::take_whole_recording_counts, whole_recording_from): the
// slots they make up are read (project_counts), the others counted (look-backs that skip
// the read ones), and the window equals the one counted from the spikes alone, whatever
// the two sets of lags share; the read counts are the ones used; counts of another
// recording are not read; level 2 of the mining reads them and finds the episodes it finds
// alone.
#include "catch.hpp"

#include "cofiring_layout.hpp"

#include "brute_cofiring.hpp"
#include "cofiring_inputs.hpp"
#include "random_streams.hpp"

#include "spikeminer/mining/cofiring.hpp"
#include "spikeminer/mining/mine.hpp"

using namespace spikeminer;
using mining::CofiringOptions;
using mining::CofiringWindow;
using mining::CofiringWindows;
using mining::Interval;

namespace {

// Windows of 6,000 ticks every 2,000 on the CPU, at synchrony `sync` and `intervals` (us,
// ticks of 1 us), chance from 10-20.
CofiringOptions sliding(const char* sync, const char* intervals) {
    CofiringOptions options;
    options.backend = Backend::Cpu;
    options.lags = mining::parse_lags(sync, intervals, "10-20", TimeBase{1'000'000}, "us");
    options.step = 2000;
    options.window = 6000;
    return options;
}

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

TEST_CASE("counts of another recording are not read", "[mining][cofiring]") {
    test::Rng rng(7);
    const SpikeTrains trains = test::grid_recording(rng, 6, 1500, 20'000, 1);
    CofiringOptions options = sliding("2", "0-3");
    const std::optional<mining::WholeRecordingCounts> counted = windows_counts(trains, options);
    REQUIRE(counted.has_value());
    options.window = options.step = 0;
    CofiringWindow window;
    // More neurons; as many neurons, over a longer time.
    for (const SpikeTrains& other : {test::grid_recording(rng, 7, 1500, 20'000, 1), test::grid_recording(rng, 6, 1500, 30'000, 1)}) {
        CofiringWindows whole(other, options);
        CHECK_FALSE(whole.whole_recording_from(*counted, window));
    }
    CofiringWindows same(trains, options);
    CHECK(same.whole_recording_from(*counted, window));
    mining::WholeRecordingCounts unordered{{counted->lags.rbegin(), counted->lags.rend()}, counted->counts, counted->span, counted->spikes};
    CHECK_FALSE(same.whole_recording_from(unordered, window));
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

TEST_CASE("the slots a run of counted slots makes up are read from them, and only the others looked back over", "[mining][cofiring]") {
    using mining::detail::LagLayout;
    const TimeBase tb{1'000'000};
    // Counted: lag 0, (0, 2], (2, 5], (20, 40] (ticks); two pairs of neurons' counts, 1..8.
    const LagLayout from = mining::detail::lay_out(mining::parse_lags("2", "2-5", "20-40", tb, "us"), 1);
    const std::vector<Interval> from_slots = mining::detail::slot_ranges(from);
    REQUIRE(from_slots == std::vector<Interval>{{-1, 0}, {0, 2}, {2, 5}, {20, 40}});
    std::vector<std::uint64_t> counts(4 * from_slots.size());
    for (std::size_t i = 0; i < counts.size(); ++i) counts[i] = i + 1;
    // Read: (0, 5] from (0, 2] and (2, 5], and the baseline; (5, 10] is not there.
    const LagLayout to = mining::detail::lay_out(mining::parse_lags("off", "0-5,5-10", "20-40", tb, "us"), 1);
    std::vector<bool> covered;
    const auto projected = mining::detail::project_counts(counts, from_slots, to, 2, 1, covered);
    CHECK(covered == std::vector<bool>{true, false, true});
    REQUIRE(projected.size() == 4 * 3);
    for (std::size_t pair = 0; pair < 4; ++pair) {
        const std::uint64_t* in = counts.data() + pair * 4;
        CHECK(projected[pair * 3] == in[1] + in[2]);
        CHECK(projected[pair * 3 + 2] == in[3]);
    }
    // With synchrony, lag 0 is read from lag 0 alone.
    const LagLayout sync = mining::detail::lay_out(mining::parse_lags("5", "", "20-40", tb, "us"), 1);
    (void)mining::detail::project_counts(counts, from_slots, sync, 2, 1, covered);
    CHECK(covered == std::vector<bool>{true, true, true});
    // The look-backs skip what was read: (5, 10] alone here.
    const mining::detail::LookBacks rest = mining::detail::look_backs(to, {true, false, true});
    REQUIRE(rest.count == 1);
    CHECK(rest.runs[0].lo == 5);
    CHECK(rest.runs[0].hi == 10);
    CHECK(rest.runs[0].last_slot == 1);
    const mining::detail::LookBacks split = mining::detail::look_backs(to, {false, true, false});
    REQUIRE(split.count == 2);
    CHECK((split.runs[0].lo == 0 && split.runs[0].hi == 5 && split.runs[0].last_slot == 0));
    CHECK((split.runs[1].lo == 20 && split.runs[1].hi == 40 && split.runs[1].last_slot == 2));
    // Adjacent slots merge into one look-back, unless one of them is to stay alone.
    REQUIRE(mining::detail::look_backs(to).count == 2);
    const mining::detail::LookBacks apart = mining::detail::look_backs(to, {}, {false, true, false});
    REQUIRE(apart.count == 3);
    CHECK((apart.runs[0].lo == 0 && apart.runs[0].hi == 5 && apart.runs[0].last_slot == 0));
    CHECK((apart.runs[1].lo == 5 && apart.runs[1].hi == 10 && apart.runs[1].last_slot == 1));
}

TEST_CASE("the counts read are the ones the window is decided on", "[mining][cofiring]") {
    test::Rng rng(11);
    const SpikeTrains trains = test::grid_recording(rng, 8, 3000, 20'000, 1);
    CofiringOptions options = sliding("2", "");
    options.test.q = 1;
    std::optional<mining::WholeRecordingCounts> counted = windows_counts(trains, options);
    REQUIRE(counted.has_value());
    CofiringOptions other = options;
    other.lags = mining::parse_lags("off", "0-3", "10-20", TimeBase{1'000'000}, "us");
    const CofiringWindow expected = mining::cofiring_whole_recording(trains, other);
    REQUIRE(expected.edges.size() > 10);
    // The baseline's counts zeroed: every edge read has baseline 0, counted ones do not.
    const std::size_t width = counted->lags.size();
    REQUIRE(counted->lags.back() == Interval{10, 20});
    for (std::size_t i = width - 1; i < counted->counts.size(); i += width) counted->counts[i] = 0;
    const CofiringWindow read = mining::cofiring_whole_recording(trains, other, &*counted);
    REQUIRE(read.edges.size() == expected.edges.size());
    CHECK(std::all_of(read.edges.begin(), read.edges.end(), [](const mining::CofiringEdge& e) { return e.baseline == 0; }));
    CHECK(std::any_of(expected.edges.begin(), expected.edges.end(), [](const mining::CofiringEdge& e) { return e.baseline > 0; }));
    // Its interval, (0, 3], is not among the counted slots: counted from the spikes.
    for (std::size_t i = 0; i < read.edges.size(); ++i) CHECK(read.edges[i].count == expected.edges[i].count);
}
