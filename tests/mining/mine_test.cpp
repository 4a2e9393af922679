// Level-wise mining against the brute-force miner, candidate joins, episode and interval
// text, and thresholds from rates.
#include "brute_force.hpp"
#include "catch.hpp"
#include "mining_test_helpers.hpp"
#include "random_streams.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/mining/mine.hpp"

#include <algorithm>
#include <limits>

using namespace spikeminer;
using mining::Counter;
using mining::Episode;
using mining::Interval;

namespace {

using test::A;
using test::B;
using test::C;

SpikeTrains abc_trains(TimeBase time_base) {
    NeuronTable table;
    table.labels = {"A", "B", "C"};
    return SpikeTrains::from_spikes({{0, A}, {1, B}}, table, time_base);
}

std::vector<test::BruteFrequent> sorted_result(const mining::MiningResult& result) {
    std::vector<test::BruteFrequent> found;
    for (const auto& frequent : result.episodes) found.push_back(test::BruteFrequent{frequent.episode, frequent.count});
    std::sort(found.begin(), found.end(),
              [](const test::BruteFrequent& a, const test::BruteFrequent& b) { return a.episode < b.episode; });
    return found;
}

std::string describe(const std::vector<test::BruteFrequent>& list) {
    std::string text;
    for (const auto& f : list) text += test::describe(f.episode) + " x" + std::to_string(f.count) + "; ";
    return text;
}

}  // namespace

TEST_CASE("mine equals the brute-force miner up to length 3", "[mining][mine]") {
    const auto seed = GENERATE(range(std::uint64_t{1}, std::uint64_t{31}));
    test::Rng rng(seed);
    const auto neurons = static_cast<std::size_t>(rng.between(3, 4));
    const auto spikes = static_cast<std::size_t>(rng.between(20, 45));
    const SpikeTrains trains = test::random_stream(seed, neurons, spikes, 50);
    const std::vector<Interval> intervals{{0, 2}, {2, 5}};
    // Non-decreasing thresholds per level (the last repeats): then every frequent episode
    // has a frequent prefix and suffix (their counts are at least its count), so the
    // level-wise search must find exactly what the exhaustive one finds.
    const auto t1 = static_cast<std::uint64_t>(rng.between(1, 4));
    const auto t2 = t1 + static_cast<std::uint64_t>(rng.between(0, 1));
    const std::vector<std::uint64_t> thresholds = seed % 3 == 0 ? std::vector<std::uint64_t>{t1}
                                                                : std::vector<std::uint64_t>{t1, t2};
    std::vector<NeuronId> alphabet;
    for (NeuronId n = 0; n < neurons; ++n) alphabet.push_back(n);
    const bool allow_list = seed % 4 == 1;
    if (allow_list) alphabet.erase(alphabet.begin());  // mine without neuron 0

    mining::MiningOptions options;
    options.intervals = intervals;
    options.min_counts = thresholds;
    options.max_level = 3;
    if (allow_list) options.neurons = alphabet;
    // The prefix counter extends the end lists it kept of the previous level's frequent episodes.
    const Counter counters[] = {Counter::Fsm, Counter::TwoStep, Counter::Prefix};
    const Counter counter = counters[(seed / 3) % 3];
    options.count.counter = counter;
    options.count.backend = Backend::Cpu;
    std::vector<std::size_t> told;
    const mining::MiningResult result =
        mining::mine(trains, options, [&](const mining::LevelReport& report) { told.push_back(report.level); });

    const auto expected = test::brute_mine(trains, alphabet, intervals, thresholds, 3);
    const auto found = sorted_result(result);
    INFO("seed " << seed << ", stream " << test::describe(trains) << "\nexpected " << describe(expected)
                 << "\nfound " << describe(found));
    CHECK(found == expected);

    // The level reports agree with what was found.
    REQUIRE_FALSE(result.levels.empty());
    CHECK(result.levels.size() <= 3);
    CHECK(result.levels.front().candidates == alphabet.size());
    CHECK(told.size() == result.levels.size());
    std::size_t listed = 0;
    for (std::size_t i = 0; i < result.levels.size(); ++i) {
        const mining::LevelReport& level = result.levels[i];
        CHECK(level.level == i + 1);
        CHECK(told[i] == i + 1);
        CHECK(level.threshold == thresholds[std::min(i + 1, thresholds.size()) - 1]);
        CHECK(level.counter == counter);
        CHECK(level.backend == Backend::Cpu);
        CHECK(level.frequent <= level.candidates);
        if (i == 1) CHECK(level.candidates == result.levels[0].frequent * result.levels[0].frequent * 2);
        listed += level.frequent;
    }
    CHECK(listed == result.episodes.size());
    // Episodes are listed level by level.
    for (std::size_t i = 1; i < result.episodes.size(); ++i) {
        CHECK(result.episodes[i - 1].episode.size() <= result.episodes[i].episode.size());
    }
}

TEST_CASE("mine rejects impossible options", "[mining][mine]") {
    const SpikeTrains trains = test::make_trains({{0, A}, {1, B}}, 2);
    mining::MiningOptions options;
    options.intervals = {{0, 2}};
    options.min_counts = {1};
    options.count.backend = Backend::Cpu;
    SECTION("no interval") {
        options.intervals.clear();
        REQUIRE_THROWS_AS(mining::mine(trains, options), UsageError);
    }
    SECTION("no threshold") {
        options.min_counts.clear();
        REQUIRE_THROWS_WITH(mining::mine(trains, options), test::contains("minimum count"));
    }
    SECTION("level 0") {
        options.max_level = 0;
        REQUIRE_THROWS_AS(mining::mine(trains, options), UsageError);
    }
    SECTION("an empty interval") {
        options.intervals = {{0, 2}, {2, 2}};
        REQUIRE_THROWS_WITH(mining::mine(trains, options), test::contains("0 <= lo < hi"));
    }
    SECTION("a neuron out of range") {
        options.neurons = {0, 2};
        REQUIRE_THROWS_WITH(mining::mine(trains, options), test::contains("out of range"));
    }
    SECTION("a neuron named twice (its episodes would be reported twice)") {
        options.neurons = {1, 0, 1};
        REQUIRE_THROWS_AS(mining::mine(trains, options), UsageError);
        REQUIRE_THROWS_WITH(mining::mine(trains, options), test::contains("twice"));
    }
    SECTION("max level 1 lists the frequent neurons only") {
        options.max_level = 1;
        const auto result = mining::mine(trains, options);
        REQUIRE(result.levels.size() == 1);
        REQUIRE(result.episodes.size() == 2);
        CHECK(result.episodes[0].episode == Episode{{A}, {}});
        CHECK(result.episodes[1].episode == Episode{{B}, {}});
    }
    SECTION("an empty stream finds nothing") {
        const auto result = mining::mine(test::make_trains({}, 2), options);
        CHECK(result.episodes.empty());
        REQUIRE(result.levels.size() == 1);
        CHECK(result.levels[0].frequent == 0);
    }
}

TEST_CASE("join_candidates joins a's suffix with b's prefix", "[mining][mine]") {
    const Interval i1{0, 2};
    const Interval i2{2, 5};
    SECTION("level 2 to 3") {
        const std::vector<Episode> frequent{Episode{{A, B}, {i1}}, Episode{{B, C}, {i1}}, Episode{{B, C}, {i2}},
                                            Episode{{C, A}, {i1}}, Episode{{A, A}, {i1}}};
        // By hand: A-B + B-C (both intervals); B-C (each) + C-A; C-A + A-B and A-A; A-A + A-B and
        // A-A. Eight candidates, sorted by neurons then intervals.
        const std::vector<Episode> expected{
            Episode{{A, A, A}, {i1, i1}}, Episode{{A, A, B}, {i1, i1}}, Episode{{A, B, C}, {i1, i1}},
            Episode{{A, B, C}, {i1, i2}}, Episode{{B, C, A}, {i1, i1}}, Episode{{B, C, A}, {i2, i1}},
            Episode{{C, A, A}, {i1, i1}}, Episode{{C, A, B}, {i1, i1}}};
        CHECK(mining::join_candidates(frequent) == expected);
        // The input order does not matter.
        std::vector<Episode> reversed(frequent.rbegin(), frequent.rend());
        CHECK(mining::join_candidates(reversed) == expected);
    }
    SECTION("level 3 to 4") {
        const std::vector<Episode> frequent{Episode{{A, B, C}, {i1, i1}}, Episode{{B, C, A}, {i1, i2}},
                                            Episode{{B, C, A}, {i1, i1}}, Episode{{B, C, A}, {i2, i1}}};
        // A-B-C (i1,i1) + B-C-A whose first interval is i1: (i1,i1) and (i1,i2). B-C-A has no
        // partner (nothing starts with C).
        const std::vector<Episode> expected{Episode{{A, B, C, A}, {i1, i1, i1}}, Episode{{A, B, C, A}, {i1, i1, i2}}};
        CHECK(mining::join_candidates(frequent) == expected);
    }
    SECTION("no frequent episodes, or no matching pair") {
        CHECK(mining::join_candidates({}).empty());
        CHECK(mining::join_candidates({Episode{{A, B}, {i1}}, Episode{{A, C}, {i1}}}).empty());
        // One self-joining episode: A-A + A-A.
        CHECK(mining::join_candidates({Episode{{A, A}, {i2}}}) == std::vector<Episode>{Episode{{A, A, A}, {i2, i2}}});
    }
}

TEST_CASE("join_candidates of many joins are sorted, counted before they are made, and stop at Cancel", "[mining][mine]") {
    // Every pair of 20 neurons at two intervals: 800 episodes, 800 x 40 joins, past the runs
    // the sort merges.
    std::vector<Episode> frequent;
    for (NeuronId a = 0; a < 20; ++a) {
        for (NeuronId b = 0; b < 20; ++b) {
            for (const Interval gap : {Interval{0, 2}, Interval{2, 5}}) frequent.push_back(Episode{{a, b}, {gap}});
        }
    }
    std::reverse(frequent.begin(), frequent.end());
    const std::vector<Episode> joins = mining::join_candidates(frequent);
    CHECK(joins.size() == 800 * 40);
    CHECK(std::is_sorted(joins.begin(), joins.end()));
    CHECK(std::adjacent_find(joins.begin(), joins.end()) == joins.end());
    CHECK(mining::count_next_candidates(2, frequent, {}) == joins.size());
    CHECK(mining::count_next_candidates(1, {Episode{{0}, {}}, Episode{{1}, {}}}, {{0, 2}, {2, 5}}) == 8);
    CancelToken cancel;
    cancel.request();
    const Progress stopped({}, &cancel);
    CHECK_THROWS_AS(mining::join_candidates(frequent, &stopped), Cancelled);
    CHECK_THROWS_AS(mining::count_next_candidates(2, frequent, {}, &stopped), Cancelled);
}

TEST_CASE("episodes and intervals round-trip through text", "[mining][text]") {
    SECTION("1 ms tick, bounds in ms") {
        const SpikeTrains trains = abc_trains(TimeBase{1000});
        const Episode episode = mining::parse_episode("A -(0,5]-> B -(5,10]-> C", trains);
        CHECK(episode == Episode{{A, B, C}, {Interval{0, 5}, Interval{5, 10}}});
        CHECK(mining::format_episode(episode, trains) == "A -(0,5]-> B -(5,10]-> C");
        CHECK(mining::parse_episode("A-(0,5]->B", trains) == Episode{{A, B}, {Interval{0, 5}}});
        CHECK(mining::parse_episode("  C  ", trains) == Episode{{C}, {}});
        CHECK(mining::format_episode(Episode{{C}, {}}, trains) == "C");
    }
    SECTION("1 us tick, bounds in ms, us and s") {
        const SpikeTrains trains = abc_trains(TimeBase{1'000'000});
        const Episode episode = mining::parse_episode("A -(0.5,2.25]-> A", trains);
        CHECK(episode == Episode{{A, A}, {Interval{500, 2250}}});
        CHECK(mining::format_episode(episode, trains) == "A -(0.5,2.25]-> A");
        CHECK(mining::format_episode(episode, trains, "us") == "A -(500,2250]-> A");
        CHECK(mining::parse_episode("A -(500,2250]-> A", trains, "us") == episode);
        test::Rng rng(3);
        for (int i = 0; i < 100; ++i) {
            Episode random = test::random_episode(rng, 3, 4);
            for (Interval& gap : random.gaps) {
                gap.lo = gap.lo * 997 + rng.between(0, 996);
                gap.hi = gap.lo + rng.between(1, 50'000);
            }
            for (const std::string unit : {"s", "ms", "us", "ns"}) {
                const std::string text = mining::format_episode(random, trains, unit);
                INFO(text << " in " << unit);
                CHECK(mining::parse_episode(text, trains, unit) == random);
            }
        }
    }
    SECTION("interval lists") {
        const TimeBase ms{1000};
        const TimeBase us{1'000'000};
        CHECK(mining::parse_intervals("0-5,5-10", ms) == std::vector<Interval>{{0, 5}, {5, 10}});
        CHECK(mining::parse_intervals(" 0 - 5 , 5 - 10 ", ms) == std::vector<Interval>{{0, 5}, {5, 10}});
        CHECK(mining::parse_intervals("0-5,5-10", us) == std::vector<Interval>{{0, 5000}, {5000, 10000}});
        CHECK(mining::parse_intervals("0-0.5", us) == std::vector<Interval>{{0, 500}});
        CHECK(mining::parse_intervals("0-5000", us, "us") == std::vector<Interval>{{0, 5000}});
        CHECK(mining::parse_intervals("0.001-0.002", ms, "s") == std::vector<Interval>{{1, 2}});
    }
}

TEST_CASE("bad episode and interval text is refused with the reason", "[mining][text]") {
    const SpikeTrains trains = abc_trains(TimeBase{1000});
    const TimeBase ms{1000};
    SECTION("unknown label") {
        REQUIRE_THROWS_AS(mining::parse_episode("A -(0,5]-> Z", trains), UsageError);
        REQUIRE_THROWS_WITH(mining::parse_episode("A -(0,5]-> Z", trains), test::contains("'Z'"));
        REQUIRE_THROWS_WITH(mining::parse_episode("A -(0,5]-> Z", trains), test::contains("episode 'A -(0,5]-> Z'"));
    }
    SECTION("lo >= hi") {
        REQUIRE_THROWS_AS(mining::parse_episode("A -(5,5]-> B", trains), UsageError);
        REQUIRE_THROWS_WITH(mining::parse_episode("A -(6,5]-> B", trains), test::contains("lo must be below hi"));
        REQUIRE_THROWS_AS(mining::parse_intervals("0-0", ms), UsageError);
        REQUIRE_THROWS_WITH(mining::parse_intervals("0-5,7-7", ms), test::contains("lo must be below hi"));
    }
    SECTION("malformed") {
        REQUIRE_THROWS_WITH(mining::parse_episode("", trains), test::contains("label is missing"));
        REQUIRE_THROWS_WITH(mining::parse_episode("A -(0,5]-> ", trains), test::contains("label is missing"));
        REQUIRE_THROWS_WITH(mining::parse_episode("A -(0,5] B", trains), test::contains("expected an interval"));
        REQUIRE_THROWS_WITH(mining::parse_episode("A -(0;5]-> B", trains), test::contains("expected an interval"));
        REQUIRE_THROWS_AS(mining::parse_episode("A -(x,5]-> B", trains), UsageError);
        REQUIRE_THROWS_AS(mining::parse_episode("A -(-1,5]-> B", trains), UsageError);
        REQUIRE_THROWS_WITH(mining::parse_intervals("5", ms), test::contains("lo-hi"));
        REQUIRE_THROWS_AS(mining::parse_intervals("a-5", ms), UsageError);
    }
    SECTION("empty list") {
        REQUIRE_THROWS_AS(mining::parse_intervals("", ms), UsageError);
        REQUIRE_THROWS_WITH(mining::parse_intervals("  ", ms), test::contains("no interval given"));
    }
    SECTION("bounds that are not whole ticks") {
        REQUIRE_THROWS_AS(mining::parse_intervals("0-0.0001", ms), UsageError);
        REQUIRE_THROWS_WITH(mining::parse_intervals("0.0001-5", ms), test::contains("not a whole number of ticks"));
        REQUIRE_THROWS_WITH(mining::parse_episode("A -(0,2.5]-> B", trains), test::contains("not a whole number"));
        REQUIRE_THROWS_WITH(mining::parse_intervals("0-5", TimeBase{1}, "ms"), test::contains("not a whole number"));
    }
}

TEST_CASE("format_episode writes bounds finer than a microsecond exactly", "[mining][text]") {
    // 1 ns tick, bounds in seconds: (0, 5] ticks is (0, 0.000000005] s. Written with six
    // decimals it would read "(0,0]", which does not parse back.
    const SpikeTrains trains = abc_trains(TimeBase{1'000'000'000});
    const Episode episode{{A, B}, {Interval{0, 5}}};
    const std::string text = mining::format_episode(episode, trains, "s");
    CHECK(text == "A -(0,0.000000005]-> B");
    CHECK(mining::parse_episode(text, trains, "s") == episode);
}

TEST_CASE("count_for_rate is ceil(rate x duration), at least 1", "[mining][mine]") {
    // 1 ms tick, spikes at 0 and 9,999: the span is [0, 10,000) ticks = 10 s.
    SpikeTrains trains = test::make_trains({{0, A}, {9'999, B}}, 2);
    REQUIRE(trains.span().length() == 10'000);
    CHECK(mining::count_for_rate(0.25, trains) == 3);  // 2.5 -> 3
    CHECK(mining::count_for_rate(2.0, trains) == 20);
    CHECK(mining::count_for_rate(0.0, trains) == 1);
    CHECK(mining::count_for_rate(0.01, trains) == 1);  // 0.1 -> 1
    CHECK(mining::count_for_rate(0.15, trains) == 2);  // 1.5 -> 2
    trains.set_span(TimeSpan{-5'000, 15'000});          // 20 s
    CHECK(mining::count_for_rate(0.25, trains) == 5);
    CHECK(mining::count_for_rate(1.0, test::make_trains({}, 1)) == 1);
}

TEST_CASE("count_for_rate gives the exact count when rate x duration is whole", "[mining][mine]") {
    // 1.1 Hz over 100 s is 110 occurrences; 1.1 * 100.0 in doubles is 110.00000000000001,
    // whose ceiling is 111.
    SpikeTrains trains = test::make_trains({{0, A}}, 1);
    trains.set_span(TimeSpan{0, 100'000});
    CHECK(mining::count_for_rate(1.1, trains) == 110);
    trains.set_span(TimeSpan{0, 10'000});
    CHECK(mining::count_for_rate(0.7, trains) == 7);
}

TEST_CASE("count_for_rate refuses a rate no count can reach, rather than wrap or saturate", "[mining][mine][bad-input]") {
    SpikeTrains trains = test::make_trains({{0, A}}, 1);
    trains.set_span(TimeSpan{0, 100'000});
    CHECK_THROWS_AS(mining::count_for_rate(1e300, trains), UsageError);
    CHECK_THROWS_WITH(mining::count_for_rate(1.9e17, trains), test::contains("more occurrences than can be counted"));  // 1.9e19 > 2^64
    CHECK(mining::count_for_rate(1e17, trains) == 10'000'000'000'000'000'000ULL);
}

TEST_CASE("level 2 counts only the pairs with enough spike pairs at their gap, and finds what counting every pair finds",
          "[mining][mine]") {
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
        const SpikeTrains trains = test::random_stream(seed, 25, 4000, 20'000, seed % 2 == 0);
        // Disjoint and overlapping intervals alike are bounded (these in groups the co-firing engine takes).
        const bool overlapping = seed % 3 == 0;
        mining::MiningOptions options;
        options.intervals = overlapping ? std::vector<Interval>{{0, 6}, {3, 9}} : std::vector<Interval>{{0, 3}, {3, 9}};
        options.min_counts = {1, 9 + seed % 4};
        options.max_level = 2;
        options.count.backend = Backend::Cpu;
        const mining::MiningResult result = mining::mine(trains, options);
        REQUIRE(result.levels.size() == 2);
        INFO("seed " << seed << ": " << result.levels[1].bounded_out << " of " << result.levels[1].candidates << " left out, "
                     << result.levels[1].frequent << " frequent");

        // Every pair counted, those at the threshold kept.
        std::vector<Episode> singles;
        for (NeuronId n = 0; n < trains.num_neurons(); ++n) singles.push_back(Episode{{n}, {}});
        const std::vector<Episode> pairs = mining::next_candidates(1, singles, options.intervals);
        const mining::CountResult all = mining::count_episodes(trains, pairs, options.count);
        std::vector<test::BruteFrequent> expected;
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            if (all.counts[i] >= options.min_counts[1]) expected.push_back({pairs[i], all.counts[i]});
        }
        std::vector<test::BruteFrequent> found;
        for (const auto& f : result.episodes) {
            if (f.episode.size() == 2) found.push_back({f.episode, f.count});
        }
        std::sort(expected.begin(), expected.end(), [](const auto& a, const auto& b) { return a.episode < b.episode; });
        std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.episode < b.episode; });
        CHECK(found == expected);
        CHECK(!expected.empty());
        CHECK(result.levels[1].bounded_out > 0);
    }
}
