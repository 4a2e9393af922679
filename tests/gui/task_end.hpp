#pragma once
// Waiting for a BackgroundTask in tests: the event loop runs until the task has ended
// (succeeded, failed or cancelled) however long the work takes on a slow or sanitized
// build, its failure boxes closed. The guard only stops a hang from blocking the suite; it is no time limit on the
// work, so no test depends on the machine's speed. Also: a window's work, its actions, a
// small pipeline run in it.
#include "catch.hpp"

#include "background_task.hpp"
#include "main_window.hpp"

#include <QAction>
#include <QApplication>
#include <QEventLoop>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTimer>

namespace spikeminer::test {

/// Runs the event loop until `task` is no longer busy; fails the test after the hang guard.
/// A failure's message box is closed as soon as it is up, its text kept for the test's
/// report: a failure fails the test's checks instead of waiting for a click.
inline void wait_for_end(const gui::BackgroundTask& task) {
    constexpr int kHangGuardMs = 30 * 60 * 1000;
    if (!task.busy()) return;
    QTimer closer;
    QObject::connect(&closer, &QTimer::timeout, [] {
        for (QWidget* widget : QApplication::topLevelWidgets()) {
            if (auto* box = qobject_cast<QMessageBox*>(widget); box != nullptr && box->isVisible()) {
                UNSCOPED_INFO("message box: " << box->text().toStdString());
                box->accept();
            }
        }
    });
    closer.start(10);
    QEventLoop loop;
    const auto quit = [&loop] { loop.quit(); };
    QObject::connect(&task, &gui::BackgroundTask::succeeded, &loop, quit);
    QObject::connect(&task, &gui::BackgroundTask::failed, &loop, quit);
    QObject::connect(&task, &gui::BackgroundTask::cancelled, &loop, quit);
    QTimer::singleShot(kHangGuardMs, &loop, quit);
    loop.exec();
    // No assertion that passes here: it would take the message box's text with it, which
    // belongs to the caller's next check (a load that failed when it should not have).
    if (task.busy()) FAIL("the task is still busy after the hang guard");
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

/// The demo scenario for 60 s (six of its assemblies active), in windows of 20 s every 5 s.
inline pipeline::RunConfig small_run() {
    pipeline::RunConfig config;
    config.simulate = "demo";
    config.duration_s = 60;
    config.window_s = 20;
    config.step_s = 5;
    config.backend = "cpu";
    return config;
}

/// The window with `config`'s simulation loaded and the pipeline run on it.
inline void run_in_window(gui::MainWindow& window, const pipeline::RunConfig& config) {
    QSignalSpy shown(&window, &gui::MainWindow::run_shown);
    window.simulate(config);
    wait_for_work(window);
    window.run_pipeline(config);
    wait_for_work(window);
    REQUIRE(shown.wait());  // run_shown comes once the task has ended
}

}  // namespace spikeminer::test
