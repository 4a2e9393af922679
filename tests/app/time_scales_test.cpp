// The lags a recording resolves: its time grid found through rounding, the defaults made
// from it, and lags finer than it refused.
#include "catch.hpp"

#include "spikeminer/app/pipeline/time_scales.hpp"
#include "spikeminer/core/error.hpp"

#include <cmath>
#include <random>

using namespace spikeminer;

namespace {

// `neurons` neurons firing at random frames of `rate` frames a second, times in µs rounded
// from seconds as a text file gives them.
SpikeTrains framed(double rate, std::size_t frames, std::size_t neurons, std::uint64_t seed) {
    std::mt19937_64 random(seed);
    std::vector<Spike> spikes;
    NeuronTable table;
    for (std::size_t n = 0; n < neurons; ++n) table.labels.push_back(std::to_string(n));
    const TimeBase us{1'000'000};
    for (std::size_t f = 0; f < frames; ++f) {
        for (std::size_t n = 0; n < neurons; ++n) {
            if (random() % 5 == 0) spikes.push_back({us.from_seconds(static_cast<double>(f) / rate), static_cast<NeuronId>(n)});
        }
    }
    return SpikeTrains::from_spikes(std::move(spikes), std::move(table), us);
}

SpikeTrains poisson(std::size_t spikes, double seconds, std::uint64_t seed) {
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> at(0, seconds);
    std::vector<Spike> list;
    const TimeBase us{1'000'000};
    for (std::size_t i = 0; i < spikes; ++i) list.push_back({us.from_seconds(at(random)), static_cast<NeuronId>(i % 3)});
    NeuronTable table;
    table.labels = {"a", "b", "c"};
    return SpikeTrains::from_spikes(std::move(list), std::move(table), us);
}

}  // namespace

TEST_CASE("time scales: the grid of imaging frames is found through the rounding of their times", "[pipeline][time-scales]") {
    CHECK(pipeline::spike_time_grid(framed(30, 600, 20, 1)) == Approx(1e6 / 30).margin(0.5));
    CHECK(pipeline::spike_time_grid(framed(7.5, 300, 20, 2)) == Approx(1e6 / 7.5).margin(0.5));
    CHECK(pipeline::spike_time_grid(framed(1000, 5000, 20, 3)) == Approx(1000).margin(0.01));
    // Times at random microseconds, sparse or dense, lie on no grid.
    CHECK(pipeline::spike_time_grid(poisson(20000, 100, 4)) == 0);
    CHECK(pipeline::spike_time_grid(poisson(30, 3000, 5)) == 0);
    CHECK(pipeline::spike_time_grid(poisson(0, 1, 6)) == 0);
}

TEST_CASE("time scales: auto lags are the defaults on a fine grid, grid steps on a coarse one", "[pipeline][time-scales]") {
    SECTION("a fine grid") {
        pipeline::RunConfig config;
        const std::string note = pipeline::resolve_time_scales(config, framed(1000, 5000, 20, 3));
        CHECK(config.mining_intervals_ms == "0-5,5-10");
        CHECK(config.sync_ms == "2");
        CHECK(config.baseline_ms == "20-40");
        CHECK_THAT(note, test::contains("grid of 1 ms"));
    }
    SECTION("longer delays move the baseline out to twice and four times the longest") {
        pipeline::RunConfig config;
        config.mining_intervals_ms = "0-20,20-40";
        (void)pipeline::resolve_time_scales(config, poisson(20000, 100, 4));
        CHECK(config.baseline_ms == "80-160");
    }
    SECTION("given lags stay as given") {
        pipeline::RunConfig config;
        config.mining_intervals_ms = "1-3";
        config.sync_ms = "off";
        config.baseline_ms = "30-50";
        (void)pipeline::resolve_time_scales(config, poisson(20000, 100, 4));
        CHECK(config.mining_intervals_ms == "1-3");
        CHECK(config.sync_ms == "off");
        CHECK(config.baseline_ms == "30-50");
    }
    SECTION("a 30 Hz grid") {
        pipeline::RunConfig config;
        const std::string note = pipeline::resolve_time_scales(config, framed(30, 600, 20, 1));
        CHECK(config.mining_intervals_ms == "16.667-50,50-83.333");
        CHECK(config.sync_ms == "16.667");
        CHECK(config.baseline_ms == "183.333-350");
        CHECK_THAT(note, test::contains("coarser than 1 ms"));
        CHECK_THAT(note, test::contains("33.33 ms"));
    }
}

TEST_CASE("time scales: lags that hold no lag of the grid are refused, naming the grid", "[pipeline][time-scales][bad-input]") {
    const SpikeTrains frames = framed(30, 600, 20, 1);
    pipeline::RunConfig delays;
    delays.mining_intervals_ms = "0-5,5-10";
    CHECK_THROWS_AS(pipeline::resolve_time_scales(delays, frames), UsageError);
    CHECK_THROWS_WITH(pipeline::resolve_time_scales(delays, frames), test::contains("the episodes' delay 0-5 ms holds no lag"));
    pipeline::RunConfig baseline;
    baseline.baseline_ms = "105-125";
    CHECK_THROWS_WITH(pipeline::resolve_time_scales(baseline, frames), test::contains("the baseline 105-125 ms"));
    pipeline::RunConfig lags;
    lags.intervals_ms = "2-4";
    CHECK_THROWS_WITH(pipeline::resolve_time_scales(lags, frames), test::contains("the co-firing lag 2-4 ms"));
    // Whole frames are taken: one to three frames.
    pipeline::RunConfig whole;
    whole.mining_intervals_ms = "20-100";
    CHECK_NOTHROW(pipeline::resolve_time_scales(whole, frames));
}
