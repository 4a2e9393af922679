#include "catch.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/progress.hpp"

#include <thread>

using namespace spikeminer;

TEST_CASE("progress reports the start and the end of a task") {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> calls;
    CancelToken cancel;
    const auto an_hour = std::chrono::hours(1);  // no update falls outside it, however slow the machine
    Progress progress([&](const std::string& task, std::uint64_t done, std::uint64_t total) {
        CHECK(task == "counting");
        calls.emplace_back(done, total);
    }, &cancel, an_hour);
    progress.begin("counting", 10);
    progress.update(3);  // inside the interval: not reported
    progress.finish();
    REQUIRE(calls.size() == 2);
    CHECK(calls.front() == std::pair<std::uint64_t, std::uint64_t>{0, 10});
    CHECK(calls.back() == std::pair<std::uint64_t, std::uint64_t>{10, 10});
}

TEST_CASE("updates after the throttle interval are reported") {
    int reports = 0;
    Progress progress([&](const std::string&, std::uint64_t, std::uint64_t) { ++reports; }, nullptr,
                      std::chrono::milliseconds(5));
    progress.begin("x", 2);
    std::this_thread::sleep_for(std::chrono::milliseconds(6));  // at least the interval, however fast the machine
    progress.update(1);
    CHECK(reports == 2);
}

TEST_CASE("a cancel request stops the work at the next update") {
    CancelToken cancel;
    Progress progress({}, &cancel);
    progress.begin("x", 100);
    REQUIRE_NOTHROW(progress.update(1));
    cancel.request();
    CHECK_THROWS_AS(progress.update(2), Cancelled);
    CHECK_THROWS_AS(progress.check_cancelled(), Cancelled);
}

TEST_CASE("a default progress never cancels") {
    Progress progress;
    progress.begin("x", 1);
    REQUIRE_NOTHROW(progress.update(1));
    progress.finish();
}
