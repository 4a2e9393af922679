// See figure.hpp: figures drawn by Cairo into SVG or PNG.
#include "spikeminer/app/figures/figure.hpp"

#include "spikeminer/app/io/atomic_output.hpp"
#include "spikeminer/core/error.hpp"

#include <cairo-svg.h>
#include <cairo.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <optional>
#include <ostream>

namespace spikeminer::figures {
namespace {

struct SurfaceDeleter {
    void operator()(cairo_surface_t* s) const { cairo_surface_destroy(s); }
};
struct ContextDeleter {
    void operator()(cairo_t* c) const { cairo_destroy(c); }
};
using Surface = std::unique_ptr<cairo_surface_t, SurfaceDeleter>;
using Context = std::unique_ptr<cairo_t, ContextDeleter>;

cairo_status_t to_stream(void* closure, const unsigned char* data, unsigned int length) {
    auto& out = *static_cast<std::ostream*>(closure);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(length));
    return out ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

void check(cairo_status_t status, const std::string& path) {
    if (status != CAIRO_STATUS_SUCCESS) throw Error(path + ": cannot draw the figure (" + cairo_status_to_string(status) + ")");
}

// Draws through a Cairo context. Runs of lines of one colour and width (a raster's ticks)
// become one path, stroked once.
class CairoCanvas final : public Canvas {
public:
    explicit CairoCanvas(cairo_t* cr) : cr_(cr) {
        cairo_set_line_cap(cr_, CAIRO_LINE_CAP_BUTT);
        cairo_select_font_face(cr_, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    }

    void line(Point from, Point to, const Colour& colour, double width) override {
        if (!stroke_ || stroke_->first != colour || stroke_->second != width) {
            flush();
            stroke_ = {colour, width};
        }
        cairo_move_to(cr_, from.x, from.y);
        cairo_line_to(cr_, to.x, to.y);
    }

    void rect(Point corner, double width, double height, const Colour& fill) override {
        flush();
        use(fill);
        cairo_rectangle(cr_, corner.x, corner.y, width, height);
        cairo_fill(cr_);
    }

    void circle(Point centre, double radius, const Colour& fill) override {
        flush();
        use(fill);
        cairo_new_sub_path(cr_);
        cairo_arc(cr_, centre.x, centre.y, radius, 0, 2 * std::numbers::pi);
        cairo_fill(cr_);
    }

    void text(Point at, const std::string& text, double size, const Colour& colour, Anchor anchor) override {
        flush();
        use(colour);
        cairo_set_font_size(cr_, size);
        cairo_text_extents_t extents;
        cairo_text_extents(cr_, text.c_str(), &extents);
        const double shift = anchor == Anchor::Start ? 0 : anchor == Anchor::Middle ? extents.x_advance / 2 : extents.x_advance;
        cairo_move_to(cr_, at.x - shift, at.y);
        cairo_show_text(cr_, text.c_str());
    }

    double text_width(const std::string& text, double size) override {
        cairo_set_font_size(cr_, size);
        cairo_text_extents_t extents;
        cairo_text_extents(cr_, text.c_str(), &extents);
        return extents.x_advance;
    }

    // Strokes the pending lines.
    void flush() {
        if (!stroke_) return;
        use(stroke_->first);
        cairo_set_line_width(cr_, stroke_->second);
        cairo_stroke(cr_);
        stroke_.reset();
    }

private:
    void use(const Colour& c) { cairo_set_source_rgba(cr_, c.r, c.g, c.b, c.alpha); }

    cairo_t* cr_;
    std::optional<std::pair<Colour, double>> stroke_;
};

void draw(cairo_surface_t* surface, const Figure& figure, double scale, const std::string& path) {
    const Context cr(cairo_create(surface));
    check(cairo_status(cr.get()), path);
    cairo_scale(cr.get(), scale, scale);
    cairo_set_source_rgb(cr.get(), 1, 1, 1);
    cairo_paint(cr.get());
    CairoCanvas canvas(cr.get());
    figure.draw(canvas);
    canvas.flush();
    check(cairo_status(cr.get()), path);
}

// Writes `figure` to `path`: a PNG at kPngPixelsPerPoint pixels a point; an SVG in points
// or (`svg_in_pixels`) as the PNG's drawing, its size in px.
void write(const std::string& path, const Figure& figure, bool svg_in_pixels) {
    check_figure_path(path);
    if (!(figure.width > 0) || !(figure.height > 0)) throw Error(path + ": the figure has no size");
    io::write_atomically(path, [&](std::ostream& out) {
        if (path.ends_with(".svg")) {
            const double scale = svg_in_pixels ? kPngPixelsPerPoint : 1;
            const Surface surface(cairo_svg_surface_create_for_stream(to_stream, &out, figure.width * scale, figure.height * scale));
            check(cairo_surface_status(surface.get()), path);
#if CAIRO_VERSION >= CAIRO_VERSION_ENCODE(1, 16, 0)  // before 1.16 the size is always in points
            if (svg_in_pixels) cairo_svg_surface_set_document_unit(surface.get(), CAIRO_SVG_UNIT_PX);
#endif
            draw(surface.get(), figure, scale, path);
            cairo_surface_finish(surface.get());
            check(cairo_surface_status(surface.get()), path);
            return;
        }
        const Surface surface(cairo_image_surface_create(CAIRO_FORMAT_RGB24, static_cast<int>(std::ceil(figure.width * kPngPixelsPerPoint)),
                                                         static_cast<int>(std::ceil(figure.height * kPngPixelsPerPoint))));
        check(cairo_surface_status(surface.get()), path);
        draw(surface.get(), figure, kPngPixelsPerPoint, path);
        check(cairo_surface_write_to_png_stream(surface.get(), to_stream, &out), path);
    });
}

}  // namespace

void write_figure(const std::string& path, const Figure& figure) { write(path, figure, false); }

void write_picture(const std::string& path, const Figure& figure) { write(path, figure, true); }

}  // namespace spikeminer::figures
