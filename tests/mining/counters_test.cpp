// The CPU counters (streaming FSM and two-step) and find_occurrences against the
// brute-force oracle of brute_force.hpp on many tiny random streams, where ties,
// simultaneous spikes, duplicates and touching intervals are common.
#include "brute_force.hpp"
#include "catch.hpp"
#include "mining_test_helpers.hpp"
#include "random_streams.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/mining/count.hpp"

#include <algorithm>

using namespace spikeminer;
using mining::Counter;
using mining::Episode;
using mining::Interval;

TEST_CASE("the oracle's dynamic programme equals exhaustive search over span sets", "[mining][oracle]") {
    // Hand-made: [0,2] [1,3] [3,4]: [0,2] and [3,4] -> 2; touching [0,2] [2,4] overlap -> 1.
    CHECK(test::max_non_overlapped({}) == 0);
    CHECK(test::max_non_overlapped({{0, 2}, {1, 3}, {3, 4}}) == 2);
    CHECK(test::max_non_overlapped({{0, 2}, {2, 4}}) == 1);
    CHECK(test::max_non_overlapped({{5, 5}, {5, 5}, {6, 6}}) == 2);
    // A case where the span that starts first is a bad choice: [0,10] [1,2] [3,4] -> 2.
    CHECK(test::max_non_overlapped({{0, 10}, {1, 2}, {3, 4}}) == 2);

    const auto seed = GENERATE(range(std::uint64_t{1}, std::uint64_t{301}));
    test::Rng rng(seed);
    std::vector<std::pair<Tick, Tick>> spans(rng.below(13));
    for (auto& span : spans) {
        span.first = rng.between(-5, 20);
        span.second = span.first + rng.between(0, 6);
    }
    CAPTURE(seed);
    CHECK(test::max_non_overlapped(spans) == test::max_non_overlapped_exhaustive(spans));
}

TEST_CASE("the oracle enumerates occurrences from the definition", "[mining][oracle]") {
    // n0 at 0, 1, 1 (duplicate), 4; n1 at 2, 4. Episode n0 -(0,3]-> n1: 0->2, and from
    // each copy of 1: 1->2 and 1->4 (gap 3 = hi is in); 0->4 (gap 4) and 4->4 (gap 0) are
    // not. 5 occurrences, spans [0,2] [1,2] [1,2] [1,4] [1,4] all overlap: count 1.
    const SpikeTrains trains = test::make_trains({{0, 0}, {1, 0}, {1, 0}, {4, 0}, {2, 1}, {4, 1}}, 2);
    const Episode episode{{0, 1}, {Interval{0, 3}}};
    CHECK(test::all_occurrences(trains, episode).size() == 5);
    CHECK(test::brute_count(trains, episode) == 1);
    // n0 alone: distinct times 0, 1, 4 -> 3.
    CHECK(test::brute_count(trains, Episode{{0}, {}}) == 3);
}

TEST_CASE("FSM, two-step and prefix counts equal the brute force on tiny random streams", "[mining][counters]") {
    const auto seed = GENERATE(range(std::uint64_t{1}, std::uint64_t{201}));
    const test::TinyStream stream = test::tiny_stream(seed);
    const std::vector<Episode> episodes = test::random_episodes(seed, stream.neurons, 24);
    const auto fsm = test::cpu_counts(stream.trains, episodes, Counter::Fsm);
    const auto two_step = test::cpu_counts(stream.trains, episodes, Counter::TwoStep);
    const auto two_step_one_thread = test::cpu_counts(stream.trains, episodes, Counter::TwoStep, 1);
    // Mixed lengths in one call: the prefix counter builds every missing prefix first.
    const auto prefix = test::cpu_counts(stream.trains, episodes, Counter::Prefix);
    for (std::size_t i = 0; i < episodes.size(); ++i) {
        const std::uint64_t expected = test::brute_count(stream.trains, episodes[i]);
        INFO("seed " << seed << ", stream " << test::describe(stream.trains) << ", episode "
                     << test::describe(episodes[i]) << ", brute force " << expected);
        CHECK(fsm[i] == expected);
        CHECK(two_step[i] == expected);
        CHECK(two_step_one_thread[i] == expected);
        CHECK(prefix[i] == expected);
        // Alone in its call, the two-step counter shares the end events out instead.
        CHECK(test::cpu_count(stream.trains, episodes[i], Counter::TwoStep) == expected);
    }
}

TEST_CASE("find_occurrences returns the greedy largest set of valid non-overlapped occurrences",
          "[mining][occurrences]") {
    const auto seed = GENERATE(range(std::uint64_t{1}, std::uint64_t{201}));
    const test::TinyStream stream = test::tiny_stream(seed);
    const SpikeTrains& trains = stream.trains;
    const auto times = trains.times();
    const auto neurons = trains.neurons();
    for (const Episode& episode : test::random_episodes(seed + 1000, stream.neurons, 16)) {
        const auto every = test::all_occurrences(trains, episode);
        const auto spans = test::greedy_spans(every);
        std::vector<std::pair<Tick, Tick>> all_spans;
        for (const auto& o : every) all_spans.emplace_back(o.start, o.end);
        const std::uint64_t expected = test::max_non_overlapped(all_spans);
        INFO("seed " << seed << ", stream " << test::describe(trains) << ", episode " << test::describe(episode)
                     << ", brute force " << expected);
        REQUIRE(spans.size() == expected);  // the oracle's own greedy is optimal here

        const std::vector<mining::Occurrence> found = mining::find_occurrences(trains, episode);
        REQUIRE(found.size() == expected);
        for (std::size_t j = 0; j < found.size(); ++j) {
            const auto& events = found[j].events;
            INFO("occurrence " << j);
            REQUIRE(events.size() == episode.size());
            for (std::size_t k = 0; k < events.size(); ++k) {
                REQUIRE(events[k] < trains.num_spikes());
                CHECK(neurons[events[k]] == episode.neurons[k]);
                if (k > 0) {
                    const Tick gap = times[events[k]] - times[events[k - 1]];
                    CHECK(gap > episode.gaps[k - 1].lo);
                    CHECK(gap <= episode.gaps[k - 1].hi);
                }
            }
            const Tick start = times[events.front()];
            const Tick end = times[events.back()];
            if (j > 0) {
                // Sorted by end, and non-overlapped: each starts after the previous ends.
                CHECK(times[found[j - 1].events.back()] < start);
            }
            // The documented choice: earliest end, then latest start.
            CHECK(start == spans[j].first);
            CHECK(end == spans[j].second);
        }
    }
}

TEST_CASE("count_episodes checks episodes and counter choices", "[mining][counters]") {
    const SpikeTrains trains = test::make_trains({{0, 0}, {3, 1}}, 2);
    mining::CountOptions options;
    options.backend = Backend::Cpu;
    SECTION("an episode whose gap is empty or negative") {
        const std::vector<Episode> empty_gap{Episode{{0, 1}, {Interval{3, 3}}}};
        REQUIRE_THROWS_AS(mining::count_episodes(trains, empty_gap, options), Error);
        REQUIRE_THROWS_WITH(mining::count_episodes(trains, empty_gap, options), test::contains("need 0 <= lo < hi"));
        const std::vector<Episode> negative{Episode{{0, 1}, {Interval{-1, 3}}}};
        REQUIRE_THROWS_AS(mining::count_episodes(trains, negative, options), Error);
        REQUIRE_THROWS_AS(mining::find_occurrences(trains, negative.front()), Error);
    }
    SECTION("a neuron out of range, a missing interval, no neuron") {
        const std::vector<Episode> out_of_range{Episode{{0, 2}, {Interval{0, 3}}}};
        REQUIRE_THROWS_WITH(mining::count_episodes(trains, out_of_range, options), test::contains("out of range"));
        const std::vector<Episode> missing{Episode{{0, 1}, {}}};
        REQUIRE_THROWS_WITH(mining::count_episodes(trains, missing, options), test::contains("needs 1 intervals"));
        const std::vector<Episode> none{Episode{}};
        REQUIRE_THROWS_AS(mining::count_episodes(trains, none, options), Error);
    }
    SECTION("a GPU counter on the CPU backend") {
        options.counter = Counter::CountScanWrite;
        const std::vector<Episode> episodes{Episode{{0, 1}, {Interval{0, 3}}}};
        REQUIRE_THROWS_AS(mining::count_episodes(trains, episodes, options), UsageError);
        options.counter = Counter::AtomicCompact;
        REQUIRE_THROWS_WITH(mining::count_episodes(trains, episodes, options), test::contains("runs on the GPU"));
    }
    SECTION("auto on the CPU: two-step for a few episodes, prefix for many or when mining; none give no counts") {
        const std::vector<Episode> episodes{Episode{{0, 1}, {Interval{0, 3}}}};
        const auto result = mining::count_episodes(trains, episodes, options);
        CHECK(result.counter == Counter::TwoStep);
        const std::vector<Episode> many(256, episodes.front());
        const auto counted = mining::count_episodes(trains, many, options);
        CHECK(counted.counter == Counter::Prefix);
        CHECK(counted.counts == std::vector<std::uint64_t>(256, 1));
        mining::EpisodeCounter counter(trains, options);
        CHECK(counter.count(episodes, 1).counter == Counter::Prefix);
        CHECK(result.backend == Backend::Cpu);
        CHECK(result.counts == std::vector<std::uint64_t>{1});
        CHECK(mining::count_episodes(trains, std::vector<Episode>{}, options).counts.empty());
    }
    SECTION("counter names round-trip") {
        for (const Counter counter : {Counter::Auto, Counter::Fsm, Counter::TwoStep, Counter::CountScanWrite,
                                      Counter::AtomicCompact, Counter::Prefix, Counter::GpuFsm}) {
            CHECK(mining::parse_counter(mining::counter_name(counter)) == counter);
        }
        CHECK(mining::counter_name(Counter::CountScanWrite) == "csw");
        REQUIRE_THROWS_AS(mining::parse_counter("gpu"), UsageError);
        REQUIRE_THROWS_WITH(mining::parse_counter("gpu"), test::contains("unknown counter 'gpu'"));
    }
}

TEST_CASE("the prefix counter reports its extensions and stops at a Cancel", "[mining][counters][progress]") {
    const SpikeTrains trains = test::random_stream(5, 8, 4000, 4000);
    test::Rng rng(5);
    std::vector<Episode> episodes;
    for (int i = 0; i < 300; ++i) episodes.push_back(test::random_episode(rng, 8, 2));
    std::vector<std::pair<std::uint64_t, std::uint64_t>> reports;
    CancelToken cancel;
    Progress progress([&](const std::string&, std::uint64_t done, std::uint64_t total) { reports.emplace_back(done, total); },
                      &cancel);
    mining::CountOptions options;
    options.backend = Backend::Cpu;
    options.counter = Counter::Prefix;
    options.threads = 2;
    options.progress = &progress;
    std::size_t longer = 0;  // the extensions: episodes of two nodes or more
    for (const Episode& episode : episodes) longer += episode.size() >= 2;
    REQUIRE(longer > 100);
    const auto counted = mining::count_episodes(trains, episodes, options);
    CHECK(counted.counts == test::cpu_counts(trains, episodes, Counter::TwoStep));
    REQUIRE(reports.size() >= 2);
    CHECK(reports.front() == std::pair<std::uint64_t, std::uint64_t>{0, longer});
    CHECK(reports.back() == std::pair<std::uint64_t, std::uint64_t>{longer, longer});

    cancel.request();
    CHECK_THROWS_AS(mining::count_episodes(trains, episodes, options), Cancelled);
}
