#include "main_window.hpp"

#include "assemblies_dialog.hpp"
#include "background_task.hpp"
#include "device_dialog.hpp"
#include "episodes_panel.hpp"
#include "mining_dialog.hpp"
#include "pipeline_panel.hpp"
#include "raster_view.hpp"
#include "run_dialog.hpp"
#include "simulate_dialog.hpp"
#include "summary_panel.hpp"

#include "spikeminer/app/assembly_palette.hpp"
#include "spikeminer/app/pipeline/results.hpp"
#include "spikeminer/core/error.hpp"

#include <QActionGroup>
#include <QApplication>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFile>
#include <QListWidget>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>

#include <algorithm>

namespace spikeminer::gui {
namespace {

// QSettings keys.
const QString kLastDir = QStringLiteral("paths/last_dir");
const QString kRecent = QStringLiteral("paths/recent");
const QString kRunConfig = QStringLiteral("run/config_json");
const QString kRowOrder = QStringLiteral("view/row_order");
constexpr int kMostRecent = 8;

QString last_dir() { return QSettings().value(kLastDir).toString(); }
void remember_dir(const QString& path) { QSettings().setValue(kLastDir, QFileInfo(path).absolutePath()); }

// The run dialog's last settings, over the defaults; settings a newer or older program
// does not take are dropped.
pipeline::RunConfig saved_run_config() {
    pipeline::RunConfig config;
    const QString json = QSettings().value(kRunConfig).toString();
    if (json.isEmpty()) return config;
    try {
        pipeline::apply_json(config, json.toStdString(), "the saved settings");
    } catch (const Error&) {
        return {};
    }
    return config;
}

// Loads (reads or simulates) what `source` names, as `spikeminer run` would.
LoadedRecording load(const QString& name, const pipeline::RunConfig& source, Progress& progress) {
    auto input = std::make_shared<const pipeline::Input>(pipeline::load_input(source, &progress));
    TrainsPtr trains(input, &input->recording.trains);  // shares the input's ownership
    RecordingSummary summary = summarize(*trains);
    return LoadedRecording{name, std::move(input), std::move(trains), std::move(summary), source};
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("spikeminer"));
    setAcceptDrops(true);

    raster_ = new RasterView(this);
    setCentralWidget(raster_);

    const auto add_dock = [this](const QString& title, const QString& name, QWidget* content) {
        auto* dock = new QDockWidget(title, this);
        dock->setObjectName(name);
        dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
        dock->setWidget(content);
        addDockWidget(Qt::RightDockWidgetArea, dock);
        return dock;
    };
    summary_ = new SummaryPanel(this);
    QDockWidget* summary_dock = add_dock(tr("Recording"), QStringLiteral("summary"), summary_);
    episodes_ = new EpisodesPanel(this);
    connect(episodes_, &EpisodesPanel::episode_selected, this, &MainWindow::show_occurrences);
    add_dock(tr("Episodes"), QStringLiteral("episodes"), episodes_);
    assemblies_list_ = new QListWidget(this);
    assemblies_list_->setObjectName(QStringLiteral("assemblies"));
    add_dock(tr("Assemblies"), QStringLiteral("assemblies"), assemblies_list_);
    resizeDocks({summary_dock}, {420}, Qt::Horizontal);
    pipeline_panel_ = new PipelinePanel(this);
    auto* through_time = new QDockWidget(tr("Through time"), this);
    through_time->setObjectName(QStringLiteral("through time"));
    through_time->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    through_time->setWidget(pipeline_panel_);
    addDockWidget(Qt::BottomDockWidgetArea, through_time);
    resizeDocks({through_time}, {360}, Qt::Vertical);
    connect(pipeline_panel_, &PipelinePanel::window_changed, raster_, &RasterView::set_highlight);

    task_ = new BackgroundTask(this);
    connect(task_, &BackgroundTask::progress, this, &MainWindow::on_progress);
    connect(task_, &BackgroundTask::succeeded, this, [this] {
        task_done_();  // first: set_busy then sees what it showed
        set_busy(false);
    });
    connect(task_, &BackgroundTask::failed, this, &MainWindow::on_failed);
    connect(task_, &BackgroundTask::cancelled, this, &MainWindow::on_cancelled);

    create_menus();
    create_status_bar();
    resize(1200, 800);
}

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
    file->addSeparator();
    export_action_ = file->addAction(tr("&Export results…"), this, &MainWindow::choose_export);
    export_action_->setStatusTip(tr("Write the run's tables, results.h5 and figures (SVG and PNG) into a new folder"));
    export_action_->setEnabled(false);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* fit = view->addAction(tr("&Fit to recording"), raster_, &RasterView::fit);
    fit->setShortcuts({QKeySequence(Qt::Key_F), QKeySequence(Qt::CTRL | Qt::Key_0)});
    fit->setStatusTip(tr("Show the whole recording; the wheel zooms time, Ctrl+wheel zooms neurons, drag pans"));
    QMenu* order = view->addMenu(tr("&Order neurons by"));
    auto* orders = new QActionGroup(this);
    const int saved = QSettings().value(kRowOrder, 0).toInt();
    for (const auto& [text, value] : {std::pair{tr("&Label"), RasterView::RowOrder::Label}, std::pair{tr("&Firing rate"), RasterView::RowOrder::Rate},
                                      std::pair{tr("&Assembly"), RasterView::RowOrder::Assembly}}) {
        QAction* action = order->addAction(text, this, [this, value] {
            raster_->set_order(value);
            QSettings().setValue(kRowOrder, static_cast<int>(value));
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

void MainWindow::set_busy(bool busy) {
    task_label_->setVisible(busy);
    progress_bar_->setVisible(busy);
    cancel_button_->setVisible(busy);
    cancel_button_->setEnabled(busy);
    open_action_->setEnabled(!busy);
    recent_menu_->setEnabled(!busy);
    open_results_action_->setEnabled(!busy);
    simulate_action_->setEnabled(!busy);
    run_action_->setEnabled(!busy && shown_ != nullptr);
    export_action_->setEnabled(!busy && run_ != nullptr);
    assemblies_action_->setEnabled(!busy && shown_ != nullptr);
    mine_action_->setEnabled(!busy && shown_ != nullptr);
    if (busy) {
        task_label_->clear();
        progress_bar_->setRange(0, 0);
    }
}

void MainWindow::start_task(const QString& what, const QString& label, const QString& failure, std::function<void(Progress&)> work,
                            std::function<void()> done) {
    if (!task_->start(what, std::move(work))) {
        statusBar()->showMessage(tr("Another task is running; cancel it first."), 5000);
        return;
    }
    task_done_ = std::move(done);
    task_failure_ = failure;
    set_busy(true);
    task_label_->setText(label);
}

void MainWindow::choose_file() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open spike file"), last_dir(),
        tr("Spike files (*.csv *.txt *.tsv *.dat *.nwb *.h5 *.hdf5);;All files (*)"));
    if (!path.isEmpty()) open_file(path);
}

void MainWindow::update_recent_files(const QString& opened) {
    QSettings settings;
    QStringList recent = settings.value(kRecent).toStringList();
    if (!opened.isEmpty()) {
        recent.removeAll(opened);
        recent.prepend(opened);
        while (recent.size() > kMostRecent) recent.removeLast();
        settings.setValue(kRecent, recent);
    }
    recent_menu_->clear();
    for (const QString& path : recent) recent_menu_->addAction(path, this, [this, path] { open_file(path); });
    recent_menu_->setEnabled(!recent.isEmpty() && (task_ == nullptr || !task_->busy()));
}

void MainWindow::open_file(const QString& path) {
    auto result = std::make_shared<LoadedRecording>();
    const QString name = QFileInfo(path).fileName();
    pipeline::RunConfig source;
    source.input = QFile::encodeName(path).toStdString();
    start_task(
        name, tr("Opening %1…").arg(name), tr("Could not open %1.").arg(name),
        [path, source, result](Progress& progress) { *result = load(path, source, progress); },
        [this, result, path] {
            on_loaded(*result);
            update_recent_files(path);
        });
    remember_dir(path);
}

void MainWindow::choose_results() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a run's results"), last_dir(),
                                                      tr("Pipeline results (results.h5);;HDF5 files (*.h5);;All files (*)"));
    if (!path.isEmpty()) open_results(path);
}

void MainWindow::open_results(const QString& path) {
    struct Opened {
        LoadedRecording recording;
        RunPtr run;
        std::string missing;
    };
    auto opened = std::make_shared<Opened>();
    const QString name = QFileInfo(path).fileName();
    start_task(
        name, tr("Opening %1…").arg(name), tr("Could not open the results %1.").arg(name),
        [path, opened](Progress& progress) {
            opened->run = open_saved_run(QFile::encodeName(path).toStdString(), progress, opened->missing);
            const InputPtr& input = opened->run->input;
            TrainsPtr trains(input, &input->recording.trains);
            opened->recording = LoadedRecording{path, input, trains, summarize(*trains), opened->run->config};
        },
        [this, opened] {
            on_loaded(opened->recording);
            on_run(opened->run);
            if (!opened->missing.empty()) statusBar()->showMessage(QString::fromStdString(opened->missing), 20000);
        });
    remember_dir(path);
}

void MainWindow::choose_simulation() {
    SimulateDialog dialog(this);
    if (dialog.exec() == QDialog::Accepted) simulate(dialog.config());
}

void MainWindow::simulate(const pipeline::RunConfig& source) {
    auto result = std::make_shared<LoadedRecording>();
    const QString name = tr("simulated scenario %1, seed %2").arg(QString::fromStdString(source.simulate)).arg(source.seed);
    start_task(
        tr("simulation"), tr("Simulating…"), tr("Could not simulate %1.").arg(name),
        [name, source, result](Progress& progress) { *result = load(name, source, progress); },
        [this, result] { on_loaded(*result); });
}

void MainWindow::run_demo() {
    const pipeline::RunConfig demo = pipeline::demo_config();
    auto result = std::make_shared<LoadedRecording>();
    const QString name = tr("simulated scenario demo, seed %1").arg(demo.seed);
    start_task(
        tr("demo"), tr("Simulating the demo…"), tr("Could not simulate the demo."),
        [name, demo, result](Progress& progress) { *result = load(name, demo, progress); },
        [this, result, demo] {
            on_loaded(*result);
            // After this task has ended (its completion handler is running now).
            QMetaObject::invokeMethod(this, [this, demo] { run_pipeline(demo); }, Qt::QueuedConnection);
        });
}

void MainWindow::choose_run() {
    if (loaded_ == nullptr) return;
    pipeline::RunConfig start = saved_run_config();
    start.input = loaded_->source.input;
    start.simulate = loaded_->source.simulate;
    start.seed = loaded_->source.seed;
    start.duration_s = loaded_->source.duration_s;
    RunDialog dialog(start, this);
    if (dialog.exec() != QDialog::Accepted) return;
    QSettings().setValue(kRunConfig, QString::fromStdString(pipeline::to_json(dialog.config())));
    run_pipeline(dialog.config());
}

void MainWindow::run_pipeline(const pipeline::RunConfig& config) {
    if (loaded_ == nullptr) return;
    auto result = std::make_shared<RunPtr>();
    start_task(
        tr("pipeline"), tr("Running the pipeline…"), tr("Could not run the pipeline."),
        [input = loaded_->input, config, result](Progress& progress) { *result = run_pipeline_for_view(input, config, progress); },
        [this, result] { on_run(*result); });
}

void MainWindow::on_run(const RunPtr& run) {
    run_ = run;
    pipeline_panel_->set_run(run);
    std::vector<std::vector<NeuronId>> members;
    for (const pipeline::Assembly& a : run->result.assemblies) members.push_back(a.members);
    raster_->set_assemblies(members);
    assemblies_list_->clear();
    QString found = tr("%1 windows, %2 assemblies through time, %3 frequent episodes")
                        .arg(run->result.windows.size())
                        .arg(run->result.assemblies.size())
                        .arg(run->result.episodes.episodes.size());
    if (run->result.recovery) {
        found += tr("; of the ground truth: chains recall %1, assemblies recall %2")
                     .arg(run->result.recovery->chain_recall(), 0, 'f', 2)
                     .arg(run->result.recovery->assembly_recall(), 0, 'f', 2);
    }
    on_mined(run->result.episodes);  // the run's episodes in the episodes dock (its status message replaced below)
    statusBar()->showMessage(found, 15000);
    // Once the task has ended and the status bar shows no progress.
    QMetaObject::invokeMethod(this, [this] { emit run_shown(); }, Qt::QueuedConnection);
}

void MainWindow::choose_export() {
    if (run_ == nullptr) return;
    const QString dir = QFileDialog::getSaveFileName(this, tr("Export results into a new folder"), last_dir(), QString(), nullptr,
                                                     QFileDialog::ShowDirsOnly);
    if (!dir.isEmpty()) export_results(dir);
}

void MainWindow::export_results(const QString& dir) {
    if (run_ == nullptr) return;
    const std::string path = QFile::encodeName(dir).toStdString();
    try {
        pipeline::check_results_dir(path, run_->config);
    } catch (const Error& e) {
        QMessageBox::warning(this, tr("Export results"), QString::fromStdString(e.what()));
        return;
    }
    remember_dir(dir);
    start_task(
        tr("export"), tr("Writing %1…").arg(QFileInfo(dir).fileName()), tr("Could not export the results."),
        [run = run_, path](Progress& progress) { pipeline::write_results(path, *run->input, run->config, run->result, &progress); },
        [this, dir] { statusBar()->showMessage(tr("Results written to %1").arg(dir), 10000); });
}

void MainWindow::find_assemblies() {
    if (shown_ == nullptr) return;
    AssembliesDialog dialog(shown_->time_base(), this);
    if (dialog.exec() != QDialog::Accepted) return;
    auto found = std::make_shared<AssembliesFound>();
    start_task(
        tr("assemblies"), tr("Finding assemblies…"), tr("Could not find assemblies."),
        [trains = shown_, search = dialog.search(), found](Progress& progress) {
            *found = spikeminer::find_assemblies(*trains, search, &progress);
        },
        [this, found] { on_assemblies(*found); });
}

void MainWindow::on_assemblies(const AssembliesFound& found) {
    raster_->set_assemblies(found.assemblies);
    assemblies_list_->clear();
    for (std::size_t a = 0; a < found.assemblies.size(); ++a) {
        QStringList members;
        for (const NeuronId n : found.assemblies[a]) members << QString::fromStdString(shown_->label(n));
        auto* item = new QListWidgetItem(tr("%1: %2 neurons: %3").arg(a + 1).arg(members.size()).arg(members.join(QLatin1Char(' '))),
                                         assemblies_list_);
        item->setForeground(QColor(QString::fromLatin1(assembly_colour(a))));
    }
    statusBar()->showMessage(
        tr("%1 assemblies found; the co-firing graph has %2 edges").arg(found.assemblies.size()).arg(mining::joined_pairs(found.cofiring).size()), 10000);
}

void MainWindow::mine_episodes() {
    if (shown_ == nullptr) return;
    MiningDialog dialog(*shown_, this);
    if (dialog.exec() != QDialog::Accepted) return;
    auto mined = std::make_shared<mining::MiningResult>();
    start_task(
        tr("mining"), tr("Mining episodes…"), tr("Could not mine episodes."),
        [trains = shown_, options = dialog.options(), mined](Progress& progress) mutable {
            options.count.progress = &progress;
            *mined = mining::mine(*trains, options);
        },
        [this, mined] { on_mined(*mined); });
}

void MainWindow::on_mined(const mining::MiningResult& result) {
    raster_->set_occurrences({});
    episodes_->set_episodes(shown_, result.episodes);
    std::size_t longest = 0;
    for (const mining::FrequentEpisode& e : result.episodes) longest = std::max(longest, e.episode.size());
    const QString how = result.levels.empty() ? QString()
                                              : tr(" (%1 on the %2)")
                                                    .arg(QString::fromStdString(mining::counter_name(result.levels.back().counter)),
                                                         result.levels.back().backend == Backend::Cuda ? tr("GPU") : tr("CPU"));
    statusBar()->showMessage(tr("%1 frequent episodes, up to %2 neurons%3")
                                 .arg(result.episodes.size())
                                 .arg(longest)
                                 .arg(how),
                             10000);
}

void MainWindow::show_occurrences(const std::optional<mining::Episode>& episode) {
    if (!episode || shown_ == nullptr) {
        raster_->set_occurrences({});
        return;
    }
    std::vector<std::vector<std::uint32_t>> occurrences;
    try {
        if (!occurrence_finder_) {
            mining::CountOptions cpu;
            cpu.backend = Backend::Cpu;
            occurrence_finder_ = std::make_unique<mining::EpisodeCounter>(*shown_, cpu);
        }
        for (mining::Occurrence& occurrence : occurrence_finder_->occurrences(*episode)) {
            occurrences.push_back(std::move(occurrence.events));
        }
    } catch (const std::exception& e) {  // nothing may leave a slot
        statusBar()->showMessage(tr("Could not find the occurrences: %1").arg(QString::fromStdString(e.what())), 10000);
        raster_->set_occurrences({});
        return;
    }
    statusBar()->showMessage(tr("%1 occurrences drawn").arg(occurrences.size()), 5000);
    raster_->set_occurrences(std::move(occurrences));
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
    occurrence_finder_.reset();  // it reads the recording shown before
    shown_ = recording.trains;
    loaded_ = std::make_shared<const LoadedRecording>(recording);
    run_.reset();
    pipeline_panel_->set_run(nullptr);
    raster_->set_highlight(0, 0);
    assemblies_list_->clear();
    episodes_->set_episodes(nullptr, {});
    raster_->set_recording(recording.trains);
    summary_->set_recording(recording);
    setWindowTitle(tr("%1 — spikeminer").arg(QFileInfo(recording.path).fileName()));
    statusBar()->showMessage(tr("Loaded %1: %2 neurons, %3 spikes")
                                 .arg(QFileInfo(recording.path).fileName())
                                 .arg(recording.summary.neurons)
                                 .arg(recording.summary.spikes),
                             5000);
}

void MainWindow::on_failed(const QString& /*what: named in the failure title*/, const QString& message) {
    set_busy(false);
    emit task_failed(message);
    QMessageBox box(QMessageBox::Critical, tr("spikeminer"), task_failure_, QMessageBox::Ok, this);
    box.setInformativeText(message + (shown_ != nullptr ? tr("\n\nThe recording shown is unchanged.") : QString()));
    // Messages name a full path; a wider box keeps them from wrapping every few words.
    box.setStyleSheet(QStringLiteral("QLabel#qt_msgbox_informativelabel { min-width: 420px; }"));
    box.exec();
}

void MainWindow::on_cancelled(const QString& what) {
    set_busy(false);
    statusBar()->showMessage(tr("%1: cancelled.%2").arg(what, shown_ != nullptr ? tr(" The recording shown is unchanged.") : QString()),
                             10000);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls() && !task_->busy()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.front().isLocalFile()) open_file(urls.front().toLocalFile());
}

}  // namespace spikeminer::gui
