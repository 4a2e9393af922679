// Figures: what the raster draws (on a canvas that records its shapes), how Cairo turns a
// drawing into PNG (pixels read back) and SVG, and Graphviz's layouts (each connected
// group together, the same layout for the same graph) and the electrodes' positions. A
// build without Cairo and Graphviz refuses to write figures, and says so.
#include "catch.hpp"
#include "app_test_helpers.hpp"
#include "test_paths.hpp"

#include "spikeminer/app/figures/graph_layout.hpp"
#include "spikeminer/app/figures/raster_figure.hpp"
#include "spikeminer/core/error.hpp"

#if SPIKEMINER_FIGURES
#include <cairo.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>

using namespace spikeminer;
using figures::Colour;
using figures::Point;

namespace {

// Records what is drawn.
struct RecordingCanvas final : figures::Canvas {
    struct Line {
        Point from, to;
        Colour colour;
    };
    std::vector<Line> lines;
    std::vector<std::string> texts;
    void line(Point from, Point to, const Colour& colour, double) override { lines.push_back({from, to, colour}); }
    void rect(Point, double, double, const Colour&) override {}
    void circle(Point, double, const Colour&) override {}
    void text(Point, const std::string& text, double, const Colour&, figures::Anchor) override { texts.push_back(text); }
};

double distance(Point a, Point b) { return std::hypot(a.x - b.x, a.y - b.y); }

}  // namespace

TEST_CASE("raster figure: rows, colours and the spikes of the excerpt", "[figures]") {
    // Neurons a..e; spikes in ticks of 1 us; the excerpt is [100, 1000).
    const SpikeTrains trains = test::make_trains({"a", "b", "c", "d", "e"}, {{0, 50},    {0, 150}, {1, 200}, {1, 300}, {1, 999},
                                                                             {2, 1000}, {3, 400}, {4, 500}, {4, 600}, {2, 700}});
    const std::vector<std::vector<NeuronId>> assemblies = {{1, 4}, {0, 4}};  // e is in both: drawn with the first
    // Spikes in time order: a@50 is spike 0, b@200 spike 2, d@400 spike 4, c@700 spike 7.
    const std::vector<mining::Occurrence> occurrences = {{{2, 4, 7}}, {{0, 2}}};  // the second starts before the excerpt
    const figures::Figure figure = figures::raster_figure(trains, assemblies, {100, 1000}, occurrences);
    RecordingCanvas canvas;
    figure.draw(canvas);
    // The spike ticks by row (their top), in drawing order; then the occurrence b -> d -> c
    // in black; the black axis last.
    REQUIRE(canvas.lines.size() > 3);
    const Colour black{0, 0, 0};
    CHECK(canvas.lines.back().colour == black);
    canvas.lines.pop_back();
    const auto to_d = canvas.lines[canvas.lines.size() - 2], to_c = canvas.lines.back();
    CHECK(to_d.colour == black);
    CHECK(to_c.colour == black);
    CHECK(to_d.from.x < to_d.to.x);
    CHECK(to_d.to.x == to_c.from.x);
    CHECK(to_d.to.y == to_c.from.y);
    CHECK(to_c.from.x < to_c.to.x);
    CHECK(to_d.from.y < to_c.to.y);  // row b above row c above row d
    CHECK(to_c.to.y < to_d.to.y);
    canvas.lines.resize(canvas.lines.size() - 2);
    std::map<double, std::pair<Colour, std::size_t>> rows;
    for (const auto& line : canvas.lines) {
        CHECK(line.from.x == line.to.x);
        auto& row = rows[line.from.y];
        if (row.second > 0) CHECK(row.first == line.colour);
        row = {line.colour, row.second + 1};
    }
    REQUIRE(rows.size() == 5);
    const Colour red = Colour::hex("#d62728"), blue = Colour::hex("#1f77b4"), grey = Colour::hex("#b0b0b0");
    auto row = rows.begin();
    CHECK(row++->second == std::pair{red, std::size_t{3}});   // b: 200, 300, 999
    CHECK(row++->second == std::pair{red, std::size_t{2}});   // e: 500, 600
    CHECK(row++->second == std::pair{blue, std::size_t{1}});  // a: 150 (50 is before the excerpt)
    CHECK(row++->second == std::pair{grey, std::size_t{1}});  // c: 700 (1000 is its end)
    CHECK(row++->second == std::pair{grey, std::size_t{1}});  // d: 400
    CHECK(std::count(canvas.texts.begin(), canvas.texts.end(), "b") == 1);
    CHECK(std::count(canvas.texts.begin(), canvas.texts.end(), "a") == 1);
    CHECK(std::count(canvas.texts.begin(), canvas.texts.end(), "c") == 0);  // only members are labelled
    CHECK_THROWS_AS(figures::raster_figure(trains, assemblies, {10, 10}), UsageError);
}

TEST_CASE("figures: PNG and SVG drawn by Cairo, written whole, or refused", "[figures]") {
    const test::TempDir dir;
    figures::Figure figure;
    figure.width = 100;
    figure.height = 50;
    figure.draw = [](figures::Canvas& canvas) {
        canvas.rect({10, 10}, 20, 10, Colour::hex("#ff0000"));
        canvas.line({60, 0}, {60, 50}, Colour::hex("#0000ff"), 4);
        canvas.text({50, 45}, "<a & b>", 8, Colour{0, 0, 0}, figures::Anchor::Middle);
    };
    CHECK_THROWS_AS(figures::write_figure(dir.file("figure.pdf"), figure), UsageError);
    if (!figures::figures_available()) {
        CHECK_THROWS_AS(figures::write_figure(dir.file("figure.png"), figure), UsageError);
        CHECK(std::filesystem::is_empty(dir.path()));
        return;
    }
#if SPIKEMINER_FIGURES
    figures::write_figure(dir.file("figure.png"), figure);
    cairo_surface_t* png = cairo_image_surface_create_from_png(dir.file("figure.png").c_str());
    REQUIRE(cairo_surface_status(png) == CAIRO_STATUS_SUCCESS);
    CHECK(cairo_image_surface_get_width(png) == 200);  // 2 pixels a point
    CHECK(cairo_image_surface_get_height(png) == 100);
    cairo_surface_flush(png);
    const unsigned char* data = cairo_image_surface_get_data(png);
    const int stride = cairo_image_surface_get_stride(png);
    const auto pixel = [&](int x, int y) {  // 0xRRGGBB
        std::uint32_t value;
        std::memcpy(&value, data + y * stride + 4 * x, 4);
        return value & 0xffffffu;
    };
    CHECK(pixel(40, 30) == 0xff0000u);   // inside the rectangle
    CHECK(pixel(120, 50) == 0x0000ffu);  // on the line
    CHECK(pixel(5, 5) == 0xffffffu);     // the white page
    CHECK(pixel(90, 50) == 0xffffffu);
    cairo_surface_destroy(png);
#endif
    figures::write_figure(dir.file("figure.svg"), figure);
    const std::string svg = test::read_file(dir.file("figure.svg"));
    CHECK(svg.find("<svg") != std::string::npos);
    CHECK(svg.find("width=\"100pt\"") != std::string::npos);
    CHECK_THROWS_AS(figures::write_figure(dir.file("missing/figure.svg"), figure), Error);
    CHECK(!std::filesystem::exists(dir.file("missing")));
}

TEST_CASE("graph layout: connected groups together, the same graph the same layout", "[figures]") {
    // Two triangles and a path of three, apart from each other.
    const std::vector<std::pair<std::uint32_t, std::uint32_t>> edges = {{0, 1}, {1, 2}, {0, 2}, {3, 4}, {4, 5}, {3, 5}, {6, 7}, {7, 8}};
    if (!figures::figures_available()) {
        CHECK_THROWS_AS(figures::spring_layout(9, edges), UsageError);
        return;
    }
    const std::vector<Point> at = figures::spring_layout(9, edges);
    REQUIRE(at.size() == 9);
    for (const Point p : at) {
        CHECK(p.x >= 0);
        CHECK(p.x <= 1);
        CHECK(p.y >= 0);
        CHECK(p.y <= 1);
    }
    double within = 0, across = 1e9;
    for (std::uint32_t a = 0; a < 6; ++a) {
        for (std::uint32_t b = a + 1; b < 6; ++b) {
            if (a / 3 == b / 3) within = std::max(within, distance(at[a], at[b]));
            else across = std::min(across, distance(at[a], at[b]));
        }
    }
    CHECK(within < across);
    const std::vector<Point> again = figures::spring_layout(9, edges);
    for (std::size_t v = 0; v < at.size(); ++v) CHECK(distance(at[v], again[v]) == 0);
    CHECK_THROWS_AS(figures::spring_layout(3, std::vector<std::pair<std::uint32_t, std::uint32_t>>{{0, 3}}), Error);
}

TEST_CASE("electrode layout: the array's plane in the square, aspect kept, units of one electrode apart", "[figures]") {
    // A 400 x 100 um strip; units 1 and 3 on one electrode.
    const std::vector<Position> sites{{0, 0}, {400, 100}, {200, 50}, {400, 100}};
    const std::vector<Point> at = figures::electrode_layout(sites);
    REQUIRE(at.size() == sites.size());
    for (const Point& p : at) {
        CHECK(p.x >= 0);
        CHECK(p.x <= 1);
        CHECK(p.y >= 0);
        CHECK(p.y <= 1);
    }
    // Aspect kept: the strip is four times as wide as high.
    const double width = std::abs(at[2].x - at[0].x);
    const double height = std::abs(at[2].y - at[0].y);
    CHECK(width == Approx(4 * height));
    CHECK(width > 0.4);
    // The two units of one electrode are drawn apart, around its place.
    CHECK(std::hypot(at[1].x - at[3].x, at[1].y - at[3].y) > 0.01);
    const Point centre{(at[1].x + at[3].x) / 2, (at[1].y + at[3].y) / 2};
    CHECK(centre.x == Approx(at[0].x + 2 * width).margin(1e-9));
    CHECK(centre.y == Approx(at[0].y + 2 * height).margin(1e-9));
    CHECK(figures::electrode_layout({}).empty());
}
