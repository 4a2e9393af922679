// The co-firing windows counted by several threads (two a GPU, and over devices with run
// --devices), here over host threads that stand in for GPUs: the same windows, in order, as
// one CofiringWindows gives, whatever the number of threads and chunks; a Cancel stops
// every thread; no device is refused.
#include "catch.hpp"

#include "pipeline/device_windows.hpp"

#include "spikeminer/app/pipeline/pipeline.hpp"
#include "spikeminer/core/device_threads.hpp"
#include "spikeminer/core/error.hpp"

#include <tuple>

using namespace spikeminer;

namespace {

struct DemoWindows {
    pipeline::RunConfig config;
    pipeline::Input input;
    mining::CofiringOptions options;

    DemoWindows() {
        config.simulate = "demo";
        config.window_s = 5;
        config.step_s = 1;  // 236 windows of the demo's 240 s: several chunks a device
        config.backend = "cpu";
        input = pipeline::load_input(config, nullptr);
        options = pipeline::cofiring_options(config, input.recording.trains);
    }
};

const DemoWindows& demo() {
    static const DemoWindows d;
    return d;
}

}  // namespace

TEST_CASE("co-firing windows over devices: the windows one counter gives, in order", "[pipeline][devices]") {
    const DemoWindows& d = demo();
    const SpikeTrains& trains = d.input.recording.trains;
    mining::CofiringWindows one(trains, d.options);
    std::vector<mining::CofiringWindow> expected;
    for (mining::CofiringWindow w; one.next(w);) expected.push_back(w);
    REQUIRE(expected.size() > 200);
    std::size_t edges = 0;
    for (const auto& w : expected) edges += w.edges.size();
    REQUIRE(edges > 0);

    const auto devices = GENERATE(std::size_t{1}, std::size_t{2}, std::size_t{3});
    const auto per_device = GENERATE(std::size_t{1}, std::size_t{2});
    CancelToken cancel;
    std::vector<std::uint64_t> reported;
    Progress progress([&](const std::string&, std::uint64_t done, std::uint64_t) { reported.push_back(done); }, &cancel,
                      std::chrono::nanoseconds(0));
    pipeline::DeviceWindows shared(trains, d.options, std::vector<int>(devices, kNoDevice), per_device, expected.size(), &progress, false);
    std::size_t w = 0;
    for (mining::CofiringWindow window; shared.next(window); ++w) {
        INFO(devices << " devices, " << per_device << " threads a device, window " << w);
        REQUIRE(w < expected.size());
        CHECK(std::tie(window.index, window.span.start, window.span.end, window.tests) ==
              std::tie(expected[w].index, expected[w].span.start, expected[w].span.end, expected[w].tests));
        CHECK(window.edges == expected[w].edges);
    }
    CHECK(w == expected.size());
    REQUIRE(!reported.empty());
    CHECK(reported.back() == expected.size());
    CHECK(shared.backend().backend == Backend::Cpu);  // what the threads' counters chose, as asked
}

TEST_CASE("co-firing windows over devices: a Cancel stops the feed and its threads", "[pipeline][devices]") {
    const DemoWindows& d = demo();
    const SpikeTrains& trains = d.input.recording.trains;
    CancelToken cancel;
    Progress progress({}, &cancel);
    const mining::CofiringWindows shape(trains, d.options);
    pipeline::DeviceWindows shared(trains, d.options, {kNoDevice, kNoDevice}, 2, shape.size(), &progress, false);
    mining::CofiringWindow window;
    REQUIRE(shared.next(window));
    cancel.request();
    CHECK_THROWS_AS([&] {
        while (shared.next(window)) {
        }
    }(), Cancelled);
}

TEST_CASE("co-firing windows over devices: threads that counted on the CPU give no whole recording", "[pipeline][devices]") {
    // Only GPU counters keep shares that sum over threads (the CPU's own sum of the steps
    // needs every window in order): CPU threads give none, and the pipeline then counts the
    // whole recording itself.
    const DemoWindows& d = demo();
    const SpikeTrains& trains = d.input.recording.trains;
    mining::CofiringWindows decider(trains, d.options);
    pipeline::DeviceWindows shared(trains, d.options, {kNoDevice, kNoDevice}, 1, decider.size(), nullptr, true);
    mining::CofiringWindow window;
    std::size_t handed = 0;
    while (shared.next(window)) ++handed;
    CHECK(handed == decider.size());
    CHECK_FALSE(shared.whole_recording(decider, window));
}

TEST_CASE("co-firing windows over devices: none to count on is refused", "[pipeline][devices]") {
    const DemoWindows& d = demo();
    CHECK_THROWS_AS(pipeline::DeviceWindows(d.input.recording.trains, d.options, {}, 2, 10, nullptr, false), Error);
}
