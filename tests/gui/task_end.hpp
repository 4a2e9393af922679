#pragma once
// Waiting for a BackgroundTask in tests: the event loop runs until the task has ended
// (succeeded, failed or cancelled) however long the work takes on a slow or sanitized
// build. The guard only stops a hang from blocking the suite; it is no time limit on the
// work, so no test depends on the machine's speed.
#include "catch.hpp"

#include "background_task.hpp"

#include <QEventLoop>
#include <QTimer>

namespace spikeminer::test {

/// Runs the event loop until `task` is no longer busy; fails the test after the hang guard.
inline void wait_for_end(const gui::BackgroundTask& task) {
    constexpr int kHangGuardMs = 30 * 60 * 1000;
    if (!task.busy()) return;
    QEventLoop loop;
    const auto quit = [&loop] { loop.quit(); };
    QObject::connect(&task, &gui::BackgroundTask::succeeded, &loop, quit);
    QObject::connect(&task, &gui::BackgroundTask::failed, &loop, quit);
    QObject::connect(&task, &gui::BackgroundTask::cancelled, &loop, quit);
    QTimer::singleShot(kHangGuardMs, &loop, quit);
    loop.exec();
    REQUIRE_FALSE(task.busy());
}

}  // namespace spikeminer::test
