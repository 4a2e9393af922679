#include "load_worker.hpp"

#include "spikeminer/app/io/read_spikes.hpp"
#include "spikeminer/core/error.hpp"
#include "spikeminer/core/progress.hpp"

#include <QFile>
#include <QThread>

#include <new>
#include <optional>

namespace spikeminer::gui {

/// One load: written by the worker thread, read by the GUI thread only after the thread
/// has finished (the queued finished() signal orders the two).
struct LoadWorker::Job {
    QString path;
    CancelToken cancel;
    std::optional<LoadedRecording> result;
    QString error;
    bool cancelled = false;
};

LoadWorker::LoadWorker(QObject* parent) : QObject(parent) {}

LoadWorker::~LoadWorker() {
    if (thread_ == nullptr) return;
    job_->cancel.request();
    thread_->wait();
    delete thread_;
}

bool LoadWorker::start(const QString& path) {
    if (busy()) return false;
    job_ = std::make_shared<Job>();
    job_->path = path;
    thread_ = QThread::create([this, job = job_] { run(*job); });
    connect(thread_, &QThread::finished, this, &LoadWorker::finish);
    thread_->start();
    return true;
}

void LoadWorker::cancel() {
    if (job_ != nullptr) job_->cancel.request();
}

void LoadWorker::run(Job& job) {
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
        io::ReadOptions options;
        options.progress = &reporter;
        auto trains = std::make_shared<const SpikeTrains>(io::read_spikes(QFile::encodeName(job.path).toStdString(), options));
        RecordingSummary summary = summarize(*trains);
        job.result = LoadedRecording{job.path, std::move(trains), std::move(summary)};
    } catch (const Cancelled&) {
        job.cancelled = true;
    } catch (const std::bad_alloc&) {
        job.error = tr("%1: not enough memory to load this recording").arg(job.path);
    } catch (const std::exception& e) {
        // Error carries a message naming the file and the line or dataset; anything else
        // is unexpected, so name the file here.
        const QString what = QString::fromStdString(e.what());
        job.error = dynamic_cast<const Error*>(&e) != nullptr ? what : tr("%1: %2").arg(job.path, what);
    }
}

void LoadWorker::finish() {
    thread_->deleteLater();
    thread_ = nullptr;
    const std::shared_ptr<Job> job = std::move(job_);
    if (job->cancelled) {
        emit cancelled(job->path);
    } else if (job->result) {
        emit loaded(*job->result);
    } else {
        emit failed(job->path, job->error);
    }
}

}  // namespace spikeminer::gui
