#pragma once
// A live session (spikeminer::live) for the window: the session on a thread of its own,
// and what it shows handed to the GUI thread: the latest spikes each step, and after each
// search for the assemblies a run the pipeline panel can show (laid out on a second
// thread, so that neither the session nor the GUI waits for the layout).

#include "loaded_recording.hpp"
#include "pipeline_run.hpp"

#include "spikeminer/app/live/live_session.hpp"

#include <QObject>
#include <QString>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

namespace spikeminer::gui {

class LiveRunner : public QObject {
    Q_OBJECT

public:
    explicit LiveRunner(QObject* parent = nullptr);
    /// Ends a session still running (its final pass cancelled) and waits for its threads.
    ~LiveRunner() override;
    LiveRunner(const LiveRunner&) = delete;
    LiveRunner& operator=(const LiveRunner&) = delete;

    /// Opens `source` (a file, "-" is not offered, or a ZeroMQ endpoint) and starts a
    /// session into the new or empty folder `folder`. Throws UsageError or Error for what
    /// can be told at once (a missing file, a folder that is not empty).
    void start(const QString& source, const QString& folder, live::LiveOptions options);
    /// Ends the session: the windows left and the final pass run, then ended().
    void stop();
    /// From start() until ended() or failed() is emitted.
    [[nodiscard]] bool running() const { return running_; }

signals:
    /// The latest spikes (provisional unit ids, every unit so far), spikes taken and
    /// windows decided.
    void spikes_shown(TrainsPtr recent, std::size_t spikes, std::size_t windows);
    /// A search for the assemblies over the recording so far, laid out.
    void run_found(RunPtr run);
    /// The session ended: what it did, and where its final results are.
    void ended(const QString& summary);
    /// The session stopped on an error (its final results written when it could).
    void failed(const QString& message);

private:
    void lay_out();       // the layout thread: the latest search, laid out
    void join();

    std::unique_ptr<live::LiveSource> source_;
    std::unique_ptr<CancelToken> stop_ = std::make_unique<CancelToken>();  // one a session
    CancelToken cancel_;
    Progress progress_;         // the final pass's (session thread)
    Progress layout_progress_;  // the layout thread's
    std::thread session_;
    std::thread layout_;
    std::mutex lock_;
    std::condition_variable wake_;
    std::shared_ptr<const pipeline::Input> to_lay_out_;
    std::shared_ptr<const pipeline::PipelineResult> found_;
    pipeline::RunConfig config_;
    bool closing_ = false;
    bool running_ = false;
};

}  // namespace spikeminer::gui
