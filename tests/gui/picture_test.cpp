// The co-firing graph's room and its pictures, headless: in the window at its first size
// the graph view is at least 700 x 400 pixels and its labels cover no other label and no
// neuron; the labels' placement on its own (fewer labels, the most wanted first, never a
// pile); a saved picture of the raster, the graph or the timeline is exactly the size
// chosen; the size is remembered; `spikeminer-gui --size` draws one at the size asked and
// refuses a malformed size.
#include "catch.hpp"

#include "app_settings.hpp"
#include "graph_view.hpp"
#include "main_window.hpp"
#include "picture_size.hpp"
#include "pipeline_panel.hpp"
#include "raster_view.hpp"
#include "task_end.hpp"

#include "spikeminer/app/figures/figure.hpp"
#include "spikeminer/app/figures/graph_drawing.hpp"
#include "test_paths.hpp"

#include <QFile>
#include <QImage>
#include <QProcess>

#include <vector>

using namespace spikeminer;

namespace {

// Whether any two of `boxes` overlap.
bool any_overlap(const std::vector<QRectF>& boxes) {
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        for (std::size_t j = i + 1; j < boxes.size(); ++j) {
            if (boxes[i].intersects(boxes[j])) return true;
        }
    }
    return false;
}

// spikeminer-gui with `arguments`; its exit code, its error output in `error`.
int run_gui(const QStringList& arguments, QString& error) {
    QProcess gui;
    gui.start(QStringLiteral(SPIKEMINER_GUI), arguments);
    REQUIRE(gui.waitForFinished(-1));
    error = QString::fromLocal8Bit(gui.readAllStandardError());
    return gui.exitStatus() == QProcess::NormalExit ? gui.exitCode() : -1;
}

}  // namespace

TEST_CASE("graph view: at the window's first size it is at least 700 x 400 and its labels overlap nothing", "[gui][picture]") {
    gui::MainWindow window;
    window.show();
    test::run_in_window(window, test::small_run());
    gui::PipelinePanel& panel = *window.pipeline_panel();
    panel.show_busiest_window();
    gui::GraphView& graph = *panel.graph();
    INFO("graph view " << graph.width() << " x " << graph.height() << " in a window of " << window.width() << " x " << window.height());
    CHECK(graph.width() >= 700);
    CHECK(graph.height() >= 400);
    CHECK(window.raster()->height() >= 250);  // the raster keeps a useful share

    const auto labels_fit = [&graph] {
        const std::vector<std::pair<NeuronId, QRectF>> labels = graph.label_boxes();
        std::vector<QRectF> boxes;
        for (const auto& [neuron, box] : labels) {
            CHECK(graph.rect().toRectF().contains(box));
            boxes.push_back(box);
        }
        CHECK_FALSE(any_overlap(boxes));
        return labels.size();
    };
    const std::size_t roomy = labels_fit();
    CHECK(roomy > 0);
    // Squashed, the graph labels what fits, fewer when crowded, never overlapping.
    graph.resize(graph.minimumSizeHint());
    const std::size_t least = labels_fit();
    graph.resize(200, 150);
    const std::size_t crowded = labels_fit();
    INFO(roomy << " labels at the first size, " << least << " at the least, " << crowded << " crowded");
    CHECK(least > 0);
    CHECK(least <= roomy);
    CHECK(crowded > 0);
    CHECK(crowded < roomy);
}

TEST_CASE("graph drawing: labels go where they overlap nothing, the most wanted first; fewer when crowded", "[gui][picture]") {
    const figures::Box bounds{0, 0, 400, 300};
    // Ten neurons on one spot: the four places around it that do not cover one another.
    std::vector<figures::LabelWish> crowd(10, figures::LabelWish{{100, 100}, 30, 10});
    const std::vector<std::size_t> order = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0};
    const std::vector<std::optional<figures::Box>> placed = figures::place_labels(crowd, order, 5, bounds);
    REQUIRE(placed.size() == crowd.size());
    std::vector<QRectF> boxes;
    for (std::size_t i = 0; i < placed.size(); ++i) {
        INFO("label " << i);
        CHECK(placed[i].has_value() == (i >= 6));  // the first four in `order`
        if (!placed[i]) continue;
        const figures::Box& b = *placed[i];
        boxes.emplace_back(b.left, b.top, b.width, b.height);
        CHECK_FALSE(b.overlaps({95, 95, 10, 10}));  // the neurons' dot
        CHECK(bounds.contains(b));
    }
    CHECK_FALSE(any_overlap(boxes));
    // Neurons apart: each label right above its neuron; at the right edge, to its left.
    const std::vector<figures::LabelWish> apart = {{{100, 100}, 30, 10}, {{200, 200}, 30, 10}, {{390, 50}, 30, 10}};
    const std::vector<std::optional<figures::Box>> spaced = figures::place_labels(apart, std::vector<std::size_t>{0, 1, 2}, 5, bounds);
    REQUIRE(spaced[0].has_value());
    CHECK(spaced[0]->left == 105);
    CHECK(spaced[0]->top == 90);
    REQUIRE(spaced[1].has_value());
    CHECK(spaced[1]->left == 205);
    REQUIRE(spaced[2].has_value());
    CHECK(spaced[2]->right() == 385);

    // The layout fills the area: stretched along each axis, or scaled alike and centred.
    const std::vector<std::optional<figures::Point>> layout = {figures::Point{0, 0}, std::nullopt, figures::Point{1, 0.5}};
    const figures::LayoutFit fill = figures::fit_layout(layout, {10, 20, 400, 100}, false);
    CHECK(fill({0, 0}).x == Approx(10));
    CHECK(fill({0, 0}).y == Approx(20));
    CHECK(fill({1, 0.5}).x == Approx(410));
    CHECK(fill({1, 0.5}).y == Approx(120));
    const figures::LayoutFit kept = figures::fit_layout(layout, {10, 20, 400, 100}, true);
    CHECK(kept({0, 0}).x == Approx(110));
    CHECK(kept({1, 0.5}).x == Approx(310));
    CHECK(kept({1, 0.5}).y == Approx(120));
}

TEST_CASE("pictures: the raster, the graph and the timeline are saved at the size chosen", "[gui][picture]") {
    gui::MainWindow window;
    window.show();
    test::run_in_window(window, test::small_run());
    const test::TempDir dir;
    for (const char* view : {"raster", "graph", "timeline"}) {
        for (const QSize size : {QSize(1234, 777), QSize(400, 900)}) {
            INFO(view << " at " << size.width() << "x" << size.height());
            const QString png = QString::fromStdString(dir.file(std::string(view) + ".png"));
            const QString error = window.save_picture(png, QString::fromLatin1(view), size);
            if (!figures::figures_available()) {
                CHECK_FALSE(error.isEmpty());
                continue;
            }
            REQUIRE(error.isEmpty());
            const QImage image(png);
            REQUIRE_FALSE(image.isNull());
            CHECK(image.size() == size);
            // Drawn, not blank: some pixels are not the page's white.
            bool drawn = false;
            for (int y = 0; y < image.height() && !drawn; y += 3) {
                for (int x = 0; x < image.width() && !drawn; x += 3) drawn = image.pixel(x, y) != qRgb(255, 255, 255);
            }
            CHECK(drawn);
            const QString svg = QString::fromStdString(dir.file(std::string(view) + ".svg"));
            REQUIRE(window.save_picture(svg, QString::fromLatin1(view), size).isEmpty());
            QFile file(svg);
            REQUIRE(file.open(QIODevice::ReadOnly));
            const QByteArray text = file.readAll();
            CHECK(text.contains(QStringLiteral("width=\"%1px\"").arg(size.width()).toUtf8()));
            CHECK(text.contains(QStringLiteral("height=\"%1px\"").arg(size.height()).toUtf8()));
        }
    }
    // A size is for the figures; one out of range is refused.
    CHECK_FALSE(window.save_picture(QString::fromStdString(dir.file("window.png")), QStringLiteral("window"), QSize(1600, 1000)).isEmpty());
    CHECK_FALSE(window.save_picture(QString::fromStdString(dir.file("graph.png")), QStringLiteral("graph"), QSize(100, 1000)).isEmpty());
}

TEST_CASE("pictures: the size is WIDTHxHEIGHT in range, remembered for each view", "[gui][picture]") {
    CHECK(gui::parse_picture_size(QStringLiteral("1600x1000")) == QSize(1600, 1000));
    CHECK(gui::parse_picture_size(QStringLiteral("400X8000")) == QSize(400, 8000));
    for (const char* bad : {"", "1600", "1600x", "x1000", "1600x1000 ", "-1600x1000", "16.5x1000", "399x1000", "1600x8001", "axb", "1600*1000"}) {
        INFO(bad);
        CHECK_FALSE(gui::parse_picture_size(QString::fromLatin1(bad)).has_value());
    }
    CHECK(gui::settings::picture_size(QStringLiteral("graph")) == gui::kDefaultPicture);
    gui::settings::set_picture_size(QStringLiteral("graph"), QSize(2000, 1200));
    CHECK(gui::settings::picture_size(QStringLiteral("graph")) == QSize(2000, 1200));
    CHECK(gui::settings::picture_size(QStringLiteral("raster")) == gui::kDefaultPicture);
    gui::PictureSizeDialog dialog(QStringLiteral("graph"), gui::settings::picture_size(QStringLiteral("graph")));
    CHECK(dialog.picture_size() == QSize(2000, 1200));
    gui::settings::set_picture_size(QStringLiteral("graph"), QSize(10, 10));  // no valid size: the default
    CHECK(gui::settings::picture_size(QStringLiteral("graph")) == gui::kDefaultPicture);
}

TEST_CASE("spikeminer-gui --size: a picture of the size asked; a malformed size is refused", "[gui][picture]") {
    const test::TempDir dir;
    const QString out = QString::fromStdString(dir.file("graph.png"));
    QString error;
    for (const char* bad : {"1600", "1600x1000x2", "big", "100x100"}) {
        INFO(bad);
        CHECK(run_gui({"--demo", "--screenshot", out, "--view", "graph", "--size", QString::fromLatin1(bad)}, error) == 2);
        CHECK(error.contains(QStringLiteral("--size")));
    }
    CHECK(run_gui({"--demo", "--screenshot", out, "--view", "window", "--size", "1600x1000"}, error) == 2);
    CHECK(error.contains(QStringLiteral("--size")));
    if (!figures::figures_available()) return;
    REQUIRE(run_gui({"--demo", "--screenshot", out, "--view", "graph", "--size", "1500x900"}, error) == 0);
    CHECK(QImage(out).size() == QSize(1500, 900));
    // Without a size, the graph view as on screen: at least 700 x 400 in the first window.
    REQUIRE(run_gui({"--demo", "--screenshot", out, "--view", "graph"}, error) == 0);
    const QSize on_screen = QImage(out).size();
    INFO(on_screen.width() << " x " << on_screen.height());
    CHECK(on_screen.width() >= 700);
    CHECK(on_screen.height() >= 400);
}
