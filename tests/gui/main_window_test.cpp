// The window end to end, headless (Qt's offscreen platform): a simulated recording is
// opened and Analysis > Find assemblies (or Mine episodes) runs with the dialog's
// defaults: the assemblies dock lists the simulation's six assemblies, each in its
// colour; the episodes dock lists chain fragments, and selecting one draws as many
// occurrences over the raster as its count says.
#include "catch.hpp"

#include "main_window.hpp"
#include "raster_view.hpp"
#include "task_end.hpp"

#include "spikeminer/app/io/simulation_io.hpp"
#include "spikeminer/simulator/simulate.hpp"
#include "test_paths.hpp"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QListWidget>
#include <QTimer>

using namespace spikeminer;

namespace {

// Waits for the window's background work (opening, mining, finding) to end.
void wait_for_work(const gui::MainWindow& window) {
    const auto* task = window.findChild<gui::BackgroundTask*>();
    REQUIRE(task != nullptr);
    test::wait_for_end(*task);
}

QAction* action_named(const QWidget& window, const QString& text) {
    for (QAction* action : window.findChildren<QAction*>()) {
        if (action->text() == text) return action;
    }
    return nullptr;
}

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
    auto* list = window.findChild<QListWidget*>(QStringLiteral("episodes"));
    REQUIRE(list != nullptr);
    wait_for_work(window);
    REQUIRE(mine->isEnabled());
    REQUIRE(list->count() > 0);
    // Longest first: the chains (9 neurons at 2-5 ms delays) give episodes of 3 or more.
    const QString first = list->item(0)->text();
    INFO(first.toStdString());
    CHECK(first.count(QStringLiteral("]->")) >= 2);

    // "A -(0,5]-> B ... ×count": the occurrences drawn are the count.
    const auto* raster = window.findChild<gui::RasterView*>();
    REQUIRE(raster != nullptr);
    CHECK(raster->occurrence_count() == 0);
    list->setCurrentRow(0);
    const std::size_t count = first.section(QStringLiteral("×"), -1).toULongLong();
    CHECK(count >= 300);  // 5 a second over 60 s
    CHECK(raster->occurrence_count() == count);
    list->setCurrentRow(-1);
    CHECK(raster->occurrence_count() == 0);
}
