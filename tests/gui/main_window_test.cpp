// The window end to end, headless (Qt's offscreen platform): a simulated recording is
// opened and Analysis > Find assemblies (or Mine episodes) runs with the dialog's
// defaults: the assemblies dock lists the simulation's six assemblies, each in its
// colour; the episodes table lists chain fragments, longest first, and selecting one draws
// as many occurrences over the raster as its count says; its filter keeps the episodes of
// a neuron.
#include "catch.hpp"

#include "episodes_model.hpp"
#include "episodes_panel.hpp"
#include "main_window.hpp"
#include "raster_view.hpp"
#include "task_end.hpp"

#include "spikeminer/app/io/simulation_io.hpp"
#include "spikeminer/simulator/simulate.hpp"
#include "test_paths.hpp"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QLineEdit>
#include <QListWidget>
#include <QSignalSpy>
#include <QTableView>
#include <QTimer>

using namespace spikeminer;

namespace {

using test::action_named;
using test::wait_for_work;

// Accepts the modal dialog, with its defaults, once it is up.
void accept_dialog_when_shown() {
    QTimer::singleShot(0, [] {
        for (QWidget* widget : QApplication::topLevelWidgets()) {
            if (auto* dialog = qobject_cast<QDialog*>(widget); dialog != nullptr && dialog->isVisible()) dialog->accept();
        }
    });
}

}  // namespace

TEST_CASE("window: a simulated recording's assemblies are found and listed", "[gui]") {
    simulator::NetworkConfig config = simulator::scenario("assemblies");
    config.duration_s = 300;
    config.seed = 11;
    const test::TempDir dir;
    const std::string path = dir.file("assemblies.h5");
    io::write_simulation(path, simulator::simulate(config), io::SpikeFormat::Spikeminer);

    gui::MainWindow window;
    window.show();
    QAction* find = action_named(window, QStringLiteral("Find &assemblies…"));
    REQUIRE(find != nullptr);
    CHECK_FALSE(find->isEnabled());  // nothing loaded yet
    window.open_file(QString::fromStdString(path));
    wait_for_work(window);
    REQUIRE(find->isEnabled());

    accept_dialog_when_shown();
    find->trigger();
    auto* list = window.findChild<QListWidget*>(QStringLiteral("assemblies"));
    REQUIRE(list != nullptr);
    wait_for_work(window);
    REQUIRE(find->isEnabled());
    REQUIRE(list->count() == 6);
    CHECK(list->item(0)->text().startsWith(QStringLiteral("1: 7 neurons: ")));
    CHECK(list->item(0)->foreground().color() != list->item(1)->foreground().color());
}

TEST_CASE("window: episodes mined from a simulated recording are listed and their occurrences drawn", "[gui]") {
    simulator::NetworkConfig config = simulator::scenario("paper");
    config.duration_s = 60;
    const test::TempDir dir;
    const std::string path = dir.file("paper.h5");
    io::write_simulation(path, simulator::simulate(config), io::SpikeFormat::Spikeminer);

    gui::MainWindow window;
    window.show();
    QAction* mine = action_named(window, QStringLiteral("Mine &episodes…"));
    REQUIRE(mine != nullptr);
    CHECK_FALSE(mine->isEnabled());
    window.open_file(QString::fromStdString(path));
    wait_for_work(window);
    REQUIRE(mine->isEnabled());

    accept_dialog_when_shown();  // delays (0,5] and (5,10] ms, 5 a second, up to 5 neurons
    mine->trigger();
    auto* table = window.findChild<QTableView*>(QStringLiteral("episodes"));
    REQUIRE(table != nullptr);
    wait_for_work(window);
    REQUIRE(mine->isEnabled());
    const QAbstractItemModel& rows = *table->model();
    REQUIRE(rows.rowCount() > 0);
    // Longest first: the chains (9 neurons at 2-5 ms delays) give episodes of 3 or more.
    const QString first = rows.index(0, gui::EpisodesModel::Text).data().toString();
    INFO(first.toStdString());
    CHECK(first.count(QStringLiteral("]->")) >= 2);
    for (int row = 1; row < rows.rowCount(); ++row) {
        CHECK(rows.index(row - 1, gui::EpisodesModel::Length).data().toInt() >= rows.index(row, gui::EpisodesModel::Length).data().toInt());
    }

    // Selecting it draws as many occurrences as its count.
    const auto* raster = window.findChild<gui::RasterView*>();
    REQUIRE(raster != nullptr);
    CHECK(raster->occurrence_count() == 0);
    table->selectRow(0);
    const std::size_t count = rows.index(0, gui::EpisodesModel::Count).data().toULongLong();
    CHECK(count >= 300);  // 5 a second over 60 s
    CHECK(raster->occurrence_count() == count);
    table->clearSelection();
    CHECK(raster->occurrence_count() == 0);

    // The filter keeps the episodes that hold a neuron, each of them.
    auto* neuron = window.findChild<gui::EpisodesPanel*>()->findChild<QLineEdit*>();
    REQUIRE(neuron != nullptr);
    const int all = rows.rowCount();
    neuron->setText(QStringLiteral("5"));  // in the first chain
    const int with_5 = rows.rowCount();
    CHECK(with_5 > 0);
    CHECK(with_5 < all);
    for (int row = 0; row < with_5; ++row) {
        CHECK(rows.index(row, gui::EpisodesModel::Text).data().toString().split(QLatin1Char(' ')).contains(QStringLiteral("5")));
    }
    neuron->clear();
    CHECK(rows.rowCount() == all);
}

TEST_CASE("window: the sample recordings open, and a damaged file is refused with the recording shown kept", "[gui]") {
    gui::MainWindow window;
    QSignalSpy failed(&window, &gui::MainWindow::task_failed);  // its message box is closed by wait_for_work
    const struct {
        const char* file;
        std::size_t neurons;
        std::size_t spikes;
    } samples[] = {{"A8604-211122.nwb", 3, 21354}, {"songbird_spikes.txt", 74, 3336}};
    for (const auto& sample : samples) {
        INFO(sample.file);
        window.open_file(QString::fromStdString(test::data_file(sample.file)));
        wait_for_work(window);
        REQUIRE(failed.count() == 0);
        REQUIRE(window.loaded() != nullptr);
        CHECK(window.loaded()->summary.neurons == sample.neurons);
        CHECK(window.loaded()->summary.spikes == sample.spikes);
    }
    window.open_file(QString::fromStdString(test::data_file("hdf5-crash-1.h5")));
    wait_for_work(window);
    REQUIRE(failed.count() == 1);
    CHECK(failed.front().front().toString().contains(QStringLiteral("hdf5-crash-1.h5")));
    CHECK(window.loaded()->summary.neurons == 74);  // the songbird recording stays
}
