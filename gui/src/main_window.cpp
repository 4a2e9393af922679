#include "main_window.hpp"

#include "app_settings.hpp"
#include "assemblies_dialog.hpp"
#include "assembly_timeline.hpp"
#include "background_task.hpp"
#include "episodes_panel.hpp"
#include "graph_view.hpp"
#include "live_runner.hpp"
#include "mining_dialog.hpp"
#include "picture_size.hpp"
#include "pipeline_panel.hpp"
#include "raster_view.hpp"
#include "run_dialog.hpp"
#include "simulate_dialog.hpp"
#include "summary_panel.hpp"

#include "spikeminer/app/assembly_palette.hpp"
#include "spikeminer/app/figures/raster_figure.hpp"
#include "spikeminer/app/pipeline/results.hpp"
#include "spikeminer/app/pipeline/run_figures.hpp"
#include "spikeminer/core/error.hpp"

#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFile>
#include <QGuiApplication>
#include <QListWidget>
#include <QMenu>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QStatusBar>

#include <algorithm>

namespace spikeminer::gui {
namespace {

// The window at first: room for the raster above and, below it, a co-firing graph of at
// least 700 x 400 pixels with the assemblies' timeline and table beside it.
constexpr QSize kFirstSize{1440, 900};

// kFirstSize, within 95% of the screen's available area (room for the window's frame).
// The offscreen platform's screen (pictures, tests) is a nominal 800 x 600: its windows
// take kFirstSize.
QSize first_size(const QWidget& window) {
    const QScreen* screen = window.screen();
    if (screen == nullptr || QGuiApplication::platformName() == QStringLiteral("offscreen")) return kFirstSize;
    return kFirstSize.boundedTo(screen->availableGeometry().size() * 0.95);
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
    pipeline_panel_ = new PipelinePanel(this);
    auto* through_time = new QDockWidget(tr("Through time"), this);
    through_time->setObjectName(QStringLiteral("through time"));
    through_time->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    through_time->setWidget(pipeline_panel_);
    addDockWidget(Qt::BottomDockWidgetArea, through_time);
    connect(pipeline_panel_, &PipelinePanel::window_changed, raster_, &RasterView::set_highlight);
    connect(pipeline_panel_, &PipelinePanel::assembly_selected, this, &MainWindow::show_activations);

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
    // The right column runs the window's full height (its three docks need it) and the
    // through-time dock sits below the raster, whose windows it steps through. Once the
    // window has its size: the right column 340 pixels wide, the through-time dock (the
    // graph) most of the height below the menus.
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    resize(first_size(*this));
    resizeDocks({summary_dock}, {340}, Qt::Horizontal);
    resizeDocks({through_time}, {height() * 5 / 9}, Qt::Vertical);
}

void MainWindow::set_busy(bool busy) {
    task_label_->setVisible(busy);
    progress_bar_->setVisible(busy);
    cancel_button_->setVisible(busy);
    cancel_button_->setEnabled(busy);
    // A live session holds the window: nothing else is opened or analysed meanwhile.
    const bool free = !busy && (live_ == nullptr || !live_->running());
    open_action_->setEnabled(free);
    recent_menu_->setEnabled(free);
    open_results_action_->setEnabled(free);
    simulate_action_->setEnabled(free);
    connect_live_action_->setEnabled(free);
    // A finished run opened without its recording has neurons but no spikes: nothing to
    // analyse, and an export would describe the recording it names wrongly.
    const bool spikes = shown_ != nullptr && shown_->num_spikes() > 0;
    run_action_->setEnabled(free && spikes);
    export_action_->setEnabled(free && run_ != nullptr && spikes);
    assemblies_action_->setEnabled(free && spikes);
    mine_action_->setEnabled(free && spikes);
    picture_menu_->setEnabled(!busy);
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
        this, tr("Open spike file"), settings::last_dir(),
        tr("Spike files (*.csv *.txt *.tsv *.dat *.nwb *.h5 *.hdf5);;All files (*)"));
    if (!path.isEmpty()) open_file(path);
}

void MainWindow::update_recent_files(const QString& opened) {
    if (!opened.isEmpty()) settings::add_recent_file(opened);
    const QStringList recent = settings::recent_files();
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
    settings::remember_dir(path);
}

void MainWindow::choose_results() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a run's results"), settings::last_dir(),
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
    settings::remember_dir(path);
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
    pipeline::RunConfig start = settings::run_config();
    // What the recording is, as it was loaded; the rest from the last run's settings.
    start.input = loaded_->source.input;
    start.simulate = loaded_->source.simulate;
    start.seed = loaded_->source.seed;
    start.duration_s = loaded_->source.duration_s;
    start.format = loaded_->source.format;
    start.tick = loaded_->source.tick;
    start.duplicates = loaded_->source.duplicates;
    RunDialog dialog(start, this);
    if (dialog.exec() != QDialog::Accepted) return;
    settings::set_run_config(dialog.config());
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

void MainWindow::show_assemblies_of(const RunPtr& run) {
    std::vector<std::vector<NeuronId>> members;
    for (const pipeline::Assembly& a : run->result.assemblies) members.push_back(a.members);
    raster_->set_assemblies(members);
    assemblies_list_->clear();
    const TimeBase& tb = run->trains().time_base();
    for (std::size_t a = 0; a < run->result.assemblies.size(); ++a) {
        const pipeline::Assembly& assembly = run->result.assemblies[a];
        QStringList labels, periods;
        for (const NeuronId n : assembly.members) labels << QString::fromStdString(run->trains().label(n));
        for (const TimeSpan& p : assembly.active) {
            periods << QStringLiteral("%1–%2 s").arg(tb.to_seconds(p.start), 0, 'f', 1).arg(tb.to_seconds(p.end), 0, 'f', 1);
        }
        auto* item = new QListWidgetItem(tr("%1: %2 neurons: %3; active %4; %5 activations")
                                             .arg(assembly.track.id)
                                             .arg(labels.size())
                                             .arg(labels.join(QLatin1Char(' ')), periods.join(QStringLiteral(", ")))
                                             .arg(assembly.activations.size()),
                                         assemblies_list_);
        item->setForeground(QColor(QString::fromLatin1(assembly_colour(a))));
    }
}

void MainWindow::on_run(const RunPtr& run) {
    run_ = run;
    raster_->set_activations({}, {}, {});  // the run before's selection
    raster_->set_highlight(0, 0);
    pipeline_panel_->set_run(run);
    show_assemblies_of(run);
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

QString MainWindow::save_picture(const QString& path, const QString& view, std::optional<QSize> size) {
    const bool figure = view == QStringLiteral("raster") || view == QStringLiteral("graph") || view == QStringLiteral("timeline");
    if (size && !figure) return tr("The %1 is saved as on screen; a size is for the raster, the graph and the timeline.").arg(view);
    if (size && !valid_picture_size(*size)) {
        return tr("A picture is %1 to %2 pixels wide and high, not %3x%4.").arg(kSmallestPicture).arg(kLargestPicture).arg(size->width()).arg(size->height());
    }
    if (!size && !path.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive)) {
        QWidget* shown = view == QStringLiteral("raster")     ? static_cast<QWidget*>(raster_)
                         : view == QStringLiteral("graph")    ? static_cast<QWidget*>(pipeline_panel_->graph())
                         : view == QStringLiteral("timeline") ? static_cast<QWidget*>(findChild<AssemblyTimeline*>())
                         : view == QStringLiteral("panel")    ? static_cast<QWidget*>(pipeline_panel_)
                                                              : static_cast<QWidget*>(this);
        return shown->grab().save(path, "PNG") ? QString() : tr("Could not write %1.").arg(path);
    }
    if (!figure) return tr("The %1 is saved as PNG only.").arg(view);
    // A chosen size in pixels is a figure laid out at a kPngPixelsPerPoint-th of it in points.
    std::optional<figures::Size> points;
    if (size) points = figures::Size{size->width() / figures::kPngPixelsPerPoint, size->height() / figures::kPngPixelsPerPoint};
    try {
        const std::string file = QFile::encodeName(path).toStdString();
        std::vector<std::vector<NeuronId>> members;  // the raster figure draws from them
        figures::Figure drawn;
        if (view == QStringLiteral("raster")) {
            if (shown_ == nullptr) return tr("No recording is shown.");
            if (run_ != nullptr) {
                for (const pipeline::Assembly& a : run_->result.assemblies) members.push_back(a.members);
            }
            const auto [start_s, end_s] = raster_->visible_span();
            const TimeBase& tb = shown_->time_base();
            drawn = figures::raster_figure(*shown_, members, {tb.from_seconds(start_s), tb.from_seconds(end_s)}, {}, points);
        } else {
            if (run_ == nullptr) return tr("Run the pipeline first.");
            drawn = view == QStringLiteral("graph") ? pipeline::graph_figure(run_->trains(), run_->result, pipeline_panel_->window(), run_->layout, points)
                                                    : pipeline::timeline_figure(run_->trains(), run_->result, points);
        }
        if (size) {
            figures::write_picture(file, drawn);
        } else {
            figures::write_figure(file, drawn);
        }
    } catch (const Error& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

void MainWindow::show_activations(int assembly) {
    if (run_ == nullptr || assembly < 0 || static_cast<std::size_t>(assembly) >= run_->result.assemblies.size()) {
        raster_->set_activations({}, {}, {});
        return;
    }
    const auto a = static_cast<std::size_t>(assembly);
    const pipeline::Assembly& selected = run_->result.assemblies[a];
    std::vector<double> seconds;
    for (const Tick t : selected.activations) seconds.push_back(run_->trains().time_base().to_seconds(t));
    raster_->set_activations(std::move(seconds), selected.members, QColor(QString::fromLatin1(assembly_colour(a))));
    statusBar()->showMessage(tr("assembly %1: %2 activations marked over the raster").arg(selected.track.id).arg(selected.activations.size()), 5000);
}

void MainWindow::choose_export() {
    if (run_ == nullptr) return;
    const QString dir = QFileDialog::getSaveFileName(this, tr("Export results into a new folder"), settings::last_dir());
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
    settings::remember_dir(dir);
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
    raster_->set_activations({}, {}, {});
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
