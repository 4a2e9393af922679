#pragma once
// Waiting for a BackgroundTask in tests: the event loop runs until the task has ended
// (succeeded, failed or cancelled) however long the work takes on a slow or sanitized
// build. The guard only stops a hang from blocking the suite; it is no time limit on the
// work, so no test depends on the machine's speed. Also: a window's work, its actions.
#include "catch.hpp"

#include "background_task.hpp"
#include "main_window.hpp"

#include <QAction>

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

/// Waits for the window's background work (opening, simulating, mining, running) to end.
inline void wait_for_work(const gui::MainWindow& window) {
    const auto* task = window.findChild<gui::BackgroundTask*>();
    REQUIRE(task != nullptr);
    wait_for_end(*task);
}

/// The window's action with this menu text ("&Run pipeline…"), or null.
inline QAction* action_named(const QWidget& window, const QString& text) {
    for (QAction* action : window.findChildren<QAction*>()) {
        if (action->text() == text) return action;
    }
    return nullptr;
}

}  // namespace spikeminer::test
