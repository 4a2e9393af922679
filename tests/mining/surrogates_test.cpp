// Surrogate recordings: deterministic per (seed, index); dithering (uniform or joint-ISI)
// keeps each neuron's spike count, order and refractory period, moves spikes within
// ±dither (uniformly, or keeping a regular neuron's intervals) and stays in the span; shifting moves a whole train by one offset, circularly (checked
// against a brute-force search for that offset).
#include "catch.hpp"
#include "random_streams.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/mining/surrogates.hpp"

#include <algorithm>
#include <vector>

using namespace spikeminer;
using mining::SurrogateKind;
using mining::SurrogateOptions;

namespace {

std::vector<Tick> train(const SpikeTrains& trains, NeuronId n) {
    std::vector<Tick> times;
    for (const std::uint32_t at : trains.spikes_of(n)) times.push_back(trains.times()[at]);
    return times;
}

std::vector<std::pair<Tick, NeuronId>> spikes_of(const SpikeTrains& trains) {
    std::vector<std::pair<Tick, NeuronId>> spikes;
    for (std::size_t i = 0; i < trains.num_spikes(); ++i) spikes.emplace_back(trains.times()[i], trains.neurons()[i]);
    return spikes;
}

}  // namespace

TEST_CASE("a surrogate is a function of its seed and index only", "[surrogates]") {
    const SpikeTrains trains = test::random_stream(3, 6, 3000, 100'000);
    for (const SurrogateKind kind : {SurrogateKind::Dither, SurrogateKind::JointIsi, SurrogateKind::Shift}) {
        const SurrogateOptions options{kind, 500, 20, 42};
        const auto a = spikes_of(mining::make_surrogate(trains, options, 7));
        CHECK(spikes_of(mining::make_surrogate(trains, options, 7)) == a);
        CHECK(spikes_of(mining::make_surrogate(trains, options, 8)) != a);
        SurrogateOptions other_seed = options;
        other_seed.seed = 43;
        CHECK(spikes_of(mining::make_surrogate(trains, other_seed, 7)) != a);
        CHECK(spikes_of(mining::make_surrogate(trains, options, 7)) != spikes_of(trains));
    }
}

TEST_CASE("a surrogate of some neurons only is the whole surrogate's trains of those neurons", "[surrogates]") {
    const SpikeTrains trains = test::random_stream(5, 6, 3000, 100'000, true);
    const std::vector<bool> only{true, false, true, true, false, false};
    for (const SurrogateKind kind : {SurrogateKind::Dither, SurrogateKind::JointIsi, SurrogateKind::Shift}) {
        INFO(mining::surrogate_name(kind));
        const SurrogateOptions options{kind, 500, 20, 8};
        const SpikeTrains whole = mining::make_surrogate(trains, options, 3);
        const SpikeTrains part = mining::make_surrogate(trains, options, 3, only);
        CHECK(part.span() == whole.span());
        for (NeuronId n = 0; n < trains.num_neurons(); ++n) {
            INFO("neuron " << n);
            CHECK(train(part, n) == (only[n] ? train(whole, n) : std::vector<Tick>{}));
        }
    }
    CHECK_THROWS_AS(mining::make_surrogate(trains, SurrogateOptions{SurrogateKind::Dither, 500, 20, 8}, 3, {true}), Error);
}

TEST_CASE("a neuron's surrogate train near a stretch of time is the whole surrogate's there", "[surrogates]") {
    const SpikeTrains bursty = test::random_stream(11, 5, 6000, 200'000, true);
    const SpikeTrains early = test::shifted(bursty, -50'000);
    for (const SpikeTrains* trains : {&bursty, &early}) {
        for (const SurrogateKind kind : {SurrogateKind::Dither, SurrogateKind::JointIsi, SurrogateKind::Shift}) {
            const SurrogateOptions options{kind, 700, 5, 21};
            const mining::SurrogateTrains near(*trains, options);
            for (const std::uint64_t index : {0, 9}) {
                const SpikeTrains whole = mining::make_surrogate(*trains, options, index);
                const TimeSpan span = trains->span();
                for (const TimeSpan range : {TimeSpan{span.start, span.start + 3000}, TimeSpan{span.start + 70'000, span.start + 95'000},
                                             TimeSpan{span.end - 4000, span.end + 10}, TimeSpan{span.start - 500, span.end}}) {
                    for (NeuronId n = 0; n < trains->num_neurons(); ++n) {
                        INFO(mining::surrogate_name(kind) << ", surrogate " << index << ", neuron " << n << ", [" << range.start << ", "
                                                          << range.end << ")");
                        const auto inside = [&](std::vector<Tick> times) {
                            std::erase_if(times, [&](Tick t) { return t < range.start || t >= range.end; });
                            return times;
                        };
                        const std::vector<Tick> got = near.near(n, index, range);
                        CHECK(std::is_sorted(got.begin(), got.end()));
                        CHECK(inside(got) == inside(train(whole, n)));
                    }
                }
            }
        }
    }
}

TEST_CASE("dithering keeps counts, order, the span and the refractory period, within ±dither", "[surrogates]") {
    const auto seed = GENERATE(range(std::uint64_t{1}, std::uint64_t{6}));
    const SurrogateKind kind = GENERATE(SurrogateKind::Dither, SurrogateKind::JointIsi);
    INFO("seed " << seed << ", " << mining::surrogate_name(kind));
    const SpikeTrains trains = test::random_stream(seed, 5, 4000, 200'000, seed % 2 == 0);
    const Tick dither = 300;
    const Tick refractory = 4;
    const SpikeTrains surrogate = mining::make_surrogate(trains, SurrogateOptions{kind, dither, refractory, seed}, 1);
    REQUIRE(surrogate.num_neurons() == trains.num_neurons());
    CHECK(surrogate.span() == trains.span());
    std::size_t moved = 0;
    for (NeuronId n = 0; n < trains.num_neurons(); ++n) {
        const std::vector<Tick> before = train(trains, n);
        const std::vector<Tick> after = train(surrogate, n);
        REQUIRE(after.size() == before.size());
        for (std::size_t k = 0; k < after.size(); ++k) {
            CHECK(std::abs(after[k] - before[k]) <= dither);
            CHECK(after[k] >= trains.span().start);
            CHECK(after[k] < trains.span().end);
            moved += after[k] != before[k] ? 1 : 0;
            if (k == 0) continue;
            CHECK(after[k] >= after[k - 1]);  // the order of a neuron's spikes is kept
            // The refractory period holds wherever the original kept it.
            if (before[k] - before[k - 1] >= refractory) CHECK(after[k] - after[k - 1] >= refractory);
        }
    }
    CHECK(moved > trains.num_spikes() / 2);
}

TEST_CASE("dithering moves isolated spikes uniformly within ±dither", "[surrogates]") {
    // 20,000 spikes 10,000 ticks apart: no neighbour limits a move of at most 1,000.
    std::vector<Spike> spikes;
    for (int i = 0; i < 20'000; ++i) spikes.push_back({Tick{10'000} + Tick{i} * 10'000, static_cast<NeuronId>(i % 2)});
    const SpikeTrains trains = test::make_trains(std::move(spikes), 2);
    const SpikeTrains surrogate = mining::make_surrogate(trains, SurrogateOptions{SurrogateKind::Dither, 1000, 0, 5}, 0);
    std::vector<int> quarters(4, 0);
    for (NeuronId n = 0; n < 2; ++n) {
        const std::vector<Tick> before = train(trains, n);
        const std::vector<Tick> after = train(surrogate, n);
        for (std::size_t k = 0; k < before.size(); ++k) ++quarters[static_cast<std::size_t>(std::min<Tick>(3, (after[k] - before[k] + 1000) / 500))];
    }
    // Each quarter of [-1000, 1000] holds a quarter of the moves: 5,000 expected, a binomial
    // standard deviation of 61; 300 is five of them.
    for (const int q : quarters) CHECK(std::abs(q - 5000) < 300);
}

TEST_CASE("joint-ISI dithering keeps a regular neuron's intervals, which uniform dithering spreads", "[surrogates]") {
    // One neuron firing every 10,000 ticks, give or take 100; a dither of 2,000. Uniform
    // dithering makes each interval 10,000 plus the difference of two moves uniform in
    // ±2,000 (a mean distance near 1,330). Joint-ISI dithering may only move a spike where
    // the neuron's pairs of intervals lie, within a smoothed bin (250 ticks) of (10,000,
    // 10,000), so its intervals stay within a few hundred ticks of 10,000.
    std::vector<Spike> spikes;
    for (int i = 0; i < 4000; ++i) spikes.push_back({Tick{20'000} + Tick{i} * 10'000 + (Tick{i} * 7919) % 201 - 100, 0});
    const SpikeTrains trains = test::make_trains(std::move(spikes), 1);
    const auto mean_distance = [&](SurrogateKind kind, double& mean_move) {
        const SpikeTrains surrogate = mining::make_surrogate(trains, SurrogateOptions{kind, 2000, 0, 3}, 0);
        const std::vector<Tick> before = train(trains, 0);
        const std::vector<Tick> after = train(surrogate, 0);
        double distance = 0;
        mean_move = 0;
        for (std::size_t k = 1; k < after.size(); ++k) distance += static_cast<double>(std::abs(after[k] - after[k - 1] - 10'000));
        for (std::size_t k = 0; k < after.size(); ++k) mean_move += static_cast<double>(std::abs(after[k] - before[k]));
        mean_move /= static_cast<double>(after.size());
        return distance / static_cast<double>(after.size() - 1);
    };
    double uniform_move = 0;
    double isi_move = 0;
    const double uniform = mean_distance(SurrogateKind::Dither, uniform_move);
    const double isi = mean_distance(SurrogateKind::JointIsi, isi_move);
    INFO("mean |interval - 10,000|: uniform " << uniform << ", joint-ISI " << isi << "; mean move " << uniform_move << ", " << isi_move);
    CHECK(uniform > 1000);
    CHECK(isi < 400);
    CHECK(isi_move > 50);  // the spikes do move
}

TEST_CASE("a spike whose neighbours already break the refractory period stays", "[surrogates]") {
    const SpikeTrains trains = test::make_trains({{1000, 0}, {1002, 0}, {1004, 0}, {9000, 1}}, 2);
    const SpikeTrains surrogate = mining::make_surrogate(trains, SurrogateOptions{SurrogateKind::Dither, 50, 10, 9}, 3);
    const std::vector<Tick> after = train(surrogate, 0);
    REQUIRE(after.size() == 3);
    CHECK(after[1] == 1002);  // no room between its neighbours: it stays
    CHECK(std::is_sorted(after.begin(), after.end()));
}

TEST_CASE("shifting moves each whole train by one offset within ±dither, circularly in the span", "[surrogates]") {
    const auto seed = GENERATE(range(std::uint64_t{1}, std::uint64_t{4}));
    const SpikeTrains trains = test::random_stream(seed, 4, 2000, 5000, seed == 2);
    const Tick dither = 700;
    const SpikeTrains surrogate = mining::make_surrogate(trains, SurrogateOptions{SurrogateKind::Shift, dither, 0, seed}, 11);
    const TimeSpan span = trains.span();
    for (NeuronId n = 0; n < trains.num_neurons(); ++n) {
        const std::vector<Tick> after = train(surrogate, n);
        // Brute force: the one offset that gives these spikes.
        int offsets = 0;
        for (Tick offset = -dither; offset <= dither; ++offset) {
            std::vector<Tick> shifted;
            for (const Tick t : train(trains, n)) shifted.push_back(span.start + ((t - span.start + offset) % span.length() + span.length()) % span.length());
            std::sort(shifted.begin(), shifted.end());
            offsets += shifted == after ? 1 : 0;
        }
        INFO("neuron " << n);
        CHECK(offsets >= 1);
    }
}

TEST_CASE("surrogate options out of range are refused", "[surrogates]") {
    const SpikeTrains trains = test::make_trains({{1, 0}}, 1);
    CHECK_THROWS_AS(mining::make_surrogate(trains, SurrogateOptions{SurrogateKind::Dither, 0, 0, 1}, 0), UsageError);
    CHECK_THROWS_AS(mining::make_surrogate(trains, SurrogateOptions{SurrogateKind::Dither, 5, -1, 1}, 0), UsageError);
    CHECK(mining::parse_surrogate("shift") == SurrogateKind::Shift);
    CHECK(mining::parse_surrogate("isi") == SurrogateKind::JointIsi);
    CHECK_THROWS_AS(mining::parse_surrogate("jitter"), UsageError);
}
