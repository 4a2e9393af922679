// See live_runner.hpp.
#include "live_runner.hpp"

#include "spikeminer/core/error.hpp"

#include <QMetaObject>

#include <utility>

namespace spikeminer::gui {

LiveRunner::LiveRunner(QObject* parent) : QObject(parent), progress_({}, &cancel_), layout_progress_({}, &cancel_) {}

LiveRunner::~LiveRunner() {
    stop_->request();
    cancel_.request();
    join();
}

void LiveRunner::join() {
    if (session_.joinable()) session_.join();
    {
        const std::lock_guard<std::mutex> guard(lock_);
        closing_ = true;
    }
    wake_.notify_all();
    if (layout_.joinable()) layout_.join();
}

void LiveRunner::start(const QString& source, const QString& folder, live::LiveOptions options) {
    if (running()) throw UsageError("a live session is running: disconnect it first");
    join();  // a session before, ended
    std::optional<TimeBase> tick;
    if (!options.config.tick.empty()) tick = parse_time_base(options.config.tick);
    options.output = folder.toStdString();
    live::validate(options);
    source_ = live::open_source(source.toStdString(), tick);
    config_ = options.config;
    stop_ = std::make_unique<CancelToken>();
    closing_ = false;
    running_ = true;
    options.watch = [this](const live::LiveView& view) {
        QMetaObject::invokeMethod(
            this, [this, recent = view.recent, spikes = view.spikes, windows = view.windows] { emit spikes_shown(recent, spikes, windows); },
            Qt::QueuedConnection);
        if (view.found) {
            const std::lock_guard<std::mutex> guard(lock_);
            to_lay_out_ = view.searched;
            found_ = view.found;
            wake_.notify_all();
        }
    };
    layout_ = std::thread([this] { lay_out(); });
    session_ = std::thread([this, options] {
        QString summary;
        QString failure;
        try {
            const live::LiveReport report =
                live::run_live(*source_, options, *stop_, &progress_, [](const std::string&) {});
            summary = tr("%1; %2 spikes of %3 units, %4 windows decided live, %5 assemblies; final results in %6/final")
                          .arg(QString::fromStdString(report.ended))
                          .arg(report.spikes)
                          .arg(report.units)
                          .arg(report.windows)
                          .arg(report.assemblies)
                          .arg(QString::fromStdString(options.output));
        } catch (const Cancelled&) {
            failure = tr("the live session was cancelled; its live files stay");
        } catch (const std::exception& e) {
            failure = QString::fromStdString(e.what());
        }
        QMetaObject::invokeMethod(
            this,
            [this, summary, failure] {
                running_ = false;
                if (failure.isEmpty()) {
                    emit ended(summary);
                } else {
                    emit failed(failure);
                }
            },
            Qt::QueuedConnection);
    });
}

void LiveRunner::stop() { stop_->request(); }

void LiveRunner::lay_out() {
    for (;;) {
        std::shared_ptr<const pipeline::Input> input;
        std::shared_ptr<const pipeline::PipelineResult> found;
        {
            std::unique_lock<std::mutex> guard(lock_);
            wake_.wait(guard, [this] { return closing_ || found_ != nullptr; });
            if (closing_) return;
            input = std::exchange(to_lay_out_, nullptr);
            found = std::exchange(found_, nullptr);
        }
        try {
            RunPtr run = view_of_run(input, config_, *found, layout_progress_);
            QMetaObject::invokeMethod(this, [this, run] { emit run_found(run); }, Qt::QueuedConnection);
        } catch (const Cancelled&) {
            return;
        }
    }
}

}  // namespace spikeminer::gui
