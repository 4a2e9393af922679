#include "main_window.hpp"

#include "device_dialog.hpp"
#include "load_worker.hpp"
#include "raster_view.hpp"
#include "summary_panel.hpp"

#include <QApplication>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>

namespace spikeminer::gui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("spikeminer"));
    setAcceptDrops(true);

    raster_ = new RasterView(this);
    setCentralWidget(raster_);

    summary_ = new SummaryPanel(this);
    auto* dock = new QDockWidget(tr("Recording"), this);
    dock->setObjectName(QStringLiteral("summary"));
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    dock->setWidget(summary_);
    addDockWidget(Qt::RightDockWidgetArea, dock);
    resizeDocks({dock}, {340}, Qt::Horizontal);

    worker_ = new LoadWorker(this);
    connect(worker_, &LoadWorker::progress, this, &MainWindow::on_progress);
    connect(worker_, &LoadWorker::loaded, this, &MainWindow::on_loaded);
    connect(worker_, &LoadWorker::failed, this, &MainWindow::on_failed);
    connect(worker_, &LoadWorker::cancelled, this, &MainWindow::on_cancelled);

    create_menus();
    create_status_bar();
    resize(1200, 800);
}

void MainWindow::create_menus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    open_action_ = file->addAction(tr("&Open…"), this, &MainWindow::choose_file);
    open_action_->setShortcut(QKeySequence::Open);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* fit = view->addAction(tr("&Fit to recording"), raster_, &RasterView::fit);
    fit->setShortcuts({QKeySequence(Qt::Key_F), QKeySequence(Qt::CTRL | Qt::Key_0)});
    fit->setStatusTip(tr("Show the whole recording; the wheel zooms time, Ctrl+wheel zooms neurons, drag pans"));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
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
    connect(cancel_button_, &QPushButton::clicked, worker_, &LoadWorker::cancel);
    statusBar()->addPermanentWidget(task_label_);
    statusBar()->addPermanentWidget(progress_bar_);
    statusBar()->addPermanentWidget(cancel_button_);
    set_loading(false);
}

void MainWindow::set_loading(bool loading) {
    task_label_->setVisible(loading);
    progress_bar_->setVisible(loading);
    cancel_button_->setVisible(loading);
    cancel_button_->setEnabled(loading);
    open_action_->setEnabled(!loading);
    if (loading) {
        task_label_->clear();
        progress_bar_->setRange(0, 0);
    }
}

void MainWindow::choose_file() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open spike file"), last_dir_,
        tr("Spike files (*.csv *.txt *.tsv *.dat *.nwb *.h5 *.hdf5);;All files (*)"));
    if (!path.isEmpty()) open_file(path);
}

void MainWindow::open_file(const QString& path) {
    if (!worker_->start(path)) {
        statusBar()->showMessage(tr("A file is already loading; cancel it first."), 5000);
        return;
    }
    last_dir_ = QFileInfo(path).absolutePath();
    set_loading(true);
    task_label_->setText(tr("Opening %1…").arg(QFileInfo(path).fileName()));
}

void MainWindow::on_progress(const QString& task, double fraction) {
    task_label_->setText(task_label_->fontMetrics().elidedText(task, Qt::ElideMiddle, task_label_->maximumWidth()));
    if (fraction < 0) {
        progress_bar_->setRange(0, 0);
    } else {
        progress_bar_->setRange(0, 1000);
        progress_bar_->setValue(static_cast<int>(fraction * 1000));
    }
}

void MainWindow::on_loaded(const LoadedRecording& recording) {
    set_loading(false);
    shown_ = recording.trains;
    raster_->set_recording(recording.trains);
    summary_->set_recording(recording);
    setWindowTitle(tr("%1 — spikeminer").arg(QFileInfo(recording.path).fileName()));
    statusBar()->showMessage(tr("Loaded %1: %2 neurons, %3 spikes")
                                 .arg(QFileInfo(recording.path).fileName())
                                 .arg(recording.summary.neurons)
                                 .arg(recording.summary.spikes),
                             5000);
}

void MainWindow::on_failed(const QString& path, const QString& message) {
    set_loading(false);
    QMessageBox box(QMessageBox::Critical, tr("Could not open file"),
                    tr("Could not open %1.").arg(QFileInfo(path).fileName()), QMessageBox::Ok, this);
    box.setInformativeText(message + (shown_ != nullptr ? tr("\n\nThe previous recording is still shown.") : QString()));
    // Messages name a full path; a wider box keeps them from wrapping every few words.
    box.setStyleSheet(QStringLiteral("QLabel#qt_msgbox_informativelabel { min-width: 420px; }"));
    box.exec();
}

void MainWindow::on_cancelled(const QString& path) {
    set_loading(false);
    statusBar()->showMessage(tr("Loading %1 was cancelled.%2")
                                 .arg(QFileInfo(path).fileName(),
                                      shown_ != nullptr ? tr(" The previous recording is still shown.") : QString()),
                             10000);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls() && !worker_->busy()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.front().isLocalFile()) open_file(urls.front().toLocalFile());
}

}  // namespace spikeminer::gui
