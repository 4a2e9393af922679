#include "background_task.hpp"

#include "spikeminer/core/error.hpp"

#include <QThread>

#include <new>

namespace spikeminer::gui {

/// One task: written by the worker thread, read by the GUI thread only after the thread
/// has finished (the queued finished() signal orders the two).
struct BackgroundTask::Job {
    QString what;
    std::function<void(Progress&)> work;
    CancelToken cancel;
    QString error;
    bool failed = false;
    bool cancelled = false;
};

BackgroundTask::BackgroundTask(QObject* parent) : QObject(parent) {}

BackgroundTask::~BackgroundTask() {
    if (thread_ == nullptr) return;
    job_->cancel.request();
    thread_->wait();
    delete thread_;
}

bool BackgroundTask::start(const QString& what, std::function<void(Progress&)> work) {
    if (busy()) return false;
    job_ = std::make_shared<Job>();
    job_->what = what;
    job_->work = std::move(work);
    thread_ = QThread::create([this, job = job_] { run(*job); });
    connect(thread_, &QThread::finished, this, &BackgroundTask::finish);
    thread_->start();
    return true;
}

void BackgroundTask::cancel() {
    if (job_ != nullptr) job_->cancel.request();
}

void BackgroundTask::run(Job& job) {
    // Runs on the worker thread. Progress is posted to this object's (GUI) thread.
    Progress reporter(
        [this](const std::string& task, std::uint64_t done, std::uint64_t total) {
            const double fraction = total == 0 ? -1.0 : static_cast<double>(done) / static_cast<double>(total);
            QMetaObject::invokeMethod(
                this, [this, text = QString::fromStdString(task), fraction] { emit progress(text, fraction); },
                Qt::QueuedConnection);
        },
        &job.cancel);
    try {
        job.work(reporter);
    } catch (const Cancelled&) {
        job.cancelled = true;
    } catch (const std::bad_alloc&) {
        job.failed = true;
        job.error = tr("%1: not enough memory").arg(job.what);
    } catch (const std::exception& e) {
        // Error carries a message naming the file and the line or dataset; anything else
        // is unexpected, so name the task here.
        job.failed = true;
        const QString message = QString::fromStdString(e.what());
        job.error = dynamic_cast<const Error*>(&e) != nullptr ? message : tr("%1: %2").arg(job.what, message);
    }
}

void BackgroundTask::finish() {
    thread_->deleteLater();
    thread_ = nullptr;
    const std::shared_ptr<Job> job = std::move(job_);
    if (job->cancelled) {
        emit cancelled(job->what);
    } else if (job->failed) {
        emit failed(job->what, job->error);
    } else {
        emit succeeded(job->what);
    }
}

}  // namespace spikeminer::gui
