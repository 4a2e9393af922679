#pragma once
// Figures as drawings on a Canvas, so that what a figure shows is one piece of code
// (tested on the shapes it draws) and how it becomes a file is another (Cairo: SVG or PNG).

#include <functional>
#include <string>

namespace spikeminer::figures {

struct Point {
    double x = 0;
    double y = 0;
};

/// A figure's size in points.
struct Size {
    double width = 0;
    double height = 0;
};

/// A colour with its opacity, each in [0, 1].
struct Colour {
    double r = 0, g = 0, b = 0, alpha = 1;

    /// From "#rrggbb" (as the assembly palette gives them), with an opacity.
    static Colour hex(const char* rrggbb, double alpha = 1);
    friend bool operator==(const Colour&, const Colour&) = default;
};

/// Where a text's anchor point lies along it.
enum class Anchor { Start, Middle, End };

/// What figures draw on, in points from the top left corner.
class Canvas {
public:
    virtual ~Canvas() = default;
    virtual void line(Point from, Point to, const Colour& colour, double width) = 0;
    virtual void rect(Point corner, double width, double height, const Colour& fill) = 0;
    virtual void circle(Point centre, double radius, const Colour& fill) = 0;
    /// `text` with its baseline at `at.y`.
    virtual void text(Point at, const std::string& text, double size, const Colour& colour, Anchor anchor) = 0;
    /// How far `text` at `size` reaches along its baseline: measured where the canvas can
    /// (Cairo), else estimated at 0.6 of the size a character.
    virtual double text_width(const std::string& text, double size) { return 0.6 * size * static_cast<double>(text.size()); }
};

/// A figure: its size in points and how to draw it (on a white page).
struct Figure {
    double width = 0;
    double height = 0;
    std::function<void(Canvas&)> draw;
};

/// Whether this build can write figures (it was built with Cairo and Graphviz).
bool figures_available();

/// Throws UsageError unless `path` ends in .svg or .png and this build can write figures.
void check_figure_path(const std::string& path);

/// A PNG's pixels to a figure's point.
inline constexpr double kPngPixelsPerPoint = 2;

/// Writes `figure` to `path` as SVG or PNG (by the extension; PNG at kPngPixelsPerPoint
/// pixels a point), atomically; throws UsageError for another extension or a build without
/// figures, Error when the file cannot be written.
void write_figure(const std::string& path, const Figure& figure);

/// As write_figure, but an SVG is the PNG's drawing with its size in pixels (px) rather
/// than points: a figure laid out at (W / kPngPixelsPerPoint) x (H / kPngPixelsPerPoint)
/// points is a picture of W x H pixels in either format (the app's pictures of a chosen
/// size).
void write_picture(const std::string& path, const Figure& figure);

}  // namespace spikeminer::figures
