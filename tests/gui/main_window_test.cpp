// The window end to end, headless (Qt's offscreen platform): a simulated recording is
// opened, Analysis > Find assemblies runs with the dialog's defaults, and the assemblies
// dock lists the simulation's six assemblies, each in its colour.
#include "catch.hpp"

#include "main_window.hpp"

#include "spikeminer/app/io/simulation_io.hpp"
#include "spikeminer/simulator/simulate.hpp"
#include "test_paths.hpp"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QElapsedTimer>
#include <QListWidget>
#include <QTimer>

using namespace spikeminer;

namespace {

// Processes events until `done` holds (or 20 s have passed).
template <typename Done>
bool process_until(Done done) {
    QElapsedTimer clock;
    clock.start();
    while (!done() && clock.elapsed() < 20'000) QApplication::processEvents(QEventLoop::AllEvents, 10);
    return done();
}

QAction* action_named(const QWidget& window, const QString& text) {
    for (QAction* action : window.findChildren<QAction*>()) {
        if (action->text() == text) return action;
    }
    return nullptr;
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
    REQUIRE(process_until([&] { return find->isEnabled(); }));

    // The dialog is modal: accept it with its defaults once it is up.
    QTimer::singleShot(0, [] {
        for (QWidget* widget : QApplication::topLevelWidgets()) {
            if (auto* dialog = qobject_cast<QDialog*>(widget); dialog != nullptr && dialog->isVisible()) dialog->accept();
        }
    });
    find->trigger();
    auto* list = window.findChild<QListWidget*>();
    REQUIRE(list != nullptr);
    REQUIRE(process_until([&] { return list->count() > 0 && find->isEnabled(); }));
    REQUIRE(list->count() == 6);
    CHECK(list->item(0)->text().startsWith(QStringLiteral("1: 7 neurons: ")));
    CHECK(list->item(0)->foreground().color() != list->item(1)->foreground().color());
}
