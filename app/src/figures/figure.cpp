// See figure.hpp and graph_drawing.hpp: what every build has (the writers are in
// cairo_figure.cpp, or figures_unavailable.cpp in a build without Cairo and Graphviz).
#include "spikeminer/app/figures/figure.hpp"
#include "spikeminer/app/figures/graph_drawing.hpp"

#include "spikeminer/core/error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <unordered_map>

namespace spikeminer::figures {
namespace {

// The boxes placed so far, found through the cells of a grid that they touch: the cells are
// as large as any box, so that a box touches at most four and a test reads only its
// neighbours (a graph of thousands of neurons is labelled in a few milliseconds).
class BoxGrid {
public:
    explicit BoxGrid(double cell) : cell_(cell) {}

    void add(const Box& box) {
        for_cells(box, [&](std::uint64_t key) {
            cells_[key].push_back(box);
            return false;
        });
    }

    [[nodiscard]] bool overlaps(const Box& box) const {
        return for_cells(box, [&](std::uint64_t key) {
            const auto at = cells_.find(key);
            return at != cells_.end() && std::any_of(at->second.begin(), at->second.end(), [&](const Box& b) { return b.overlaps(box); });
        });
    }

private:
    // Calls `f` with the key of each cell `box` touches until it returns true; says whether it did.
    template <class F>
    bool for_cells(const Box& box, F&& f) const {
        const auto cell = [this](double v) { return static_cast<std::int64_t>(std::floor(v / cell_)); };
        for (std::int64_t x = cell(box.left); x <= cell(box.right()); ++x) {
            for (std::int64_t y = cell(box.top); y <= cell(box.bottom()); ++y) {
                // Keys of far-apart cells may coincide: that costs a test, never a wrong answer.
                if (f((static_cast<std::uint64_t>(x) << 32) ^ static_cast<std::uint32_t>(y))) return true;
            }
        }
        return false;
    }

    double cell_;
    std::unordered_map<std::uint64_t, std::vector<Box>> cells_;
};

}  // namespace

Colour Colour::hex(const char* rrggbb, double alpha) {
    if (rrggbb == nullptr || std::strlen(rrggbb) != 7 || rrggbb[0] != '#') throw Error(std::string("not a colour: ") + (rrggbb ? rrggbb : "null"));
    const unsigned long value = std::strtoul(rrggbb + 1, nullptr, 16);
    return {static_cast<double>((value >> 16) & 0xff) / 255.0, static_cast<double>((value >> 8) & 0xff) / 255.0,
            static_cast<double>(value & 0xff) / 255.0, alpha};
}

bool figures_available() { return SPIKEMINER_FIGURES != 0; }

void check_figure_path(const std::string& path) {
    if (!path.ends_with(".svg") && !path.ends_with(".png")) throw UsageError(path + ": a figure is written as .svg or .png");
    if (!figures_available()) {
        throw UsageError(path + ": this build draws no figures (it needs Cairo and Graphviz: install libcairo2-dev and "
                                "libgraphviz-dev, then configure and build again)");
    }
}

LayoutFit fit_layout(std::span<const std::optional<Point>> layout, const Box& area, bool keep_aspect) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    constexpr double kFlat = 1e-9;  // an axis with no more extent than this is centred
    double lo_x = kInf, lo_y = kInf, hi_x = -kInf, hi_y = -kInf;
    for (const std::optional<Point>& p : layout) {
        if (!p) continue;
        lo_x = std::min(lo_x, p->x), hi_x = std::max(hi_x, p->x);
        lo_y = std::min(lo_y, p->y), hi_y = std::max(hi_y, p->y);
    }
    if (lo_x > hi_x) return {{0, 0}, {area.left + area.width / 2, area.top + area.height / 2}, 0, 0};  // nothing placed
    const double span_x = hi_x - lo_x, span_y = hi_y - lo_y;
    double scale_x = span_x > kFlat ? area.width / span_x : 0;
    double scale_y = span_y > kFlat ? area.height / span_y : 0;
    if (keep_aspect) scale_x = scale_y = scale_x == 0 ? scale_y : scale_y == 0 ? scale_x : std::min(scale_x, scale_y);
    return {{lo_x, lo_y}, {area.left + (area.width - span_x * scale_x) / 2, area.top + (area.height - span_y * scale_y) / 2}, scale_x, scale_y};
}

std::vector<std::optional<Box>> place_labels(std::span<const LabelWish> wishes, std::span<const std::size_t> order, double gap, const Box& bounds) {
    double cell = std::max(1.0, 2 * gap);
    for (const LabelWish& w : wishes) cell = std::max({cell, w.width, w.height});
    BoxGrid taken(cell);
    for (const LabelWish& w : wishes) taken.add({w.at.x - gap, w.at.y - gap, 2 * gap, 2 * gap});
    std::vector<std::optional<Box>> placed(wishes.size());
    for (const std::size_t i : order) {
        const LabelWish& w = wishes[i];
        const double x = w.at.x, y = w.at.y;
        const Box places[] = {{x + gap, y - w.height, w.width, w.height},           {x + gap, y, w.width, w.height},
                              {x - gap - w.width, y - w.height, w.width, w.height}, {x - gap - w.width, y, w.width, w.height},
                              {x - w.width / 2, y - gap - w.height, w.width, w.height}, {x - w.width / 2, y + gap, w.width, w.height}};
        for (const Box& place : places) {
            if (!bounds.contains(place) || taken.overlaps(place)) continue;
            taken.add(place);
            placed[i] = place;
            break;
        }
    }
    return placed;
}

}  // namespace spikeminer::figures
