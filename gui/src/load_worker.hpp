#pragma once

#include "loaded_recording.hpp"

#include <QObject>
#include <QString>

#include <memory>

class QThread;

namespace spikeminer::gui {

/// Reads spike files on a worker thread, one at a time. All its signals are emitted on
/// the thread that owns it (the GUI thread), so receivers never see the worker thread.
class LoadWorker : public QObject {
    Q_OBJECT

public:
    explicit LoadWorker(QObject* parent = nullptr);
    /// Cancels a running load and waits for its thread.
    ~LoadWorker() override;

    /// Starts reading `path`; false when a load is already running.
    bool start(const QString& path);
    /// Asks the running load to stop; it then ends with cancelled().
    void cancel();
    /// True while a load runs.
    [[nodiscard]] bool busy() const { return thread_ != nullptr; }

signals:
    /// Progress of the running load: `fraction` in [0, 1], or negative when unknown.
    void progress(const QString& task, double fraction);
    /// The load finished: the recording and its summary.
    void loaded(const spikeminer::gui::LoadedRecording& recording);
    /// The load failed; `message` names the file and the line or dataset at fault.
    void failed(const QString& path, const QString& message);
    /// The load stopped because cancel() was called.
    void cancelled(const QString& path);

private:
    struct Job;
    void run(Job& job);
    void finish();

    QThread* thread_ = nullptr;
    std::shared_ptr<Job> job_;
};

}  // namespace spikeminer::gui
