// The GPU co-firing counter against the definition (tiny recordings) and against the CPU
// counter (larger ones, simulated, and rows too long for shared memory): the same windows,
// edge for edge, counts, p-values and all, with the surrogate edge test too; a full device
// falls back to the CPU; Cancel stops it.
#include "catch.hpp"

#include "brute_cofiring.hpp"
#include "cofiring_inputs.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/mining/cofiring.hpp"
#include "spikeminer/simulator/simulate.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <span>
#include <tuple>
#include <vector>

using namespace spikeminer;
using mining::CofiringOptions;
using mining::CofiringWindow;
using mining::CofiringWindows;

namespace {

struct Run {
    std::vector<CofiringWindow> windows;
    BackendChoice backend;
};

Run run(const SpikeTrains& trains, CofiringOptions options, Backend backend) {
    options.backend = backend;
    CofiringWindows windows(trains, options);
    Run out;
    CofiringWindow window;
    while (windows.next(window)) out.windows.push_back(window);
    out.backend = windows.backend();
    return out;
}

// The GPU's windows equal the CPU's, edge for edge; returns the edges.
std::size_t check_same(const SpikeTrains& trains, const CofiringOptions& options, const std::string& what) {
    INFO(what);
    const Run gpu = run(trains, options, Backend::Cuda);
    const Run cpu = run(trains, options, Backend::Cpu);
    CHECK(gpu.backend.backend == Backend::Cuda);
    REQUIRE(gpu.windows.size() == cpu.windows.size());
    std::size_t edges = 0;
    for (std::size_t w = 0; w < cpu.windows.size(); ++w) {
        INFO("window " << w);
        CHECK(gpu.windows[w].tests == cpu.windows[w].tests);
        INFO(test::edge_mismatch(gpu.windows[w].edges, cpu.windows[w].edges));
        CHECK(gpu.windows[w].edges == cpu.windows[w].edges);
        edges += cpu.windows[w].edges.size();
    }
    return edges;
}

}  // namespace

TEST_CASE("GPU co-firing counts as the definition does, on random small recordings", "[gpu][cofiring]") {
    for (unsigned seed = 1; seed <= 40; ++seed) {
        test::SmallCase c = test::small_case(seed, 150);
        c.options.test.q = seed % 2 == 0 ? 1 : 0.2;
        Run gpu;
        try {
            gpu = run(c.trains, c.options, Backend::Cuda);
        } catch (const UsageError&) {
            // A few spikes can make the time grid coarser than the baseline: then the test
            // is refused, on the CPU too.
            CHECK_THROWS_AS(run(c.trains, c.options, Backend::Cpu), UsageError);
            continue;
        }
        for (const CofiringWindow& window : gpu.windows) {
            INFO("seed " << seed << ", window " << window.index);
            CHECK(test::edge_mismatch(window.edges, test::brute_edges(c.trains, c.options.lags, c.options.test, window.span)).empty());
        }
    }
}

TEST_CASE("GPU co-firing windows equal the CPU's on larger random recordings", "[gpu][cofiring][simulated]") {
    std::size_t edges = 0;
    for (unsigned seed = 50; seed < 56; ++seed) {
        test::Rng rng(seed);
        const SpikeTrains trains = test::grid_recording(rng, static_cast<std::size_t>(rng.between(20, 300)), 40'000, 200'000, 1);
        CofiringOptions options;
        options.lags = mining::parse_lags("2", "0-2,2-5,5-10", "20-40", TimeBase{1'000'000}, "us");
        options.test.chance = seed % 2 == 0 ? mining::Chance::Baseline : mining::Chance::Independent;
        options.test.correction = seed % 3 == 0 ? mining::Correction::Bonferroni : mining::Correction::BenjaminiHochberg;
        if (seed % 2 == 0) {
            options.step = 10'000;
            options.window = 50'000;
        }
        edges += check_same(trains, options, "seed " + std::to_string(seed));
    }
    CHECK(edges > 0);
}

TEST_CASE("GPU co-firing windows equal the CPU's on a simulated network with assemblies and chains", "[gpu][cofiring][simulated]") {
    simulator::NetworkConfig config = simulator::scenario("large");
    config.neurons = 400;
    config.rest_rates.resize(config.neurons);  // the scenario's per-neuron rates (its assembly members at 5 Hz)
    config.duration_s = 30;
    config.chains.resize(5);
    config.assemblies.resize(5);
    const SpikeTrains trains = simulator::simulate(config).trains;
    CofiringOptions options;
    options.lags = mining::parse_lags("2", "0-2,2-5,5-10", "20-40", trains.time_base());
    options.step = trains.time_base().from_seconds(1);
    options.window = trains.time_base().from_seconds(10);
    CHECK(check_same(trains, options, "windows") > 0);
    options.step = 0;
    options.window = 0;
    CHECK(check_same(trains, options, "whole recording") > 0);
    options.test.q = 1;
    CHECK(check_same(trains, options, "whole recording, every count") > 0);
}

TEST_CASE("GPU co-firing: the whole recording from the windows' shares, in order or in chunks over counters, equals its own count",
          "[gpu][cofiring]") {
    std::size_t edges = 0;
    for (unsigned seed = 300; seed < 320; ++seed) {
        test::Rng rng(seed);
        auto [trains, options, grid] = test::random_case(rng, 90, 200, 3000, 20'000, Backend::Cuda);
        options.test.q = rng.chance(50) ? 0.05 : 0.5;
        options.step = rng.between(300, 2000) * grid;
        options.window = options.step * rng.between(1, 5);
        INFO("seed " << seed << ", window " << options.window << ", step " << options.step);
        CofiringOptions on_cpu = options;
        on_cpu.backend = Backend::Cpu;
        const CofiringWindow expected = mining::cofiring_whole_recording(trains, on_cpu);
        const auto check = [&](const CofiringWindow& whole) {
            CHECK(std::tie(whole.span.start, whole.span.end, whole.tests) == std::tie(expected.span.start, expected.span.end, expected.tests));
            CHECK(test::edge_mismatch(whole.edges, expected.edges).empty());
        };
        CofiringWindows one(trains, options);
        if (one.size() == 1) continue;
        REQUIRE(one.keep_whole_recording());
        REQUIRE(one.backend().backend == Backend::Cuda);
        CofiringWindow window;
        while (one.next(window)) {}
        CofiringWindow whole;
        REQUIRE(one.whole_recording(whole));
        check(whole);
        edges += whole.edges.size();
        // Three counters take chunks of `chunk` windows round robin, as the pipeline's threads do.
        const std::size_t chunk = static_cast<std::size_t>(rng.between(1, 7));
        std::vector<std::unique_ptr<CofiringWindows>> counters;
        for (int k = 0; k < 3; ++k) {
            counters.push_back(std::make_unique<CofiringWindows>(trains, options));
            REQUIRE(counters.back()->keep_whole_recording());
        }
        for (std::size_t first = 0, k = 0; first < one.size(); first += chunk, k = (k + 1) % counters.size()) {
            counters[k]->skip_to(first);
            for (std::size_t w = first; w < std::min(one.size(), first + chunk); ++w) REQUIRE(counters[k]->next(window));
        }
        mining::WholeRecordingShare sum;
        mining::WholeRecordingShare all_but_last;
        for (std::size_t k = 0; k < counters.size(); ++k) {
            std::optional<mining::WholeRecordingShare> share = counters[k]->whole_recording_share();
            REQUIRE(share.has_value());
            sum.add(*share);
            if (k + 1 < counters.size()) all_but_last.add(*share);
        }
        CofiringWindow from_shares;
        REQUIRE(one.whole_recording_of(sum, from_shares));
        check(from_shares);
        // A counter's steps left out, or counted twice, or counts of another size: refused.
        if (all_but_last.steps != sum.steps) CHECK_FALSE(one.whole_recording_of(all_but_last, window));
        mining::WholeRecordingShare twice = sum;
        twice.add(sum);
        CHECK_FALSE(one.whole_recording_of(twice, window));
        CHECK_FALSE(one.whole_recording_of({{1, 2, 3}, sum.steps}, window));
    }
    CHECK(edges > 50);  // the planted pairs pass, so the comparison is not of empty sets
}

TEST_CASE("the GPU's surrogate edge test equals the CPU's, window by window and in batches", "[gpu][cofiring][significance]") {
    std::size_t tested = 0;
    std::size_t dropped = 0;
    for (unsigned seed = 60; seed < 68; ++seed) {
        test::Rng rng(seed);
        // The whole recordings' tests of three neurons' pairs hold more spikes than one
        // thread walks: they are counted in pieces.
        const bool whole = seed % 4 == 3;
        const auto neurons = static_cast<std::size_t>(whole ? 3 : rng.between(10, 60));
        const SpikeTrains trains = test::grid_recording(rng, neurons, 20'000, 200'000, 1);
        CofiringOptions options;
        options.lags = mining::parse_lags("2", "0-2,2-5", "20-40", TimeBase{1'000'000}, "us");
        options.test.q = seed % 2 == 0 ? 0.5 : 0.05;
        options.step = whole ? 0 : 20'000;
        options.window = whole ? 0 : 60'000;
        mining::SignificanceOptions surrogates;
        const mining::SurrogateKind kinds[] = {mining::SurrogateKind::Dither, mining::SurrogateKind::JointIsi, mining::SurrogateKind::Shift};
        surrogates.surrogate = {kinds[seed % 3], rng.between(3, 40), rng.between(0, 2), seed};
        surrogates.surrogates = 60;
        surrogates.enough_exceedances = 5;
        options.test.surrogates = surrogates;
        const std::string what = "seed " + std::to_string(seed) + ", " + mining::surrogate_name(surrogates.surrogate.kind);
        check_same(trains, options, what);
        // All the windows in one batch, then in batches of 3.
        const Run cpu = run(trains, options, Backend::Cpu);
        options.backend = Backend::Cuda;
        for (const std::size_t batch : {std::size_t{1000}, std::size_t{3}}) {
            CofiringWindows windows(trains, options);
            std::vector<CofiringWindow> got;
            std::vector<CofiringWindow> part(batch);
            while (const std::size_t made = windows.next(std::span(part))) got.insert(got.end(), part.begin(), part.begin() + static_cast<std::ptrdiff_t>(made));
            REQUIRE(got.size() == cpu.windows.size());
            for (std::size_t w = 0; w < got.size(); ++w) {
                INFO(what << ", batches of " << batch << ", window " << w);
                CHECK(got[w].edges == cpu.windows[w].edges);
            }
            if (surrogates.surrogate.kind == mining::SurrogateKind::Shift) CHECK(windows.note().find("shift surrogates") != std::string::npos);
        }
        // What the test kept, against the screen alone.
        options.test.surrogates.reset();
        const Run screened = run(trains, options, Backend::Cpu);
        for (std::size_t w = 0; w < cpu.windows.size(); ++w) {
            tested += screened.windows[w].edges.size();
            dropped += screened.windows[w].edges.size() - cpu.windows[w].edges.size();
        }
    }
    CHECK(tested > 100);
    CHECK(dropped > 0);             // some edges do not beat their surrogates
    CHECK(dropped < tested);        // and some do
}

TEST_CASE("GPU co-firing with rows too long for shared memory equals the CPU", "[gpu][cofiring][simulated]") {
    // 12,000 neurons x 5 slots of 4 bytes is past every GPU's shared memory per block.
    test::Rng rng(9);
    const SpikeTrains trains = test::grid_recording(rng, 12'000, 30'000, 2'000'000, 1);
    CofiringOptions options;
    options.lags = mining::parse_lags("2", "0-2,2-5,5-10", "20-40", TimeBase{1'000'000}, "us");
    options.test.q = 1;
    CHECK(check_same(trains, options, "12,000 neurons") > 0);
}

TEST_CASE("GPU co-firing falls back to the CPU when the device is full, and stops at Cancel", "[gpu][cofiring][memory]") {
    test::Rng rng(4);
    const SpikeTrains trains = test::grid_recording(rng, 3000, 20'000, 1'000'000, 1);
    CofiringOptions options;
    options.lags = mining::parse_lags("2", "0-2", "20-40", TimeBase{1'000'000}, "us");
    options.test.q = 1;
    const Run cpu = run(trains, options, Backend::Cpu);
    {
        // Leave the device about 64 MiB: less than the window's 3000 x 3000 x 3 counts. The
        // stream-ordered pool first gives back what earlier tests left in it (it keeps up
        // to 256 MiB, where the counts would fit).
        REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
        cudaMemPool_t pool{};
        REQUIRE(cudaDeviceGetDefaultMemPool(&pool, 0) == cudaSuccess);
        REQUIRE(cudaMemPoolTrimTo(pool, 0) == cudaSuccess);
        std::size_t free = 0;
        std::size_t total = 0;
        REQUIRE(cudaMemGetInfo(&free, &total) == cudaSuccess);
        void* hog = nullptr;
        REQUIRE(cudaMalloc(&hog, free - (std::size_t{64} << 20)) == cudaSuccess);
        const Run full = run(trains, options, Backend::Cuda);
        cudaFree(hog);
        CHECK(full.backend.backend == Backend::Cpu);
        CHECK(full.backend.note.find("ran out of memory") != std::string::npos);
        REQUIRE(full.windows.size() == 1);
        CHECK(full.windows[0].edges == cpu.windows[0].edges);
    }
    CancelToken cancel;
    cancel.request();
    Progress progress([](const std::string&, std::uint64_t, std::uint64_t) {}, &cancel);
    options.progress = &progress;
    options.backend = Backend::Cuda;
    CofiringWindows windows(trains, options);
    CofiringWindow window;
    CHECK_THROWS_AS(windows.next(window), Cancelled);
}
