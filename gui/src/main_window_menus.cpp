// The window's menus and status bar (main_window.cpp has the rest of MainWindow).
#include "main_window.hpp"

#include "app_settings.hpp"
#include "background_task.hpp"
#include "device_dialog.hpp"
#include "graph_view.hpp"
#include "picture_size.hpp"
#include "pipeline_panel.hpp"
#include "raster_view.hpp"

#include "spikeminer/app/figures/figure.hpp"

#include <QActionGroup>
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>

#include <algorithm>
#include <functional>

namespace spikeminer::gui {

void MainWindow::create_menus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    open_action_ = file->addAction(tr("&Open…"), this, &MainWindow::choose_file);
    open_action_->setShortcut(QKeySequence::Open);
    open_results_action_ = file->addAction(tr("Open r&esults…"), this, &MainWindow::choose_results);
    open_results_action_->setStatusTip(tr("Show a finished run (results.h5 of spikeminer run) without computing it again"));
    recent_menu_ = file->addMenu(tr("Open &Recent"));
    update_recent_files({});
    simulate_action_ = file->addAction(tr("&Simulate…"), this, &MainWindow::choose_simulation);
    simulate_action_->setStatusTip(tr("Simulate a network with embedded firing chains and assemblies, keeping the ground truth"));
    connect_live_action_ = file->addAction(tr("Connect to &live source…"), this, &MainWindow::choose_live_source);
    connect_live_action_->setStatusTip(tr("Follow a recording while it is made (a growing file or a ZeroMQ socket), as spikeminer live"));
    disconnect_live_action_ = file->addAction(tr("&Disconnect live source"), this, &MainWindow::disconnect_live);
    disconnect_live_action_->setEnabled(false);
    file->addSeparator();
    export_action_ = file->addAction(tr("&Export results…"), this, &MainWindow::choose_export);
    export_action_->setStatusTip(tr("Write the run's tables, results.h5 and figures (SVG and PNG) into a new folder"));
    export_action_->setEnabled(false);
    QMenu* picture = picture_menu_ = file->addMenu(tr("Save &picture"));
    // The raster, the graph and the timeline are drawn as figures at a size the user
    // chooses (in a build with figures; else as on screen); the panel and the window as on screen.
    const auto add_picture = [this, picture](const QString& text, const QString& view, const QString& name, bool figure) {
        picture->addAction(text, this, [this, view, name, figure] {
            const QString filters = figure ? tr("PNG images (*.png);;SVG drawings (*.svg)") : tr("PNG images (*.png)");
            const QString path = QFileDialog::getSaveFileName(this, tr("Save picture"), QDir(settings::last_dir()).filePath(view + QStringLiteral(".png")),
                                                              filters);
            if (path.isEmpty()) return;
            settings::remember_dir(path);
            std::optional<QSize> size;
            if (figure && figures::figures_available()) {
                PictureSizeDialog dialog(name, settings::picture_size(view), this);
                if (dialog.exec() != QDialog::Accepted) return;
                size = dialog.picture_size();
                settings::set_picture_size(view, *size);
            }
            const QString error = save_picture(path, view, size);
            if (!error.isEmpty()) QMessageBox::warning(this, tr("Save picture"), error);
        });
    };
    add_picture(tr("&Raster…"), QStringLiteral("raster"), tr("raster"), true);
    add_picture(tr("Co-firing &graph…"), QStringLiteral("graph"), tr("co-firing graph"), true);
    add_picture(tr("Assemblies' &timeline…"), QStringLiteral("timeline"), tr("assemblies' timeline"), true);
    add_picture(tr("&Through time panel…"), QStringLiteral("panel"), {}, false);
    add_picture(tr("&Window…"), QStringLiteral("window"), {}, false);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* fit = view->addAction(tr("&Fit to recording"), raster_, &RasterView::fit);
    pause_live_action_ = view->addAction(tr("&Pause live view"));
    pause_live_action_->setCheckable(true);
    pause_live_action_->setEnabled(false);
    connect(pause_live_action_, &QAction::toggled, this, &MainWindow::set_live_paused);
    fit->setShortcuts({QKeySequence(Qt::Key_F), QKeySequence(Qt::CTRL | Qt::Key_0)});
    fit->setStatusTip(tr("Show the whole recording; the wheel zooms time, Ctrl+wheel zooms neurons, drag pans"));
    QMenu* order = view->addMenu(tr("&Order neurons by"));
    auto* orders = new QActionGroup(this);
    const int saved = settings::row_order();
    for (const auto& [text, value] : {std::pair{tr("&Label"), RasterView::RowOrder::Label}, std::pair{tr("&Firing rate"), RasterView::RowOrder::Rate},
                                      std::pair{tr("&Assembly"), RasterView::RowOrder::Assembly}}) {
        QAction* action = order->addAction(text, this, [this, value] {
            raster_->set_order(value);
            settings::set_row_order(static_cast<int>(value));
        });
        action->setCheckable(true);
        action->setChecked(static_cast<int>(value) == saved);
        orders->addAction(action);
    }
    raster_->set_order(static_cast<RasterView::RowOrder>(std::clamp(saved, 0, 2)));

    QMenu* analysis = menuBar()->addMenu(tr("&Analysis"));
    run_action_ = analysis->addAction(tr("&Run pipeline…"), this, &MainWindow::choose_run);
    run_action_->setShortcut(Qt::CTRL | Qt::Key_R);
    run_action_->setStatusTip(tr("Episodes, co-firing windows, their graphs, cliques and assemblies through time, as spikeminer run"));
    run_action_->setEnabled(false);
    analysis->addSeparator();
    mine_action_ = analysis->addAction(tr("Mine &episodes…"), this, &MainWindow::mine_episodes);
    mine_action_->setStatusTip(tr("Sequences of neurons that fire in order, with set delays, more often than a threshold"));
    mine_action_->setEnabled(false);
    assemblies_action_ = analysis->addAction(tr("Find &assemblies…"), this, &MainWindow::find_assemblies);
    assemblies_action_->setStatusTip(tr("Groups of neurons that all fire together more often than chance"));
    assemblies_action_->setEnabled(false);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("Run the &demo"), this, &MainWindow::run_demo)
        ->setStatusTip(tr("Simulate four minutes of 100 neurons with chains and assemblies that come and go, and run the pipeline"));
    help->addAction(tr("&Devices…"), this, [this] { show_device_dialog(this); });
    help->addAction(tr("&About spikeminer"), this, [this] {
        QMessageBox::about(this, tr("About spikeminer"),
                           tr("<p><b>spikeminer %1</b></p><p>Finds repeating firing sequences and neuron "
                              "assemblies in spike trains.</p>")
                               .arg(QApplication::applicationVersion()));
    });
}

void MainWindow::create_status_bar() {
    hover_label_ = new QLabel(this);
    statusBar()->addWidget(hover_label_, 1);
    connect(raster_, &RasterView::hover_changed, hover_label_, &QLabel::setText);

    task_label_ = new QLabel(this);
    task_label_->setMaximumWidth(360);
    progress_bar_ = new QProgressBar(this);
    progress_bar_->setMaximumWidth(220);
    progress_bar_->setRange(0, 1000);
    cancel_button_ = new QPushButton(tr("Cancel"), this);
    connect(cancel_button_, &QPushButton::clicked, task_, &BackgroundTask::cancel);
    statusBar()->addPermanentWidget(task_label_);
    statusBar()->addPermanentWidget(progress_bar_);
    statusBar()->addPermanentWidget(cancel_button_);
    set_busy(false);
}

}  // namespace spikeminer::gui
