// The pipeline in the window, headless: a simulation is run through the pipeline from the
// window, and what the views show is checked against `spikeminer run` on the same
// simulation (its windows.csv and assemblies.csv, written by another process): the graph
// view's edges and components at every slider step, the assemblies table row by row. Also: the table model
// passes QAbstractItemModelTester; picking an assembly selects it everywhere; a cancelled
// run leaves the run shown as it was; the run exports as `spikeminer run` writes; a saved
// run opens again; the raster orders its rows; every view saves as a picture.
#include "catch.hpp"

#include "assemblies_model.hpp"
#include "assembly_timeline.hpp"
#include "graph_view.hpp"
#include "main_window.hpp"
#include "pipeline_panel.hpp"
#include "raster_view.hpp"
#include "task_end.hpp"

#include "spikeminer/app/figures/figure.hpp"
#include "test_paths.hpp"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QImage>
#include <QListWidget>
#include <QProcess>
#include <QSignalSpy>
#include <QSlider>
#include <QTableView>

#include <algorithm>
#include <filesystem>

using namespace spikeminer;

namespace {

using test::action_named;
using test::run_in_window;
using test::small_run;
using test::wait_for_work;

// A CSV table: its header's names, then rows of fields.
struct Table {
    QStringList header;
    std::vector<QStringList> rows;
    [[nodiscard]] QString at(std::size_t row, const QString& column) const { return rows[row][header.indexOf(column)]; }
};

Table read_csv(const std::string& path) {
    QFile file(QString::fromStdString(path));
    REQUIRE(file.open(QIODevice::ReadOnly | QIODevice::Text));
    Table table;
    table.header = QString::fromUtf8(file.readLine()).trimmed().split(QLatin1Char(','));
    while (!file.atEnd()) table.rows.push_back(QString::fromUtf8(file.readLine()).trimmed().split(QLatin1Char(',')));
    return table;
}

// `spikeminer run` on the same simulation, in another process.
void run_cli(const pipeline::RunConfig& config, const std::string& out) {
    QProcess cli;
    cli.start(QStringLiteral(SPIKEMINER_CLI),
              {"run", "--simulate", QString::fromStdString(config.simulate), "--duration", QString::number(*config.duration_s), "--window",
               QString::number(config.window_s), "--step", QString::number(config.step_s), "--backend", "cpu", "-o", QString::fromStdString(out)});
    REQUIRE(cli.waitForFinished(-1));
    INFO(cli.readAllStandardError().toStdString());
    REQUIRE(cli.exitCode() == 0);
}

}  // namespace

TEST_CASE("pipeline in the window: the views show what spikeminer run writes", "[gui][pipeline-gui]") {
    const pipeline::RunConfig config = small_run();
    const test::TempDir dir;
    run_cli(config, dir.file("cli"));
    const Table windows = read_csv(dir.file("cli/windows.csv"));
    const Table assemblies = read_csv(dir.file("cli/assemblies.csv"));
    REQUIRE(windows.rows.size() == 9);
    REQUIRE_FALSE(assemblies.rows.empty());

    gui::MainWindow window;
    window.show();
    run_in_window(window, config);
    gui::PipelinePanel& panel = *window.pipeline_panel();
    auto* slider = panel.findChild<QSlider*>(QStringLiteral("window slider"));
    REQUIRE(slider != nullptr);
    REQUIRE(slider->maximum() + 1 == static_cast<int>(windows.rows.size()));
    // Forwards, then backwards past the graph's checkpoints.
    for (int step = 0; step < 2 * slider->maximum() + 2; ++step) {
        const int w = step <= slider->maximum() ? step : 2 * slider->maximum() + 1 - step;
        slider->setValue(w);
        INFO("window " << w);
        CHECK(panel.window() == static_cast<std::size_t>(w));
        CHECK(panel.graph()->edge_count() == windows.at(static_cast<std::size_t>(w), "edges").toULongLong());
        CHECK(panel.graph()->component_count() == windows.at(static_cast<std::size_t>(w), "components").toULongLong());
    }

    auto* table = panel.findChild<QTableView*>(QStringLiteral("assemblies table"));
    REQUIRE(table != nullptr);
    const QAbstractItemModel& model = *table->model();
    REQUIRE(model.rowCount() == static_cast<int>(assemblies.rows.size()));
    for (int row = 0; row < model.rowCount(); ++row) {  // sorted by id, as the CSV
        const auto r = static_cast<std::size_t>(row);
        INFO("row " << row);
        CHECK(model.index(row, gui::AssembliesModel::Id).data().toString() == assemblies.at(r, "id"));
        CHECK(model.index(row, gui::AssembliesModel::Windows).data().toString() == assemblies.at(r, "windows"));
        CHECK(model.index(row, gui::AssembliesModel::Activations).data().toString() == assemblies.at(r, "activations"));
        CHECK(model.index(row, gui::AssembliesModel::Members).data().toString() == assemblies.at(r, "members"));
        // The active periods as the CSV gives them ("12.5-80.1 150-210.4"), to the table's 0.1 s.
        const QStringList csv_periods = assemblies.at(r, "active_s").split(QLatin1Char(' '), Qt::SkipEmptyParts);
        const QStringList shown = model.index(row, gui::AssembliesModel::Active).data().toString().split(QStringLiteral(", "), Qt::SkipEmptyParts);
        REQUIRE(shown.size() == csv_periods.size());
        for (int p = 0; p < shown.size(); ++p) {
            const QStringList from_to = csv_periods[p].split(QLatin1Char('-'));
            CHECK(shown[p] == QStringLiteral("%1–%2").arg(from_to[0].toDouble(), 0, 'f', 1).arg(from_to[1].toDouble(), 0, 'f', 1));
        }
        CHECK(model.index(row, gui::AssembliesModel::From).data(Qt::UserRole).toDouble() ==
              Approx(assemblies.at(r, "start_s").toDouble()).margin(1e-5));
    }
}

TEST_CASE("pipeline in the window: the assemblies model is a well-behaved table", "[gui][pipeline-gui]") {
    gui::MainWindow window;
    auto* model = window.pipeline_panel()->findChild<gui::AssembliesModel*>();
    REQUIRE(model != nullptr);
    // Watching from the start: the run's reset and the data after it.
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    run_in_window(window, small_run());
    REQUIRE(model->rowCount() > 0);
    CHECK(model->columnCount() == gui::AssembliesModel::Columns);
    // The Assemblies dock lists the run's assemblies with their members and activity.
    auto* list = window.findChild<QListWidget*>(QStringLiteral("assemblies"));
    REQUIRE(list != nullptr);
    REQUIRE(list->count() == model->rowCount());
    const QString first = list->item(0)->text();
    CHECK(first.startsWith(model->index(0, gui::AssembliesModel::Id).data().toString() + QStringLiteral(": ") +
                           model->index(0, gui::AssembliesModel::Size).data().toString() + QStringLiteral(" neurons: ")));
    CHECK(first.contains(QStringLiteral("; active ")));
    // Sizes sort as numbers, not text.
    auto* table = window.pipeline_panel()->findChild<QTableView*>(QStringLiteral("assemblies table"));
    table->sortByColumn(gui::AssembliesModel::Size, Qt::DescendingOrder);
    const QAbstractItemModel& sorted = *table->model();
    for (int row = 1; row < sorted.rowCount(); ++row) {
        CHECK(sorted.index(row - 1, gui::AssembliesModel::Size).data().toInt() >= sorted.index(row, gui::AssembliesModel::Size).data().toInt());
    }
}

TEST_CASE("pipeline in the window: picking an assembly selects it in the table, the timeline and the raster", "[gui][pipeline-gui]") {
    gui::MainWindow window;
    window.show();
    run_in_window(window, small_run());
    gui::PipelinePanel& panel = *window.pipeline_panel();
    QSignalSpy selected(&panel, &gui::PipelinePanel::assembly_selected);
    auto* table = panel.findChild<QTableView*>(QStringLiteral("assemblies table"));
    table->selectRow(1);
    REQUIRE(selected.count() == 1);
    const int chosen = selected.front().front().toInt();
    REQUIRE(chosen >= 0);
    // The table's row 1 is that assembly (sorted by id, as the result), and the raster marks
    // as many activations as the table says.
    CHECK(chosen == 1);
    const auto* raster = window.raster();
    CHECK(raster->activation_count() == table->model()->index(1, gui::AssembliesModel::Activations).data().toULongLong());
    CHECK(raster->activation_count() > 0);
    // The timeline picks an assembly too, and the table follows.
    auto* timeline = panel.findChild<gui::AssemblyTimeline*>();
    REQUIRE(timeline != nullptr);
    emit timeline->clicked(0, 2);
    CHECK(panel.window() == 2);
    REQUIRE(selected.count() == 2);
    CHECK(selected.back().front().toInt() == 0);
    REQUIRE(table->selectionModel()->selectedRows().size() == 1);
    CHECK(table->selectionModel()->selectedRows().front().row() == 0);
    table->clearSelection();
    CHECK(selected.count() == 3);
    CHECK(selected.back().front().toInt() == -1);
    CHECK(raster->activation_count() == 0);
}

TEST_CASE("pipeline in the window: a cancelled run leaves the run shown as it was", "[gui][pipeline-gui]") {
    gui::MainWindow window;
    run_in_window(window, small_run());
    gui::PipelinePanel& panel = *window.pipeline_panel();
    panel.show_window(4);
    const std::size_t edges = panel.graph()->edge_count();
    auto* task = window.findChild<gui::BackgroundTask*>();
    pipeline::RunConfig slow = small_run();
    slow.step_s = 0.01;  // 4,000 windows
    window.run_pipeline(slow);
    REQUIRE(task->busy());
    QSignalSpy cancelled(task, &gui::BackgroundTask::cancelled);
    task->cancel();
    test::wait_for_end(*task);
    CHECK(cancelled.count() == 1);
    CHECK(panel.window() == 4);
    CHECK(panel.graph()->edge_count() == edges);
    CHECK(panel.findChild<QSlider*>(QStringLiteral("window slider"))->maximum() == 8);
}

TEST_CASE("pipeline in the window: export writes the run's folder as spikeminer run does", "[gui][pipeline-gui]") {
    gui::MainWindow window;
    run_in_window(window, small_run());
    const test::TempDir dir;
    window.export_results(QString::fromStdString(dir.file("export")));
    wait_for_work(window);
    for (const char* name : {"results.h5", "summary.json", "assemblies.csv", "episodes.csv", "windows.csv"}) {
        INFO(name);
        CHECK(std::filesystem::is_regular_file(dir.file(std::string("export/") + name)));
    }
    run_cli(small_run(), dir.file("cli"));
    for (const char* table : {"assemblies.csv", "windows.csv", "episodes.csv"}) {
        INFO(table);
        QFile gui_file(QString::fromStdString(dir.file(std::string("export/") + table)));
        QFile cli_file(QString::fromStdString(dir.file(std::string("cli/") + table)));
        REQUIRE(gui_file.open(QIODevice::ReadOnly));
        REQUIRE(cli_file.open(QIODevice::ReadOnly));
        CHECK(gui_file.readAll() == cli_file.readAll());
    }
}

TEST_CASE("pipeline in the window: a run's results.h5 opens as it was run, with or without its recording", "[gui][pipeline-gui]") {
    const test::TempDir dir;
    // A recording file, and spikeminer run on it.
    QProcess simulate;
    simulate.start(QStringLiteral(SPIKEMINER_CLI), {"simulate", "--scenario", "demo", "--duration", "60", "-o", QString::fromStdString(dir.file("demo.h5"))});
    REQUIRE(simulate.waitForFinished(-1));
    REQUIRE(simulate.exitCode() == 0);
    QProcess cli;
    cli.start(QStringLiteral(SPIKEMINER_CLI), {"run", QString::fromStdString(dir.file("demo.h5")), "--window", "20", "--step", "5", "--backend", "cpu",
                                               "-o", QString::fromStdString(dir.file("run"))});
    REQUIRE(cli.waitForFinished(-1));
    REQUIRE(cli.exitCode() == 0);
    const Table windows = read_csv(dir.file("run/windows.csv"));

    for (const bool moved : {false, true}) {
        INFO((moved ? "recording moved away" : "recording in place"));
        if (moved) std::filesystem::rename(dir.file("demo.h5"), dir.file("elsewhere.h5"));
        gui::MainWindow window;
        QSignalSpy shown(&window, &gui::MainWindow::run_shown);
        window.open_results(QString::fromStdString(dir.file("run/results.h5")));
        wait_for_work(window);
        REQUIRE(shown.wait());
        gui::PipelinePanel& panel = *window.pipeline_panel();
        auto* slider = panel.findChild<QSlider*>(QStringLiteral("window slider"));
        REQUIRE(slider->maximum() + 1 == static_cast<int>(windows.rows.size()));
        for (int w = 0; w <= slider->maximum(); ++w) {
            slider->setValue(w);
            CHECK(panel.graph()->edge_count() == windows.at(static_cast<std::size_t>(w), "edges").toULongLong());
        }
        REQUIRE(window.loaded() != nullptr);
        CHECK(window.loaded()->summary.neurons == 100);
        CHECK((window.loaded()->summary.spikes == 0) == moved);
        // Without its spikes the run is shown, not run again or exported as if it had them.
        const auto* run_again = action_named(window, QStringLiteral("&Run pipeline…"));
        REQUIRE(run_again != nullptr);
        CHECK(run_again->isEnabled() == !moved);
        CHECK(action_named(window, QStringLiteral("&Export results…"))->isEnabled() == !moved);
    }
}

TEST_CASE("pipeline in the window: the raster orders its rows by label, rate or assembly", "[gui][pipeline-gui]") {
    gui::MainWindow window;
    run_in_window(window, small_run());
    gui::RasterView& raster = *window.raster();
    const SpikeTrains& trains = *window.loaded()->trains;
    raster.set_order(gui::RasterView::RowOrder::Label);
    for (std::size_t row = 0; row < trains.num_neurons(); ++row) CHECK(raster.neuron_at_row(row) == row);
    raster.set_order(gui::RasterView::RowOrder::Rate);
    std::vector<bool> seen(trains.num_neurons(), false);
    for (std::size_t row = 0; row < trains.num_neurons(); ++row) {
        seen[raster.neuron_at_row(row)] = true;
        if (row > 0) CHECK(trains.spike_count(raster.neuron_at_row(row - 1)) >= trains.spike_count(raster.neuron_at_row(row)));
    }
    CHECK(std::all_of(seen.begin(), seen.end(), [](bool s) { return s; }));
    // By assembly: the first rows are the first assembly's members (the table's first row).
    raster.set_order(gui::RasterView::RowOrder::Assembly);
    auto* table = window.pipeline_panel()->findChild<QTableView*>(QStringLiteral("assemblies table"));
    const QStringList first = table->model()->index(0, gui::AssembliesModel::Members).data().toString().split(QLatin1Char(' '));
    REQUIRE_FALSE(first.isEmpty());
    for (int row = 0; row < first.size(); ++row) {
        CHECK(first.contains(QString::number(raster.neuron_at_row(static_cast<std::size_t>(row)))));
    }
}

TEST_CASE("pipeline in the window: every view saves as PNG, and the raster, graph and timeline as SVG", "[gui][pipeline-gui]") {
    gui::MainWindow window;
    window.show();
    run_in_window(window, small_run());
    const test::TempDir dir;
    for (const char* view : {"raster", "graph", "timeline", "panel", "window"}) {
        INFO(view);
        const QString png = QString::fromStdString(dir.file(std::string(view) + ".png"));
        CHECK(window.save_picture(png, QString::fromLatin1(view)).isEmpty());
        const QImage image(png);
        CHECK_FALSE(image.isNull());
    }
    for (const char* view : {"raster", "graph", "timeline"}) {
        INFO(view);
        const std::string svg = dir.file(std::string(view) + ".svg");
        const QString error = window.save_picture(QString::fromStdString(svg), QString::fromLatin1(view));
        if (!figures::figures_available()) {
            CHECK_FALSE(error.isEmpty());
            continue;
        }
        CHECK(error.isEmpty());
        QFile file(QString::fromStdString(svg));
        REQUIRE(file.open(QIODevice::ReadOnly));
        CHECK(file.readAll().contains("<svg"));
    }
    CHECK_FALSE(window.save_picture(QString::fromStdString(dir.file("window.svg")), QStringLiteral("window")).isEmpty());
}
