// The co-firing engine against the definition (brute_cofiring.cpp) on random small
// recordings: the counts of every test in every window, the expected counts, the p-values
// and what Benjamini-Hochberg or Bonferroni accepts; the same on any number of threads;
// windows as sums of bins; the surrogate edge test (its counts are the engine's; chance
// edges on independent neurons fall, an embedded assembly's stay); and the options it
// refuses.
#include "catch.hpp"

#include "cofiring_layout.hpp"

#include "brute_cofiring.hpp"
#include "cofiring_inputs.hpp"
#include "random_streams.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/mining/cofiring.hpp"
#include "spikeminer/mining/significance.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <span>
#include <tuple>

using namespace spikeminer;
using mining::CofiringEdge;
using mining::CofiringLags;
using mining::CofiringOptions;
using mining::CofiringWindow;
using mining::CofiringWindows;
using mining::Interval;

namespace {

// Checks every window against the definition; returns the edges seen.
std::size_t check_windows(const SpikeTrains& trains, const CofiringOptions& options, unsigned seed) {
    CofiringWindows windows(trains, options);
    CofiringWindow window;
    std::size_t seen = 0;
    std::size_t edges = 0;
    while (windows.next(window)) {
        INFO("seed " << seed << ", window " << window.index << " [" << window.span.start << ", " << window.span.end << ")");
        const std::vector<CofiringEdge> expected = test::brute_edges(trains, options.lags, options.test, window.span);
        CHECK(test::edge_mismatch(window.edges, expected).empty());
        ++seen;
        edges += window.edges.size();
    }
    CHECK(seen == windows.size());
    return edges;
}

CofiringOptions cpu_options() {
    CofiringOptions options;
    options.backend = Backend::Cpu;
    return options;
}

}  // namespace

TEST_CASE("co-firing counts every pair's occurrences in every window, as the definition does", "[mining][cofiring]") {
    for (unsigned seed = 1; seed <= 60; ++seed) {
        test::SmallCase c = test::small_case(seed, 120);
        c.options.backend = Backend::Cpu;
        c.options.test.q = 1;  // every test with a count: the counts themselves
        c.options.threads = 1 + seed % 3;
        check_windows(c.trains, c.options, seed);
    }
}

TEST_CASE("co-firing edges are those Benjamini-Hochberg or Bonferroni accept over all of a window's tests", "[mining][cofiring]") {
    std::size_t accepted = 0;
    for (unsigned seed = 100; seed < 160; ++seed) {
        test::Rng rng(seed);
        auto [trains, options, grid] = test::random_case(rng, 8, 50, 400, 2000, Backend::Cpu);
        options.test.q = rng.chance(50) ? 0.05 : 0.3;
        options.test.correction = rng.chance(70) ? mining::Correction::BenjaminiHochberg : mining::Correction::Bonferroni;
        options.test.chance = rng.chance(70) ? mining::Chance::Baseline : mining::Chance::Independent;
        if (rng.chance(30)) {
            options.test.min_count = static_cast<std::uint64_t>(rng.between(1, 6));
            options.test.min_ratio = static_cast<double>(rng.between(0, 3));
            options.test.min_z = static_cast<double>(rng.between(-1, 3));
        }
        if (rng.chance(50)) {
            options.step = rng.between(100, 500) * grid;
            options.window = options.step * rng.between(1, 3);
        }
        accepted += check_windows(trains, options, seed);
    }
    CHECK(accepted > 100);  // the planted pairs pass, so the comparison is not of empty sets
}

TEST_CASE("co-firing windows are the same on one thread and on several", "[mining][cofiring]") {
    test::Rng rng(7);
    const SpikeTrains trains = test::grid_recording(rng, 40, 20'000, 100'000, 1);
    CofiringOptions options = cpu_options();
    options.lags = mining::parse_lags("2", "0-2,2-5", "20-40", TimeBase{1'000'000}, "us");
    options.step = 10'000;
    options.window = 30'000;
    options.test.q = 0.05;
    const auto all = [&](unsigned threads) {
        options.threads = threads;
        CofiringWindows windows(trains, options);
        std::vector<CofiringWindow> out;
        CofiringWindow window;
        while (windows.next(window)) out.push_back(window);
        return out;
    };
    const auto one = all(1);
    const auto three = all(3);
    REQUIRE(one.size() == three.size());
    std::size_t edges = 0;
    for (std::size_t w = 0; w < one.size(); ++w) {
        CHECK(one[w].edges == three[w].edges);
        CHECK(one[w].tests == three[w].tests);
        edges += one[w].edges.size();
    }
    CHECK(edges > 0);
}

TEST_CASE("co-firing of more neurons than a tile of pairs, windows taken out of order, as the definition", "[mining][cofiring]") {
    // The CPU reads its candidates in tiles of 64 x 64 neurons; its ring of steps keeps a
    // step until one takes its slot or the window leaves it, and the spikes of each neuron
    // in a window are found again, whatever order the windows come in.
    test::Rng rng(29);
    const SpikeTrains trains = test::grid_recording(rng, 150, 6000, 20'000, 1);
    CofiringOptions options = cpu_options();
    options.lags = mining::parse_lags("2", "0-3", "10-20", TimeBase{1'000'000}, "us");
    options.test.q = 1;  // every test with a count: the counts themselves
    options.step = 1000;
    options.window = 3000;
    options.threads = 2;
    CofiringWindows windows(trains, options);
    REQUIRE(windows.size() > 10);
    const std::size_t last = windows.size() - 1;
    std::size_t edges = 0;
    for (const std::size_t w : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{5}, std::size_t{6}, std::size_t{3},
                                std::size_t{4}, last, last - 2, std::size_t{7}}) {
        windows.skip_to(w);
        CofiringWindow window;
        REQUIRE(windows.next(window));
        INFO("window " << w);
        REQUIRE(window.index == w);
        const std::vector<CofiringEdge> expected = test::brute_edges(trains, options.lags, options.test, window.span);
        CHECK(test::edge_mismatch(window.edges, expected).empty());
        edges += window.edges.size();
    }
    CHECK(edges > 100);
}

TEST_CASE("a window's counts are the sums of its steps' counts", "[mining][cofiring]") {
    test::Rng rng(11);
    const SpikeTrains trains = test::grid_recording(rng, 6, 3000, 20'000, 1);
    CofiringOptions options = cpu_options();
    options.lags = mining::parse_lags("1", "0-3", "10-20", TimeBase{1'000'000}, "us");
    options.test.q = 1;
    options.step = 1000;
    options.window = 4000;
    CofiringWindows windows(trains, options);
    options.window = 1000;  // single steps
    CofiringWindows steps(trains, options);
    std::vector<CofiringWindow> by_step;
    CofiringWindow window;
    while (steps.next(window)) {
        // Every neuron fires in every step, so every pair is tested in every step.
        REQUIRE(window.tests == 6 * 5 / 2 * 3);
        by_step.push_back(window);
    }
    REQUIRE(windows.size() + 3 == by_step.size());
    while (windows.next(window)) {
        std::map<std::tuple<NeuronId, NeuronId, int>, std::uint64_t> summed;
        for (std::size_t s = window.index; s < window.index + 4; ++s) {
            for (const CofiringEdge& e : by_step[s].edges) summed[{e.a, e.b, e.interval}] += e.count;
        }
        std::map<std::tuple<NeuronId, NeuronId, int>, std::uint64_t> counted;
        for (const CofiringEdge& e : window.edges) counted[{e.a, e.b, e.interval}] = e.count;
        CHECK(counted == summed);
        CHECK(!counted.empty());
    }
}

TEST_CASE("the whole recording's window from the steps the windows counted equals its own count", "[mining][cofiring]") {
    std::size_t edges = 0;
    for (unsigned seed = 200; seed < 230; ++seed) {
        test::Rng rng(seed);
        auto [trains, options, grid] = test::random_case(rng, 90, 200, 3000, 20'000, Backend::Cpu);
        options.test.q = rng.chance(50) ? 0.05 : 0.5;
        options.test.chance = rng.chance(70) ? mining::Chance::Baseline : mining::Chance::Independent;
        options.step = rng.between(300, 2000) * grid;
        options.window = options.step * rng.between(1, 5);
        options.threads = 1 + seed % 3;
        INFO("seed " << seed << ", window " << options.window << ", step " << options.step);
        const CofiringWindow expected = mining::cofiring_whole_recording(trains, options);
        CofiringWindows windows(trains, options);
        if (windows.size() == 1) {
            CHECK_FALSE(windows.keep_whole_recording());  // the one window is the whole recording
            continue;
        }
        REQUIRE(windows.keep_whole_recording());
        CHECK_FALSE(windows.whole_recording_share().has_value());  // the CPU sums the steps itself: no share
        CofiringWindow window;
        CHECK_FALSE(windows.whole_recording(window));  // nothing counted yet
        while (windows.next(window)) {}
        CofiringWindow whole;
        REQUIRE(windows.whole_recording(whole));
        CHECK(whole.span.start == expected.span.start);
        CHECK(whole.span.end == expected.span.end);
        CHECK(whole.tests == expected.tests);
        CHECK(test::edge_mismatch(whole.edges, expected.edges).empty());
        CHECK(whole.edges.size() == expected.edges.size());
        edges += whole.edges.size();
    }
    CHECK(edges > 50);  // the planted pairs pass, so the comparison is not of empty sets
}

TEST_CASE("the windows' shares of the whole recording hold every bin once, whatever the layout", "[mining][cofiring]") {
    for (std::size_t per = 1; per <= 9; ++per) {
        for (std::size_t windows = 2; windows <= 60; ++windows) {
            // Every window of per bins, and (a recording shorter than its last windows) clipped.
            for (std::size_t bins = windows; bins <= windows - 1 + per; ++bins) {
                mining::detail::BinLayout layout;
                layout.per_window = per;
                layout.windows = windows;
                layout.bins = bins;
                std::vector<int> added(bins, 0);
                for (std::size_t w = 0; w < windows; ++w) {
                    const mining::detail::ShareOfWindow part = mining::detail::share_of_window(layout, w);
                    if (part.window) {
                        for (std::size_t b = w; b < layout.last_bin(w); ++b) ++added[b];
                    }
                    REQUIRE(part.tail_first <= part.tail_last);
                    for (std::size_t b = part.tail_first; b < part.tail_last; ++b) {
                        CHECK((b >= w && b < layout.last_bin(w)));  // a bin the window holds
                        ++added[b];
                    }
                }
                INFO(per << " bins a window, " << windows << " windows, " << bins << " bins");
                CHECK(std::all_of(added.begin(), added.end(), [](int k) { return k == 1; }));
            }
        }
    }
}

TEST_CASE("the whole recording's window is not made from windows that skipped steps", "[mining][cofiring]") {
    test::Rng rng(31);
    const SpikeTrains trains = test::grid_recording(rng, 10, 2000, 20'000, 1);
    CofiringOptions options = cpu_options();
    options.lags = mining::parse_lags("2", "0-3", "10-20", TimeBase{1'000'000}, "us");
    options.step = 1000;
    options.window = 3000;
    CofiringWindows windows(trains, options);
    REQUIRE(windows.keep_whole_recording());
    CofiringWindow window;
    REQUIRE(windows.next(window));
    windows.skip_to(windows.size() - 1);  // steps 3 to the last window's first are never counted
    REQUIRE(windows.next(window));
    CHECK_FALSE(windows.whole_recording(window));
    CofiringWindows late(trains, options);
    REQUIRE(late.next(window));
    CHECK_FALSE(late.keep_whole_recording());  // asked after the counting began
}

TEST_CASE("a pair far beyond chance, whose p-value is below the smallest double, is an edge", "[mining][cofiring]") {
    // Neuron 1 fires 1 ms after each of neuron 0's 8,000 spikes (40 Hz, 1 ms grid); 2 fires
    // alone. The pair's baseline count is far past the tables (computed p-values), and its
    // synchrony count is so far above it that p underflows to 0.
    test::Rng rng(2);
    std::vector<Spike> spikes;
    for (int k = 0; k < 8'000; ++k) {
        const Tick t = rng.between(0, 200'000) * 1'000;
        spikes.push_back({t, 0});
        spikes.push_back({t + 1'000, 1});
        spikes.push_back({rng.between(0, 200'000) * 1'000, 2});
    }
    const SpikeTrains trains = test::make_trains(std::move(spikes), 3, TimeBase{1'000'000});
    CofiringOptions options = cpu_options();
    options.lags = mining::parse_lags("2", "", "20-40", TimeBase{1'000'000});
    const CofiringWindow window = mining::cofiring_whole_recording(trains, options);
    REQUIRE(window.edges.size() == 1);
    CHECK(window.edges[0].a == 0);
    CHECK(window.edges[0].b == 1);
    CHECK(window.edges[0].count >= 8'000);
    CHECK(window.edges[0].p < 1e-300);
    CHECK(window.edges[0].expected > 100);  // a baseline count past the tables
}

TEST_CASE("baseline counts on both sides of the tables' end give the definition's edges", "[mining][cofiring]") {
    // Bursts of two neurons, 60-160 spikes each within 40 ms: pairs with 1,000-9,000
    // baseline occurrences, looked up below 4,096 and computed above.
    for (unsigned seed = 1; seed <= 4; ++seed) {
        test::Rng rng(seed);
        std::vector<Spike> spikes;
        for (int burst = 0; burst < 4; ++burst) {
            const Tick start = burst * 1'000'000;
            const auto a = static_cast<NeuronId>(2 * burst);
            for (std::int64_t k = rng.between(60, 160); k-- > 0;) {
                const Tick t = start + rng.between(0, 40'000);
                spikes.push_back({t, a});
                spikes.push_back({rng.chance(40) ? t + rng.between(0, 1'500) : start + rng.between(0, 40'000), a + 1});
            }
        }
        const SpikeTrains trains = test::make_trains(std::move(spikes), 8, TimeBase{1'000'000});
        CofiringOptions options = cpu_options();
        options.lags = mining::parse_lags("2", "0-2", "20-40", TimeBase{1'000'000});
        options.test.q = 0.05;
        const CofiringWindow window = mining::cofiring_whole_recording(trains, options);
        INFO("seed " << seed);
        CHECK(test::edge_mismatch(window.edges, test::brute_edges(trains, options.lags, options.test, window.span)).empty());
        CHECK(!window.edges.empty());
    }
}

TEST_CASE("a bin whose counts could pass 32 bits is counted in pieces, or refused when it must be kept", "[mining][cofiring]") {
    // 100,000 spikes within the baseline's reach of each other: an end spike could close
    // 100,000 occurrences, so 100,000 ends could pass 2^32. The lags counted are narrow, so
    // the work is small.
    test::Rng rng(8);
    std::vector<Spike> spikes;
    for (int k = 0; k < 100'000; ++k) spikes.push_back({rng.between(0, 999'999), static_cast<NeuronId>(rng.below(3))});
    const SpikeTrains trains = test::make_trains(std::move(spikes), 3, TimeBase{1'000'000});
    CofiringOptions options = cpu_options();
    options.lags = mining::parse_lags("1", "", "999998-1000000", TimeBase{1'000'000}, "us");
    options.test.q = 1;
    const CofiringWindow whole = mining::cofiring_whole_recording(trains, options);  // in pieces
    options.step = 100'000;
    options.window = 1'000'000;  // one window of ten bins, each below the bound
    CofiringWindows tenths(trains, options);
    CofiringWindow window;
    REQUIRE(tenths.next(window));
    CHECK(whole.edges == window.edges);
    CHECK(!whole.edges.empty());
    options.step = 500'000;
    options.window = 500'000;  // two windows: each bin must be kept, and the second reaches all 100,000 spikes
    CofiringWindows halves(trains, options);
    REQUIRE(halves.next(window));
    CHECK_THROWS_WITH(halves.next(window), spikeminer::test::contains("too many for its counts"));
}

TEST_CASE("a recording shorter than one window is one window, with a note", "[mining][cofiring]") {
    test::Rng rng(3);
    const SpikeTrains trains = test::grid_recording(rng, 4, 200, 1000, 1);
    CofiringOptions options = cpu_options();
    options.lags = mining::parse_lags("1", "", "10-20", TimeBase{1'000'000}, "us");
    options.step = 1'000;
    options.window = 10'000;
    CofiringWindows windows(trains, options);
    CHECK(windows.size() == 1);
    CHECK(windows.note().find("shorter than one window") != std::string::npos);
}

TEST_CASE("co-firing refuses impossible lags, windows and tests", "[mining][cofiring][bad-input]") {
    test::Rng rng(5);
    const SpikeTrains trains = test::grid_recording(rng, 4, 200, 1000, 1);
    const TimeBase us{1'000'000};
    const auto refused = [&](CofiringOptions options, const std::string& words) {
        options.backend = Backend::Cpu;
        REQUIRE_THROWS_AS(CofiringWindows(trains, options), UsageError);
        REQUIRE_THROWS_WITH(CofiringWindows(trains, options), spikeminer::test::contains(words));
    };
    CofiringOptions options = cpu_options();
    options.lags = mining::parse_lags("2", "0-2,2-5", "20-40", us, "us");
    options.window = 10;
    options.step = 3;
    refused(options, "whole number of steps");
    options.window = 3;
    options.step = 10;
    refused(options, "shorter than its step");
    options.window = -10;
    options.step = -10;
    refused(options, "negative");
    options.window = 10;
    options.step = 0;
    refused(options, "both");
    options = cpu_options();
    options.lags = mining::parse_lags("2", "0-5,2-8", "20-40", us, "us");
    refused(options, "overlap");
    options.lags = mining::parse_lags("2", "0-5", "4-40", us, "us");
    refused(options, "beyond the tested lags");
    options.lags = mining::parse_lags("off", "", "20-40", us, "us");
    refused(options, "synchrony or at least one interval");
    options.lags = mining::parse_lags("2", "0-2", "20-40", us, "us");
    options.test.q = 0;
    refused(options, "q");
    CHECK_THROWS_AS(mining::parse_lags("2", "5-5", "20-40", us, "us"), UsageError);
    CHECK_THROWS_AS(mining::parse_lags("2", "0-2", "40-20", us, "us"), UsageError);
    CHECK_THROWS_AS(mining::parse_lags("-1", "0-2", "20-40", us, "us"), UsageError);
    CHECK_THROWS_AS(mining::parse_lags("2", "0-2", "20-30,30-40", us, "us"), UsageError);
}

namespace {

// Surrogates that move no spike of a neuron with two or more: a refractory period as long
// as the recording leaves none of them room.
mining::SignificanceOptions immobile_surrogates(const SpikeTrains& trains) {
    mining::SignificanceOptions surrogates;
    surrogates.surrogate = {mining::SurrogateKind::Dither, 50, trains.span().length(), 3};
    surrogates.surrogates = 20;
    surrogates.enough_exceedances = 3;
    return surrogates;
}

// `neurons` independent Poisson trains at `rate_hz` for `seconds` (1 ms ticks), and, with
// `assembly`, neurons 0-3 also firing together (within 1 ms) at 2 Hz.
SpikeTrains poisson_neurons(std::uint64_t seed, std::size_t neurons, double rate_hz, double seconds, bool assembly) {
    test::Rng rng(seed);
    std::vector<Spike> spikes;
    const auto span = static_cast<Tick>(seconds * 1000);
    for (NeuronId n = 0; n < neurons; ++n) {
        const auto count = static_cast<std::size_t>(rate_hz * seconds);
        for (std::size_t k = 0; k < count; ++k) spikes.push_back({rng.between(0, span - 1), n});
    }
    if (assembly) {
        for (std::size_t k = 0; k < static_cast<std::size_t>(2 * seconds); ++k) {
            const Tick t = rng.between(0, span - 2);
            for (NeuronId n = 0; n < 4; ++n) spikes.push_back({t + rng.between(0, 1), n});
        }
    }
    SpikeTrains trains = test::make_trains(std::move(spikes), neurons);
    trains.set_span(TimeSpan{0, span});
    return trains;
}

}  // namespace

TEST_CASE("the surrogate edge test counts each edge's test as the engine does", "[mining][cofiring][significance]") {
    std::size_t checked = 0;
    for (unsigned seed = 1; seed <= 20; ++seed) {
        test::SmallCase c = test::small_case(seed, 150);
        c.options.backend = Backend::Cpu;
        c.options.test.q = 1;  // every test with a count is screened in, and passes
        CofiringWindows plain(c.trains, c.options);
        c.options.test.surrogates = immobile_surrogates(c.trains);
        CofiringWindows confirmed(c.trains, c.options);
        CofiringWindow a;
        CofiringWindow b;
        while (plain.next(a)) {
            REQUIRE(confirmed.next(b));
            INFO("seed " << seed << ", window " << a.index);
            REQUIRE(b.edges.size() == a.edges.size());
            for (std::size_t i = 0; i < a.edges.size(); ++i) {
                INFO("edge " << a.edges[i].a << " " << a.edges[i].b << " test " << a.edges[i].interval);
                if (c.trains.spike_count(a.edges[i].a) < 2 || c.trains.spike_count(a.edges[i].b) < 2) continue;  // a lone spike moves
                ++checked;
                CHECK(b.edges[i].count == a.edges[i].count);
                CHECK(b.edges[i].expected == static_cast<double>(a.edges[i].count));  // every surrogate counted the same
                CHECK(b.edges[i].p == 1.0);
            }
        }
    }
    CHECK(checked >= 1000);
}

TEST_CASE("surrogate p-values of independent neurons' pairs are about uniform; an assembly's pairs pass", "[mining][cofiring][significance]") {
    CofiringOptions options = cpu_options();
    options.lags = mining::parse_lags("2", "", "20-40", TimeBase{1000});
    options.test.q = 1;  // every pair with a count reaches the surrogates, and is kept with its p-value
    mining::SignificanceOptions surrogates;
    surrogates.surrogate = {mining::SurrogateKind::Dither, 10, 1, 7};
    surrogates.surrogates = 199;
    options.test.surrogates = surrogates;
    const CofiringWindow null = mining::cofiring_whole_recording(poisson_neurons(5, 24, 8, 300, false), options);
    REQUIRE(null.edges.size() == 24 * 23 / 2);  // every pair co-fires by chance within 2 ms in 300 s
    std::size_t below_05 = 0;
    std::size_t below_half = 0;
    for (const CofiringEdge& e : null.edges) {
        below_05 += e.p <= 0.05 ? 1 : 0;
        below_half += e.p <= 0.5 ? 1 : 0;
    }
    // 276 uniform p-values: about 14 (sd 3.6) at or below 0.05 and 138 (sd 8.3) at or below
    // 0.5; the bounds are about four standard deviations (counts are discrete, so p is
    // slightly conservative).
    CHECK(below_05 <= 28);
    CHECK(below_half >= 100);
    CHECK(below_half <= 172);

    options.test.q = 0.05;
    const CofiringWindow found = mining::cofiring_whole_recording(poisson_neurons(6, 24, 8, 300, true), options);
    std::size_t assembly_pairs = 0;
    for (const CofiringEdge& e : found.edges) {
        if (e.a < 4 && e.b < 4) {
            ++assembly_pairs;
            CHECK(e.p <= 2.0 / 200);
        }
    }
    CHECK(assembly_pairs == 6);
    CHECK(found.edges.size() <= 8);
}

TEST_CASE("windows taken in batches equal windows taken one by one, with the surrogate edge test", "[mining][cofiring][significance]") {
    const SpikeTrains trains = poisson_neurons(8, 12, 8, 60, true);
    CofiringOptions options = cpu_options();
    options.lags = mining::parse_lags("2", "0-5", "20-40", TimeBase{1000});
    options.test.q = 0.2;
    options.window = 10'000;
    options.step = 5'000;
    mining::SignificanceOptions surrogates;
    surrogates.surrogate = {mining::SurrogateKind::Dither, 10, 1, 7};
    surrogates.surrogates = 99;
    options.test.surrogates = surrogates;
    std::vector<CofiringWindow> one_by_one;
    {
        CofiringWindows windows(trains, options);
        CofiringWindow window;
        while (windows.next(window)) one_by_one.push_back(window);
    }
    REQUIRE(one_by_one.size() == 11);
    CofiringWindows windows(trains, options);
    std::vector<CofiringWindow> batch(4);
    std::vector<std::size_t> sizes;
    std::size_t w = 0;
    std::size_t edges = 0;
    while (const std::size_t made = windows.next(std::span(batch))) {
        sizes.push_back(made);
        for (std::size_t k = 0; k < made; ++k, ++w) {
            INFO("window " << w);
            CHECK(batch[k].index == w);
            CHECK(batch[k].edges == one_by_one[w].edges);
            edges += batch[k].edges.size();
        }
    }
    CHECK(sizes == std::vector<std::size_t>{4, 4, 3});
    CHECK(edges >= 6);  // the assembly's pairs pass in its windows
}
