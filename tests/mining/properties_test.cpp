// Properties every counter keeps (renumbering, empty streams), hand-made streams with
// hand-computed counts at the interval bounds, bursts, and FSM == two-step on larger
// random streams.
#include "brute_force.hpp"
#include "catch.hpp"
#include "mining_test_helpers.hpp"
#include "random_streams.hpp"

#include "spikeminer/mining/count.hpp"
#include "spikeminer/mining/mine.hpp"

#include <algorithm>
#include <numeric>

using namespace spikeminer;
using mining::Counter;
using mining::Episode;
using mining::Interval;

namespace {

using test::A;
using test::B;
using test::C;

// The brute-force count of `episode`, after checking that FSM, two-step, prefix and
// find_occurrences agree with it (the caller checks it against the hand count).
std::uint64_t count_all_ways(const SpikeTrains& trains, const Episode& episode) {
    const std::uint64_t expected = test::brute_count(trains, episode);
    INFO("episode " << test::describe(episode) << " on " << test::describe(trains) << ", brute force " << expected);
    CHECK(test::cpu_count(trains, episode, Counter::Fsm) == expected);
    CHECK(test::cpu_count(trains, episode, Counter::TwoStep) == expected);
    CHECK(test::cpu_count(trains, episode, Counter::Prefix) == expected);
    CHECK(mining::find_occurrences(trains, episode).size() == expected);
    return expected;
}

Episode pair(NeuronId a, NeuronId b, Tick lo, Tick hi) { return Episode{{a, b}, {Interval{lo, hi}}}; }

// The same spikes with neuron n renamed to permutation[n] (labels follow).
SpikeTrains renumbered(const SpikeTrains& trains, const std::vector<NeuronId>& permutation) {
    std::vector<Spike> spikes;
    for (std::size_t i = 0; i < trains.num_spikes(); ++i) {
        spikes.push_back(Spike{trains.times()[i], permutation[trains.neurons()[i]]});
    }
    NeuronTable table;
    table.labels.resize(trains.num_neurons());
    for (NeuronId n = 0; n < trains.num_neurons(); ++n) table.labels[permutation[n]] = trains.label(n);
    return SpikeTrains::from_spikes(std::move(spikes), std::move(table), trains.time_base());
}

}  // namespace

TEST_CASE("renumbering neurons does not change any count", "[mining][properties]") {
    const auto seed = GENERATE(range(std::uint64_t{1}, std::uint64_t{41}));
    // Crowded: 300 spikes of 5 neurons in 0..150 ticks, many simultaneous.
    const SpikeTrains trains = test::random_stream(seed, 5, 300, 150, seed % 2 == 0);
    test::Rng rng(seed + 77);
    std::vector<NeuronId> permutation(5);
    std::iota(permutation.begin(), permutation.end(), NeuronId{0});
    for (std::size_t i = permutation.size(); i > 1; --i) std::swap(permutation[i - 1], permutation[rng.below(i)]);
    const SpikeTrains renamed = renumbered(trains, permutation);
    REQUIRE(renamed.num_spikes() == trains.num_spikes());

    std::vector<Episode> episodes = test::random_episodes(seed, 5, 40);
    std::vector<Episode> mapped = episodes;
    for (Episode& episode : mapped) {
        for (NeuronId& n : episode.neurons) n = permutation[n];
    }
    for (const Counter counter : {Counter::Fsm, Counter::TwoStep, Counter::Prefix}) {
        const auto before = test::cpu_counts(trains, episodes, counter);
        const auto after = test::cpu_counts(renamed, mapped, counter);
        CAPTURE(seed, mining::counter_name(counter));
        CHECK(before == after);
        CHECK(before == test::cpu_counts(trains, episodes, counter == Counter::Fsm ? Counter::TwoStep : Counter::Fsm));
    }
    for (std::size_t i = 0; i < episodes.size(); ++i) {
        CHECK(mining::find_occurrences(trains, episodes[i]).size() ==
              mining::find_occurrences(renamed, mapped[i]).size());
    }
}

TEST_CASE("empty streams and silent neurons give zero", "[mining][properties]") {
    const SpikeTrains empty = test::make_trains({}, 3);
    const SpikeTrains only_a = test::make_trains({{0, A}, {5, A}, {7, A}}, 3);
    for (const Episode& episode : {Episode{{A}, {}}, Episode{{C}, {}}, pair(A, B, 0, 5), pair(A, A, 0, 10),
                                   Episode{{A, B, C, A}, {Interval{0, 3}, Interval{1, 2}, Interval{0, 9}}}}) {
        INFO(test::describe(episode));
        CHECK(count_all_ways(empty, episode) == 0);
        CHECK(mining::find_occurrences(empty, episode).empty());
        if (episode.neurons != std::vector<NeuronId>{A} && episode.neurons != std::vector<NeuronId>{A, A}) {
            CHECK(count_all_ways(only_a, episode) == 0);
        }
    }
    // A alone: 0, 5, 7 -> 3. A -(0,10]-> A: [0,5] [0,7] [5,7]: all overlap -> 1.
    CHECK(count_all_ways(only_a, Episode{{A}, {}}) == 3);
    CHECK(count_all_ways(only_a, pair(A, A, 0, 10)) == 1);
}

TEST_CASE("a silent neuron is never confused with the neuron after it", "[mining][properties]") {
    // n0 never fires; n1 at 0 and 1. n1 -(0,1]-> n0 has no occurrence: n0 has no spike. -> 0
    const SpikeTrains first_silent = test::make_trains({{0, B}, {1, B}}, 2);
    CHECK(count_all_ways(first_silent, pair(B, A, 0, 1)) == 0);
    CHECK(count_all_ways(first_silent, pair(A, B, 0, 1)) == 0);
    CHECK(count_all_ways(first_silent, pair(B, B, 0, 1)) == 1);  // 0->1 -> 1
    // n1 silent between n0 and n2: n0@0, n2@0, n2@5. n2 -(0,5]-> n1 -> 0; n2 -(0,5]-> n2 -> 1
    const SpikeTrains middle_silent = test::make_trains({{0, A}, {0, C}, {5, C}}, 3);
    CHECK(count_all_ways(middle_silent, pair(C, B, 0, 5)) == 0);
    CHECK(count_all_ways(middle_silent, Episode{{C, B, C}, {Interval{0, 5}, Interval{0, 5}}}) == 0);
    CHECK(count_all_ways(middle_silent, pair(C, C, 0, 5)) == 1);
    CHECK(count_all_ways(middle_silent, pair(A, C, 0, 5)) == 1);
    // Several silent neurons before the one that fires: n3@0, n3@2, n3@4, n3@6.
    const SpikeTrains many_silent = test::make_trains({{0, 3}, {2, 3}, {4, 3}, {6, 3}}, 4);
    for (NeuronId silent = 0; silent < 3; ++silent) {
        CHECK(count_all_ways(many_silent, pair(3, silent, 0, 2)) == 0);
        CHECK(count_all_ways(many_silent, Episode{{3, 3, silent}, {Interval{0, 2}, Interval{0, 2}}}) == 0);
    }
    CHECK(count_all_ways(many_silent, pair(3, 3, 0, 2)) == 2);  // [0,2] [4,6] -> 2
}

TEST_CASE("an episode longer than any occurrence counts zero", "[mining][properties]") {
    // A@0 B@1 C@2: A -(0,1]-> B -(0,1]-> C occurs once; one more node has nothing after C.
    const SpikeTrains trains = test::make_trains({{0, A}, {1, B}, {2, C}}, 3);
    CHECK(count_all_ways(trains, Episode{{A, B, C}, {Interval{0, 1}, Interval{0, 1}}}) == 1);
    CHECK(count_all_ways(trains, Episode{{A, B, C, A}, {Interval{0, 1}, Interval{0, 1}, Interval{0, 1}}}) == 0);
    CHECK(count_all_ways(trains, Episode{{A, B, C, C}, {Interval{0, 1}, Interval{0, 1}, Interval{0, 5}}}) == 0);
    // Four nodes over three spikes never occur, whatever the neurons and intervals.
    test::Rng rng(9);
    for (int i = 0; i < 50; ++i) {
        Episode episode = test::random_episode(rng, 3, 4);
        while (episode.size() < 4) {
            episode.neurons.push_back(static_cast<NeuronId>(rng.below(3)));
            episode.gaps.push_back(Interval{0, 3});
        }
        CHECK(count_all_ways(trains, episode) == 0);
    }
}

TEST_CASE("a gap equal to lo is excluded and a gap equal to hi is included", "[mining][properties]") {
    // A@0 B@2 A@10 B@15 A@20 B@23: the A->B gaps are 2, 5 and 3 (and 13 from A@10 to B@23).
    const SpikeTrains trains = test::make_trains({{0, A}, {2, B}, {10, A}, {15, B}, {20, A}, {23, B}}, 2);
    // (2,5]: 0->2 has gap 2 = lo, out; 10->15 gap 5 = hi, in; 20->23 gap 3, in. -> 2
    CHECK(count_all_ways(trains, pair(A, B, 2, 5)) == 2);
    // (1,2]: only 0->2 (gap 2 = hi). -> 1
    CHECK(count_all_ways(trains, pair(A, B, 1, 2)) == 1);
    // (5,13]: 10->15 (gap 5 = lo) out; 10->23 (gap 13 = hi) in; 0->15 (15) out. -> 1
    CHECK(count_all_ways(trains, pair(A, B, 5, 13)) == 1);
    // (0,2]: 0->2 only. -> 1
    CHECK(count_all_ways(trains, pair(A, B, 0, 2)) == 1);
    // (3,4]: no gap of 4. -> 0
    CHECK(count_all_ways(trains, pair(A, B, 3, 4)) == 0);
    // (0,5]: 0->2, 10->15, 20->23 -> 3. The touching (5,10]: the A->B gaps are 2, 15, 5,
    // 13, 3 (and 23, 21 backwards), none in (5,10]. -> 0
    CHECK(count_all_ways(trains, pair(A, B, 0, 5)) == 3);
    CHECK(count_all_ways(trains, pair(A, B, 5, 10)) == 0);
    // B -(5,10]-> A: 2->10 (8) in, 15->20 (5) out, 2->20 (18) out. -> 1; B -(4,5]-> A: 15->20. -> 1
    CHECK(count_all_ways(trains, pair(B, A, 5, 10)) == 1);
    CHECK(count_all_ways(trains, pair(B, A, 4, 5)) == 1);
    // A -(2,5]-> B -(4,5]-> A: 10->15->20. -> 1; A -(2,5]-> B -(5,8]-> A: 20 - 15 = 5 out -> 0
    CHECK(count_all_ways(trains, Episode{{A, B, A}, {Interval{2, 5}, Interval{4, 5}}}) == 1);
    CHECK(count_all_ways(trains, Episode{{A, B, A}, {Interval{2, 5}, Interval{5, 8}}}) == 0);
}

TEST_CASE("lo = 0 excludes simultaneous spikes", "[mining][properties]") {
    // A@0 B@0 A@5 B@6.
    const SpikeTrains trains = test::make_trains({{0, A}, {0, B}, {5, A}, {6, B}}, 2);
    // A -(0,1]-> B: 0->0 has gap 0, out; 5->6 in. -> 1
    CHECK(count_all_ways(trains, pair(A, B, 0, 1)) == 1);
    // B -(0,5]-> A: 0->5 (gap 5 = hi) in. -> 1; B -(0,4]-> A: none. -> 0
    CHECK(count_all_ways(trains, pair(B, A, 0, 5)) == 1);
    CHECK(count_all_ways(trains, pair(B, A, 0, 4)) == 0);
    // A -(0,6]-> B: [0,6] and [5,6] overlap. -> 1
    CHECK(count_all_ways(trains, pair(A, B, 0, 6)) == 1);
    // A -(0,5]-> A: 0->5. -> 1; each neuron alone: times 0, 5 and 0, 6. -> 2 each
    CHECK(count_all_ways(trains, pair(A, A, 0, 5)) == 1);
    CHECK(count_all_ways(trains, Episode{{A}, {}}) == 2);
    CHECK(count_all_ways(trains, Episode{{B}, {}}) == 2);
    // A -(0,1]-> B -(0,1]-> A never: after B@0 comes nothing at 1; after B@6 nothing. -> 0
    CHECK(count_all_ways(trains, Episode{{A, B, A}, {Interval{0, 1}, Interval{0, 1}}}) == 0);
}

TEST_CASE("after an occurrence ends at t the next starts after t", "[mining][properties]") {
    SECTION("A->B sharing the time 5") {
        // A@0 B@5 A@5 B@10: [0,5] and [5,10] overlap at 5 (A@0->B@10 is 10 away). -> 1
        const SpikeTrains trains = test::make_trains({{0, A}, {5, B}, {5, A}, {10, B}}, 2);
        CHECK(count_all_ways(trains, pair(A, B, 0, 5)) == 1);
        // (0,10]: [0,5] [0,10] [5,10]: pairwise overlapping. -> 1
        CHECK(count_all_ways(trains, pair(A, B, 0, 10)) == 1);
        // B alone: 5, 10 -> 2
        CHECK(count_all_ways(trains, Episode{{B}, {}}) == 2);
    }
    SECTION("A->A chains") {
        // A@0,1,2 with (0,1]: [0,1] [1,2] share 1. -> 1
        CHECK(count_all_ways(test::make_trains({{0, A}, {1, A}, {2, A}}, 1), pair(A, A, 0, 1)) == 1);
        // A@0,1,2,3: [0,1] and [2,3]. -> 2
        CHECK(count_all_ways(test::make_trains({{0, A}, {1, A}, {2, A}, {3, A}}, 1), pair(A, A, 0, 1)) == 2);
        // A@0..5, A -(0,1]-> A -(0,1]-> A: [0,2] and [3,5]. -> 2
        std::vector<Spike> six;
        for (Tick t = 0; t < 6; ++t) six.push_back(Spike{t, A});
        CHECK(count_all_ways(test::make_trains(six, 1), Episode{{A, A, A}, {Interval{0, 1}, Interval{0, 1}}}) == 2);
    }
    SECTION("a one-node episode counts distinct spike times") {
        // A@0,0,1,1,1,5 (duplicates kept) -> times 0, 1, 5 -> 3
        const SpikeTrains trains = test::make_trains({{0, A}, {0, A}, {1, A}, {1, A}, {1, A}, {5, A}}, 1);
        REQUIRE(trains.num_spikes() == 6);
        CHECK(count_all_ways(trains, Episode{{A}, {}}) == 3);
        // With duplicates, A -(0,1]-> A: [0,1] (several), [1,?] nothing at 2. -> 1
        CHECK(count_all_ways(trains, pair(A, A, 0, 1)) == 1);
    }
    SECTION("simultaneous spikes of different neurons at the end") {
        // A@0 B@3 C@3 A@3 B@6 C@6: A -(0,3]-> B has [0,3] and [3,6], which share the time
        // 3 (the second does not start after the first ends). -> 1
        const SpikeTrains trains = test::make_trains({{0, A}, {3, B}, {3, C}, {3, A}, {6, B}, {6, C}}, 3);
        CHECK(count_all_ways(trains, pair(A, B, 0, 3)) == 1);
        // B -(2,3]-> C: 3->6 for B and C at 3 and 6: [3,6]. -> 1
        CHECK(count_all_ways(trains, pair(B, C, 2, 3)) == 1);
        // C -(0,3]-> A: none (C@3->A@3 is 0, nothing after). -> 0; A -(0,3]-> C: [0,3] [3,6] -> 1
        CHECK(count_all_ways(trains, pair(C, A, 0, 3)) == 0);
        CHECK(count_all_ways(trains, pair(A, C, 0, 3)) == 1);
    }
}

TEST_CASE("bursts: many spikes within one window", "[mining][properties]") {
    SECTION("many B within (lo, hi] of one A") {
        // A@0, B@1..10: every B is 1..10 after A; all occurrences start at 0. -> 1
        std::vector<Spike> spikes{{0, A}};
        for (Tick t = 1; t <= 10; ++t) spikes.push_back(Spike{t, B});
        CHECK(count_all_ways(test::make_trains(spikes, 2), pair(A, B, 0, 10)) == 1);
        // B alone: 10 distinct times -> 10; B -(0,1]-> B: [1,2] [3,4] ... [9,10] -> 5
        const SpikeTrains trains = test::make_trains(spikes, 2);
        CHECK(count_all_ways(trains, Episode{{B}, {}}) == 10);
        CHECK(count_all_ways(trains, pair(B, B, 0, 1)) == 5);
    }
    SECTION("two A, a long B burst") {
        // A@0 A@20, B@1..30. (0,10]: 0->1..10 and 20->21..30 -> 2.
        std::vector<Spike> spikes{{0, A}, {20, A}};
        for (Tick t = 1; t <= 30; ++t) spikes.push_back(Spike{t, B});
        const SpikeTrains trains = test::make_trains(spikes, 2);
        CHECK(count_all_ways(trains, pair(A, B, 0, 10)) == 2);
        // (0,25]: greedy [0,1] then [20,21] -> 2. (19,25]: 0->20..25 and 20->? (gap > 19: none) -> 1
        CHECK(count_all_ways(trains, pair(A, B, 0, 25)) == 2);
        CHECK(count_all_ways(trains, pair(A, B, 19, 25)) == 1);
        // (9,10]: 0->10 and 20->30 -> 2
        CHECK(count_all_ways(trains, pair(A, B, 9, 10)) == 2);
    }
    SECTION("a burst in the middle of a three-node episode") {
        // A@0 A@3 B@4 B@5 C@8, A -(0,5]-> B -(0,5]-> C: all end at C@8 -> 1.
        const SpikeTrains trains = test::make_trains({{0, A}, {3, A}, {4, B}, {5, B}, {8, C}}, 3);
        CHECK(count_all_ways(trains, Episode{{A, B, C}, {Interval{0, 5}, Interval{0, 5}}}) == 1);
        // With (3,5] first: only A@0 -> B@4 / B@5 (gaps 4, 5), then -> C@8 (4, 3) -> 1
        CHECK(count_all_ways(trains, Episode{{A, B, C}, {Interval{3, 5}, Interval{0, 5}}}) == 1);
        // (0,3] then (3,4]: A@3->B@4->C@8 (1, 4), A@3->B@5->C@8 (3 is not in (3,4]) -> 1
        CHECK(count_all_ways(trains, Episode{{A, B, C}, {Interval{0, 3}, Interval{3, 4}}}) == 1);
        // (0,1] then (2,3]: A@3->B@4 (1) -> C@8 (4, out); no other. -> 0
        CHECK(count_all_ways(trains, Episode{{A, B, C}, {Interval{0, 1}, Interval{2, 3}}}) == 0);
    }
    SECTION("a burst of A where the latest start matters") {
        // A@0..9, B@10, A@11, B@12: A -(0,10]-> B: ends at 10 (starts 0..9), at 12 (starts
        // 2..9 and 11). Greedy: [9,10], then [11,12]. -> 2
        std::vector<Spike> spikes;
        for (Tick t = 0; t <= 9; ++t) spikes.push_back(Spike{t, A});
        spikes.insert(spikes.end(), {{10, B}, {11, A}, {12, B}});
        CHECK(count_all_ways(test::make_trains(spikes, 2), pair(A, B, 0, 10)) == 2);
    }
}

TEST_CASE("FSM, two-step and prefix agree on larger random streams", "[mining][properties][large]") {
    const auto seed = GENERATE(range(std::uint64_t{1}, std::uint64_t{7}));
    // 4,000 spikes of 8 neurons in 0..4,000 ticks (bursty every other seed).
    const SpikeTrains trains = test::random_stream(seed, 8, 4000, 4000, seed % 2 == 0);
    test::Rng rng(seed * 31);
    std::vector<Episode> episodes;
    for (int i = 0; i < 150; ++i) {
        Episode episode = test::random_episode(rng, 8, 5);
        for (Interval& gap : episode.gaps) {  // wider windows: more partial occurrences
            gap.lo *= 4;
            gap.hi *= 4;
        }
        episodes.push_back(std::move(episode));
    }
    const auto fsm = test::cpu_counts(trains, episodes, Counter::Fsm);
    const auto two_step = test::cpu_counts(trains, episodes, Counter::TwoStep);
    const auto prefix = test::cpu_counts(trains, episodes, Counter::Prefix);
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < episodes.size(); ++i) {
        INFO("seed " << seed << ", episode " << test::describe(episodes[i]));
        CHECK(fsm[i] == two_step[i]);
        CHECK(prefix[i] == two_step[i]);
        total += fsm[i];
    }
    CHECK(total > 1000);  // the episodes occur: the comparison is not all zeros
    // find_occurrences agrees on a few.
    for (std::size_t i = 0; i < 10; ++i) CHECK(mining::find_occurrences(trains, episodes[i]).size() == fsm[i]);
}

TEST_CASE("counts at both ends of the time range equal those of the same stream near zero", "[mining][properties]") {
    const auto seed = GENERATE(range(std::uint64_t{1}, std::uint64_t{4}));
    const SpikeTrains near_zero = test::random_stream(seed, 6, 800, 2000, true);
    // The same spikes moved to end at the last tick a recording may hold, and to start at
    // the first: differences and interval ends must not wrap.
    const SpikeTrains late = test::shifted(near_zero, kMaxRecordingTick - near_zero.span().end + 1);
    const SpikeTrains early = test::shifted(near_zero, -kMaxRecordingTick - near_zero.span().start);
    REQUIRE(late.times().back() == kMaxRecordingTick);
    REQUIRE(early.times().front() == -kMaxRecordingTick);
    test::Rng rng(seed * 7);
    std::vector<Episode> episodes;
    for (int i = 0; i < 60; ++i) episodes.push_back(test::random_episode(rng, 6, 4));
    // The widest bound an interval may have (2^62 ticks) beside the spikes.
    episodes.push_back(pair(0, 1, 0, Tick{1} << 62));
    episodes.push_back(pair(1, 0, Tick{1} << 61, Tick{1} << 62));
    std::uint64_t total = 0;
    for (const Counter counter : {Counter::Fsm, Counter::TwoStep, Counter::Prefix}) {
        const auto expected = test::cpu_counts(near_zero, episodes, counter);
        CHECK(test::cpu_counts(late, episodes, counter) == expected);
        CHECK(test::cpu_counts(early, episodes, counter) == expected);
        for (const auto count : expected) total += count;
    }
    CHECK(total > 100);
}

TEST_CASE("prefix: all extensions of a prefix at once (the stream's window) equal each alone (a merge)",
          "[mining][properties][prefix]") {
    const auto seed = GENERATE(range(std::uint64_t{1}, std::uint64_t{5}));
    // 4,000 spikes of 8 neurons in 4,000 ticks: about 12 spikes within 12 ticks. With 24
    // extensions a prefix is extended through the window; alone, through a merge.
    const SpikeTrains trains = test::random_stream(seed, 8, 4000, 4000, seed % 2 == 0);
    const std::vector<Interval> gaps{{0, 4}, {4, 8}, {8, 12}};
    std::vector<Episode> together;
    for (const Episode& prefix : {Episode{{0}, {}}, Episode{{3, 3}, {Interval{0, 4}}}, Episode{{5, 1, 2}, {Interval{4, 8}, Interval{0, 4}}}}) {
        for (NeuronId n = 0; n < 8; ++n) {
            for (const Interval& gap : gaps) {
                Episode episode = prefix;
                episode.neurons.push_back(n);
                episode.gaps.push_back(gap);
                together.push_back(episode);
            }
        }
    }
    const auto expected = test::cpu_counts(trains, together, Counter::TwoStep);
    const auto at_once = test::cpu_counts(trains, together, Counter::Prefix);
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < together.size(); ++i) {
        INFO("seed " << seed << ", episode " << test::describe(together[i]));
        CHECK(at_once[i] == expected[i]);
        CHECK(test::cpu_count(trains, together[i], Counter::Prefix) == expected[i]);
        total += expected[i];
    }
    CHECK(total > 1000);  // the episodes occur
}

TEST_CASE("prefix mining equals two-step mining on a long stream (blocks of the stream, kept lists extended again)",
          "[mining][properties][prefix]") {
    const auto seed = GENERATE(range(std::uint64_t{1}, std::uint64_t{3}));
    // 40,000 spikes: the CPU walks its prefixes through several blocks of the stream, and
    // the lists it keeps at one level are extended at the next.
    const SpikeTrains trains = test::random_stream(seed, 8, 40'000, 40'000, seed % 2 == 0);
    mining::MiningOptions options;
    options.intervals = {{0, 4}, {4, 8}, {8, 12}};
    options.min_counts = {1000};
    options.max_level = 4;
    options.count.backend = Backend::Cpu;
    const auto mined = [&](Counter counter) {
        options.count.counter = counter;
        std::vector<std::pair<std::string, std::uint64_t>> found;
        const mining::MiningResult result = mining::mine(trains, options);
        for (const auto& f : result.episodes) found.emplace_back(test::describe(f.episode), f.count);
        std::sort(found.begin(), found.end());
        return std::make_pair(found, result.levels.size());
    };
    const auto [with_prefix, levels] = mined(Counter::Prefix);
    const auto [with_two_step, levels_two_step] = mined(Counter::TwoStep);
    CAPTURE(seed);
    CHECK(levels >= 3);  // episodes of three neurons were candidates
    CHECK(levels == levels_two_step);
    CHECK(with_prefix == with_two_step);
}
