// Surrogate significance: the correction against hand-computed values; under a true null
// (independent Poisson neurons) the pairs' p-values are close to uniform and the correction
// keeps almost nothing; an embedded chain's links reach the smallest p-value and survive;
// stopping a candidate after h exceedances decides as the full N surrogates do.
#include "catch.hpp"

#include "spikeminer/core/progress.hpp"
#include "spikeminer/mining/count.hpp"
#include "spikeminer/mining/mine.hpp"
#include "spikeminer/mining/significance.hpp"
#include "spikeminer/simulator/simulate.hpp"

#include <algorithm>
#include <span>
#include <string>
#include <vector>

using namespace spikeminer;
using mining::Episode;
using mining::Interval;

namespace {

// Every ordered pair of distinct neurons at a lag in (0, 5 ms] (ticks of 1 ms... 1 µs).
std::vector<Episode> all_pairs(std::size_t neurons) {
    std::vector<Episode> pairs;
    for (NeuronId a = 0; a < neurons; ++a) {
        for (NeuronId b = 0; b < neurons; ++b) {
            if (a != b) pairs.push_back(Episode{{a, b}, {Interval{0, 5000}}});
        }
    }
    return pairs;
}

std::vector<mining::SurrogateSignificance> significance(const SpikeTrains& trains, const std::vector<Episode>& episodes,
                                                      const mining::SignificanceOptions& options) {
    mining::CountOptions count;
    count.backend = Backend::Cpu;
    const std::vector<std::uint64_t> counts = mining::count_episodes(trains, episodes, count).counts;
    return mining::test_episodes(trains, episodes, counts, options, count);
}

mining::SignificanceOptions dither_options(std::size_t surrogates, std::size_t enough) {
    mining::SignificanceOptions options;
    options.surrogate = {mining::SurrogateKind::Dither, 20'000, 2'000, 17};  // ±20 ms, 2 ms refractory
    options.surrogates = surrogates;
    options.enough_exceedances = enough;
    return options;
}

}  // namespace

TEST_CASE("Benjamini-Hochberg and Bonferroni against hand-computed values", "[significance]") {
    const std::vector<double> p{0.01, 0.04, 0.03, 0.2};
    // BH, m = 4, q = 0.05: only 0.01 <= 0.05 * 1/4; q-values min over j >= k of p_(j) 4 / j.
    const mining::Corrected bh = mining::correct(p, mining::Correction::BenjaminiHochberg, 0.05, 4);
    CHECK(bh.passed == std::vector<bool>{true, false, false, false});
    CHECK(bh.adjusted[0] == Approx(0.04));
    CHECK(bh.adjusted[1] == Approx(0.04 * 4 / 3));
    CHECK(bh.adjusted[2] == Approx(0.04 * 4 / 3));
    CHECK(bh.adjusted[3] == Approx(0.2));
    // At q = 0.1: 0.04 <= 0.1 * 3/4, so the three smallest pass.
    CHECK(mining::correct(p, mining::Correction::BenjaminiHochberg, 0.1, 4).passed == std::vector<bool>{true, true, true, false});
    // Eight tests, four of them not listed: m = 8.
    CHECK(mining::correct(p, mining::Correction::BenjaminiHochberg, 0.1, 8).passed == std::vector<bool>{true, false, false, false});
    const mining::Corrected bonferroni = mining::correct(p, mining::Correction::Bonferroni, 0.05, 4);
    CHECK(bonferroni.passed == std::vector<bool>{true, false, false, false});
    CHECK(bonferroni.adjusted == std::vector<double>{0.04, 0.16, 0.12, 0.8});
}

TEST_CASE("under a true null the pairs' p-values are close to uniform and BH keeps almost nothing", "[significance]") {
    std::size_t low = 0;
    std::size_t tested = 0;
    std::size_t discoveries = 0;
    for (const std::uint64_t seed : {1, 2, 3}) {
        simulator::NetworkConfig config;  // no chains, no links: independent neurons
        config.neurons = 12;
        config.duration_s = 120;
        config.rest_rate_hz = 5;
        config.seed = seed;
        const SpikeTrains trains = simulator::simulate(config).trains;
        const std::vector<Episode> pairs = all_pairs(config.neurons);
        const auto results = significance(trains, pairs, dither_options(99, 10));
        for (const auto& r : results) {
            low += r.p <= 0.2 ? 1 : 0;
            discoveries += r.significant ? 1 : 0;
        }
        tested += results.size();
    }
    // 396 pairs: under uniform p-values, 20 % of them fall at or below 0.2, a binomial
    // standard deviation of 2 %; pairs sharing a neuron are not independent, so the band
    // is wide (about 4 standard deviations each way).
    const double share = static_cast<double>(low) / static_cast<double>(tested);
    CHECK(share > 0.12);
    CHECK(share < 0.28);
    // Under a complete null BH at q = 0.05 finds anything with probability at most 0.05 per
    // seed: one discovery over three seeds is already unlikely.
    CHECK(discoveries <= 1);
}

TEST_CASE("an embedded chain's links reach the smallest p-value and survive the correction", "[significance]") {
    simulator::NetworkConfig config;  // no chains, no links: independent neurons
    config.neurons = 6;
    config.duration_s = 60;
    config.rest_rate_hz = 5;
    config.seed = 4;
    config.chains.push_back(simulator::Chain{{0, 1, 2}, {0.8, 0.8}, {{3, 3}, {3, 3}}, false});  // 3 ms each link
    const SpikeTrains trains = simulator::simulate(config).trains;
    const std::vector<Episode> pairs = all_pairs(config.neurons);
    const std::size_t n = 499;
    const auto stopped = significance(trains, pairs, dither_options(n, 10));
    const auto full = significance(trains, pairs, dither_options(n, n + 1));  // never stops early
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        INFO("pair " << pairs[i].neurons[0] << " -> " << pairs[i].neurons[1] << ": p " << stopped[i].p << " after "
                     << stopped[i].surrogates_used << " surrogates, full p " << full[i].p);
        const bool link = (pairs[i].neurons[0] == 0 && pairs[i].neurons[1] == 1) || (pairs[i].neurons[0] == 1 && pairs[i].neurons[1] == 2);
        if (link) {
            CHECK(stopped[i].p <= 2.0 / (n + 1));
            CHECK(stopped[i].significant);
            CHECK(stopped[i].surrogates_used == n);
            CHECK(static_cast<double>(stopped[i].count) > stopped[i].surrogate_mean + 5 * stopped[i].surrogate_sd);
        }
        // The early stop decides as all N surrogates do, and uses fewer where it can.
        CHECK(stopped[i].significant == full[i].significant);
        CHECK(stopped[i].surrogates_used <= full[i].surrogates_used);
        CHECK(full[i].surrogates_used == n);
    }
    std::size_t used = 0;
    for (const auto& r : stopped) used += r.surrogates_used;
    CHECK(used < pairs.size() * n / 2);  // most candidates stop early
}

TEST_CASE("mining with significance keeps the embedded chain and drops the pairs frequent by chance", "[significance][mine]") {
    simulator::NetworkConfig config;
    config.neurons = 10;
    config.duration_s = 60;
    config.rest_rate_hz = 5;
    config.seed = 5;
    config.chains.push_back(simulator::Chain{{0, 1, 2}, {0.8, 0.8}, {{3, 3}, {3, 3}}, false});
    const SpikeTrains trains = simulator::simulate(config).trains;
    mining::MiningOptions options;
    options.intervals = {Interval{0, 5000}};
    options.min_counts = {5};
    options.max_level = 3;
    options.count.backend = Backend::Cpu;
    const mining::MiningResult plain = mining::mine(trains, options);
    options.significance = dither_options(999, 10);
    const mining::MiningResult tested = mining::mine(trains, options);
    REQUIRE(tested.levels.size() == 3);
    CHECK_FALSE(tested.levels[0].significant.has_value());  // single neurons are not tested
    REQUIRE(tested.levels[1].significant.has_value());
    CHECK(plain.levels[1].frequent > 50);  // at 5 Hz most pairs pass a count of 5 by chance
    std::vector<std::vector<NeuronId>> kept;
    for (const auto& found : tested.episodes) {
        if (found.episode.size() == 1) {
            CHECK_FALSE(found.significance.has_value());
            continue;
        }
        REQUIRE(found.significance.has_value());
        CHECK(found.significance->significant);
        CHECK(found.significance->count == found.count);
        kept.push_back(found.episode.neurons);
    }
    // The chain's links and the whole chain are kept.
    for (const std::vector<NeuronId>& chain : {std::vector<NeuronId>{0, 1}, {1, 2}, {0, 1, 2}}) {
        CHECK(std::find(kept.begin(), kept.end(), chain) != kept.end());
    }
    // Of the 80-odd pairs of two other neurons frequent by chance, almost none. (Pairs of a
    // neuron with itself are another matter: dithering breaks a train's own short
    // intervals, so n -> n within 5 ms is kept wherever the neuron's intervals are not
    // Poisson's; they are not counted here.)
    std::size_t chance = 0;
    for (const auto& neurons : kept) {
        const bool repeats = std::adjacent_find(neurons.begin(), neurons.end()) != neurons.end();
        const bool chain = neurons.size() == 2 && ((neurons[0] == 0 && neurons[1] == 1) || (neurons[0] == 1 && neurons[1] == 2));
        if (neurons.size() == 2 && !repeats && !chain) ++chance;
    }
    CHECK(chance <= 2);
}

TEST_CASE("the sequential test over any counts: exceedances, early stops and the resolution N gives", "[significance]") {
    // Item 0 is never reached by a surrogate; item 1 always is; item 2 in every third one.
    const std::vector<std::uint64_t> observed{50, 2, 10};
    std::vector<std::vector<std::size_t>> asked;
    const auto count_in = [&](std::uint64_t s, std::span<const std::size_t> open) {
        asked.emplace_back(open.begin(), open.end());
        std::vector<std::uint64_t> counts;
        for (const std::size_t i : open) counts.push_back(i == 0 ? 10 : i == 1 ? 5 : (s % 3 == 0 ? 10 : 0));
        return counts;
    };
    mining::SignificanceOptions options;
    options.surrogates = 60;
    options.enough_exceedances = 4;
    options.q = 0.05;
    const auto r = mining::test_against_surrogates(observed, options, count_in);
    REQUIRE(r.size() == 3);
    CHECK(r[0].surrogates_used == 60);
    CHECK(r[0].exceedances == 0);
    CHECK(r[0].p == Approx(1.0 / 61));
    CHECK(r[0].surrogate_mean == 10);
    CHECK(r[0].surrogate_sd == 0);
    CHECK(r[1].surrogates_used == 4);  // stopped at its 4th exceedance
    CHECK(r[1].p == 1.0);
    CHECK(r[2].surrogates_used == 10);  // surrogates 0, 3, 6 and 9 reach 10
    CHECK(r[2].p == Approx(0.4));
    CHECK(r[0].significant);
    CHECK_FALSE(r[1].significant);
    CHECK_FALSE(r[2].significant);
    CHECK(asked[0] == std::vector<std::size_t>{0, 1, 2});
    CHECK(asked[4] == std::vector<std::size_t>{0, 2});
    CHECK(asked[10] == std::vector<std::size_t>{0});

    // 1 / (N + 1) passes BH at q among m items only when m / (q (N + 1)) of them pass.
    mining::SignificanceOptions wide;
    wide.q = 0.05;
    wide.surrogates = 1000;
    CHECK(mining::resolution_note(50, wide).empty());  // 1/1001 <= 0.05/50
    const std::string note = mining::resolution_note(3000, wide);
    CHECK_THAT(note, test::contains("60 or more pass together"));
    CHECK_THAT(note, test::contains("59999 surrogates let a single one pass"));
    wide.surrogates = 59'999;
    CHECK(mining::resolution_note(3000, wide).empty());
}

TEST_CASE("the surrogate test shows each surrogate as progress and stops on Cancel", "[significance]") {
    const std::vector<std::uint64_t> observed{50, 60};
    mining::SignificanceOptions options;
    options.surrogates = 30;
    CancelToken cancel;
    std::vector<std::uint64_t> reported;
    Progress progress([&](const std::string& task, std::uint64_t done, std::uint64_t total) {
        CHECK(task == "things against surrogates");
        CHECK(total == 30);
        reported.push_back(done);
    }, &cancel, std::chrono::nanoseconds{0});
    std::uint64_t made = 0;
    const auto count_in = [&](std::uint64_t s, std::span<const std::size_t> open) {
        made = s + 1;
        if (s == 11) cancel.request();
        return std::vector<std::uint64_t>(open.size(), 0);
    };
    CHECK_THROWS_AS(mining::test_against_surrogates(observed, options, count_in, &progress, "things against surrogates"), Cancelled);
    CHECK(made == 12);  // stopped before the surrogate after the one that asked
    REQUIRE_FALSE(reported.empty());
    CHECK(reported.back() == 11);  // the last report: 11 done, as the 12th began
}
