// BackgroundTask, which runs the GUI's long work (loading, finding assemblies): the result
// reaches the GUI thread with succeeded(); progress arrives on the GUI thread; Cancel stops
// the work with cancelled(); an Error's message is passed on as it is, anything else's
// with the task's name; one task at a time.
#include "catch.hpp"

#include "background_task.hpp"
#include "task_end.hpp"

#include "spikeminer/core/error.hpp"

#include <QThread>

#include <atomic>
#include <stdexcept>

using spikeminer::Cancelled;
using spikeminer::Error;
using spikeminer::Progress;
using spikeminer::gui::BackgroundTask;

namespace {

// What a task's signals said, in order.
struct Outcome {
    QStringList events;
    QString message;
    QThread* progress_thread = nullptr;
};

// Waits for the task to end. Its progress was posted before the thread's finished(), so
// it has been handled by then too.
void wait_for(const BackgroundTask& task) { spikeminer::test::wait_for_end(task); }

void connect_outcome(BackgroundTask& task, Outcome& outcome) {
    QObject::connect(&task, &BackgroundTask::progress, [&outcome](const QString&, double) {
        outcome.progress_thread = QThread::currentThread();
        if (outcome.events.isEmpty() || outcome.events.back() != "progress") outcome.events << "progress";
    });
    QObject::connect(&task, &BackgroundTask::succeeded, [&outcome](const QString& what) { outcome.events << "succeeded " + what; });
    QObject::connect(&task, &BackgroundTask::failed, [&outcome](const QString& what, const QString& message) {
        outcome.events << "failed " + what;
        outcome.message = message;
    });
    QObject::connect(&task, &BackgroundTask::cancelled, [&outcome](const QString& what) { outcome.events << "cancelled " + what; });
}

}  // namespace

TEST_CASE("background task: the result, with progress on the GUI thread", "[gui]") {
    BackgroundTask task;
    Outcome outcome;
    connect_outcome(task, outcome);
    int result = 0;
    REQUIRE(task.start("sum", [&result](Progress& progress) {
        progress.begin("summing", 10);
        for (int i = 1; i <= 10; ++i) {
            result += i;
            progress.update(static_cast<std::uint64_t>(i));
            QThread::msleep(10);  // past Progress's 50 ms between reports, at least once
        }
        progress.finish();
    }));
    CHECK(task.busy());
    CHECK_FALSE(task.start("another", [](Progress&) {}));  // one at a time
    wait_for(task);
    CHECK(result == 55);
    REQUIRE(!outcome.events.isEmpty());
    CHECK(outcome.events.back() == "succeeded sum");
    CHECK(outcome.events.front() == "progress");
    CHECK(outcome.progress_thread == QThread::currentThread());
    CHECK_FALSE(task.busy());
}

TEST_CASE("background task: Cancel stops the work", "[gui]") {
    BackgroundTask task;
    Outcome outcome;
    connect_outcome(task, outcome);
    std::atomic<bool> started{false};
    std::atomic<bool> finished_loop{false};
    REQUIRE(task.start("endless", [&](Progress& progress) {
        progress.begin("waiting", 0);
        started = true;
        for (std::uint64_t i = 0; i < 1'000'000; ++i) {  // about 17 minutes unless cancelled
            progress.update(i);
            QThread::msleep(1);
        }
        finished_loop = true;
    }));
    while (!started) QThread::msleep(1);
    task.cancel();
    wait_for(task);
    CHECK(outcome.events.back() == "cancelled endless");
    CHECK_FALSE(finished_loop);
}

TEST_CASE("background task: failures keep an Error's message and name the task otherwise", "[gui]") {
    BackgroundTask task;
    Outcome outcome;
    connect_outcome(task, outcome);
    REQUIRE(task.start("spikes.csv", [](Progress&) { throw Error("spikes.csv line 3: time 'abc' is not a number"); }));
    wait_for(task);
    CHECK(outcome.events.back() == "failed spikes.csv");
    CHECK(outcome.message == "spikes.csv line 3: time 'abc' is not a number");
    REQUIRE(task.start("assemblies", [](Progress&) { throw std::runtime_error("unexpected"); }));
    wait_for(task);
    CHECK(outcome.events.back() == "failed assemblies");
    CHECK(outcome.message == "assemblies: unexpected");
}

TEST_CASE("background task: destroyed while running, it cancels and waits", "[gui]") {
    std::atomic<bool> started{false};
    std::atomic<bool> stopped{false};
    {
        BackgroundTask task;
        REQUIRE(task.start("long", [&started, &stopped](Progress& progress) {
            progress.begin("waiting", 0);
            started = true;
            try {
                for (std::uint64_t i = 0;; ++i) {
                    progress.update(i);
                    QThread::msleep(1);
                }
            } catch (const Cancelled&) {
                stopped = true;
                throw;
            }
        }));
        while (!started) QThread::msleep(1);  // inside the loop, however slow the thread's start
    }
    CHECK(stopped);
}
