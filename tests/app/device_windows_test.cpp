// The co-firing windows shared over devices (run --devices), here over host threads that
// stand in for GPUs: the same windows, in order, as one CofiringWindows gives, whatever the
// number of devices and chunks; a Cancel stops every thread.
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
        options = pipeline::cofiring_options(config, input.recording.trains.time_base());
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
    CancelToken cancel;
    std::vector<std::uint64_t> reported;
    Progress progress([&](const std::string&, std::uint64_t done, std::uint64_t) { reported.push_back(done); }, &cancel,
                      std::chrono::nanoseconds(0));
    const pipeline::WindowFeed feed = pipeline::windows_over_devices(trains, d.options, std::vector<int>(devices, kNoDevice), &progress);
    mining::CofiringWindows shape(trains, d.options);
    std::size_t w = 0;
    for (mining::CofiringWindow window; feed(shape, window); ++w) {
        INFO(devices << " devices, window " << w);
        REQUIRE(w < expected.size());
        CHECK(std::tie(window.index, window.span.start, window.span.end, window.tests) ==
              std::tie(expected[w].index, expected[w].span.start, expected[w].span.end, expected[w].tests));
        CHECK(window.edges == expected[w].edges);
    }
    CHECK(w == expected.size());
    REQUIRE(!reported.empty());
    CHECK(reported.back() == expected.size());
}

TEST_CASE("co-firing windows over devices: a Cancel stops the feed and its threads", "[pipeline][devices]") {
    const DemoWindows& d = demo();
    const SpikeTrains& trains = d.input.recording.trains;
    CancelToken cancel;
    Progress progress({}, &cancel);
    const pipeline::WindowFeed feed = pipeline::windows_over_devices(trains, d.options, {kNoDevice, kNoDevice}, &progress);
    mining::CofiringWindows shape(trains, d.options);
    mining::CofiringWindow window;
    REQUIRE(feed(shape, window));
    cancel.request();
    CHECK_THROWS_AS([&] {
        while (feed(shape, window)) {
        }
    }(), Cancelled);
}
