#pragma once
// How a drawn graph uses its room, on screen (the app's graph view) and in figures: its
// layout fitted to the area it has, and its neurons' labels where they cover no other
// label and no neuron: fewer labels rather than a pile of them.

#include "spikeminer/app/figures/figure.hpp"

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace spikeminer::figures {

/// A rectangle: its top left corner and its size.
struct Box {
    double left = 0, top = 0, width = 0, height = 0;

    [[nodiscard]] double right() const { return left + width; }
    [[nodiscard]] double bottom() const { return top + height; }
    /// Whether the two share more than an edge.
    [[nodiscard]] bool overlaps(const Box& other) const {
        return left < other.right() && other.left < right() && top < other.bottom() && other.top < bottom();
    }
    [[nodiscard]] bool contains(const Box& other) const {
        return left <= other.left && other.right() <= right() && top <= other.top && other.bottom() <= bottom();
    }
};

/// Where a layout's points go in an area (see fit_layout).
struct LayoutFit {
    Point from;  ///< the layout's points' top left corner
    Point to;    ///< where it goes
    double scale_x = 0, scale_y = 0;

    [[nodiscard]] Point operator()(Point p) const { return {to.x + (p.x - from.x) * scale_x, to.y + (p.y - from.y) * scale_y}; }
};

/// Puts the bounding box of `layout`'s points (none: a neuron not drawn) into `area`,
/// stretched along each axis to fill it (a spring layout's distances only say what is
/// joined, and the labels get the room), or with `keep_aspect` (neurons at their
/// electrodes) scaled alike along both and centred. A box with no width or height along
/// an axis is centred along it.
LayoutFit fit_layout(std::span<const std::optional<Point>> layout, const Box& area, bool keep_aspect);

/// A label to place beside its neuron: the neuron's centre and the text's size.
struct LabelWish {
    Point at;
    double width = 0;
    double height = 0;
};

/// Places labels one at a time in `order` (indices into `wishes`, the most wanted first),
/// each at the first of six places beside its neuron (right above, right below, left
/// above, left below, above, below; `gap` from its centre) that lies inside `bounds` and
/// covers no label placed before it and no neuron (a square of `gap` around each wish's
/// `at`); a label with no such place is left out. Returns each wish's box (none: left out).
std::vector<std::optional<Box>> place_labels(std::span<const LabelWish> wishes, std::span<const std::size_t> order, double gap, const Box& bounds);

}  // namespace spikeminer::figures
