#pragma once

#include "spikeminer/core/progress.hpp"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>

class QThread;

namespace spikeminer::gui {

/// Runs long work (reading a file, finding assemblies) on a worker thread, one task at a
/// time, with progress and cancellation. All its signals are emitted on the thread that
/// owns it (the GUI thread), so receivers never see the worker thread; the work hands its
/// result back through whatever its closure captured, which the GUI thread may read once
/// succeeded() arrives.
class BackgroundTask : public QObject {
    Q_OBJECT

public:
    explicit BackgroundTask(QObject* parent = nullptr);
    /// Cancels a running task and waits for its thread.
    ~BackgroundTask() override;

    /// Starts `work` on a new thread; `what` names it in the signals ("groups.txt"). False
    /// when a task is already running.
    bool start(const QString& what, std::function<void(Progress&)> work);
    /// Asks the running task to stop; it then ends with cancelled().
    void cancel();
    /// True while a task runs.
    [[nodiscard]] bool busy() const { return thread_ != nullptr; }

signals:
    /// Progress of the running task: `fraction` in [0, 1], or negative when unknown.
    void progress(const QString& task, double fraction);
    /// The work returned.
    void succeeded(const QString& what);
    /// The work threw; `message` is the Error's (which names the file and the line or
    /// dataset at fault), or names `what` for anything else.
    void failed(const QString& what, const QString& message);
    /// The work stopped because cancel() was called.
    void cancelled(const QString& what);

private:
    struct Job;
    void run(Job& job);
    void finish();

    QThread* thread_ = nullptr;
    std::shared_ptr<Job> job_;
};

}  // namespace spikeminer::gui
