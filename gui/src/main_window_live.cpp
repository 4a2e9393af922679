// The window following a live session (main_window.cpp has the rest of MainWindow): the
// raster shows the latest spikes as they come, the through-time panel and the assemblies
// list each search for the assemblies; paused, both stay where they are while the session
// goes on, and resumed they jump to the latest.
#include "main_window.hpp"

#include "app_settings.hpp"
#include "live_dialog.hpp"
#include "live_runner.hpp"
#include "pipeline_panel.hpp"
#include "raster_view.hpp"

#include "spikeminer/core/error.hpp"

#include <QAction>
#include <QListWidget>
#include <QMessageBox>
#include <QStatusBar>

namespace spikeminer::gui {

void MainWindow::choose_live_source() {
    LiveDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted) return;
    live::LiveOptions options;
    options.config = settings::run_config();
    options.config.input.clear();
    options.config.simulate.clear();
    try {
        connect_live(dialog.source(), dialog.folder(), options);
    } catch (const std::exception& e) {
        QMessageBox::critical(this, tr("spikeminer"), tr("Could not connect to the live source."), QMessageBox::Ok);
        statusBar()->showMessage(QString::fromStdString(e.what()), 15000);
    }
}

void MainWindow::connect_live(const QString& source, const QString& folder, const live::LiveOptions& options) {
    if (live_ == nullptr) {
        live_ = new LiveRunner(this);
        connect(live_, &LiveRunner::spikes_shown, this, [this](TrainsPtr recent, std::size_t spikes, std::size_t windows) {
            live_spikes_ = std::move(recent);
            live_spikes_new_ = true;
            statusBar()->showMessage(tr("live: %1 spikes, %2 windows decided%3").arg(spikes).arg(windows).arg(live_paused_ ? tr(" (paused)") : QString()));
            show_live();
        });
        connect(live_, &LiveRunner::run_found, this, [this](RunPtr run) {
            live_run_ = std::move(run);
            live_run_new_ = true;
            show_live();
        });
        const auto end = [this](const QString& text) {
            connect_live_action_->setEnabled(true);
            disconnect_live_action_->setEnabled(false);
            pause_live_action_->setEnabled(false);
            set_busy(false);
            statusBar()->showMessage(tr("live session: %1").arg(text), 30000);
            emit live_ended(text);
        };
        connect(live_, &LiveRunner::ended, this, end);
        connect(live_, &LiveRunner::failed, this, end);
    }
    live_->start(source, folder, options);  // throws for what is wrong at once
    occurrence_finder_.reset();
    loaded_.reset();  // the window shows the live recording: nothing loaded to run or mine
    run_.reset();
    shown_.reset();
    live_spikes_.reset();
    live_run_.reset();
    pipeline_panel_->set_run(nullptr);
    assemblies_list_->clear();
    raster_->set_activations({}, {}, {});
    raster_->set_highlight(0, 0);
    set_busy(false);
    connect_live_action_->setEnabled(false);
    disconnect_live_action_->setEnabled(true);
    pause_live_action_->setEnabled(true);
    setWindowTitle(tr("%1 (live) — spikeminer").arg(source));
    statusBar()->showMessage(tr("live: following %1 into %2").arg(source, folder));
}

void MainWindow::disconnect_live() {
    if (live_ == nullptr || !live_->running()) return;
    live_->stop();
    disconnect_live_action_->setEnabled(false);
    statusBar()->showMessage(tr("live: ending the session (the final results are being written)…"));
}

void MainWindow::set_live_paused(bool paused) {
    if (pause_live_action_->isChecked() != paused) {
        pause_live_action_->setChecked(paused);  // its toggled() comes back here
        return;
    }
    live_paused_ = paused;
    show_live();
}

void MainWindow::show_live() {
    if (live_paused_) return;
    if (live_spikes_new_ && live_spikes_) {
        shown_ = live_spikes_;
        raster_->set_recording(live_spikes_);
        live_spikes_new_ = false;
        live_run_new_ = live_run_new_ || live_run_ != nullptr;  // the raster's colours were reset
    }
    if (live_run_new_ && live_run_) {
        if (pipeline_panel_->window() == 0 || run_ != live_run_) pipeline_panel_->set_run(live_run_);
        run_ = live_run_;
        show_assemblies_of(live_run_);
        live_run_new_ = false;
    }
    emit live_shown();
}

}  // namespace spikeminer::gui
