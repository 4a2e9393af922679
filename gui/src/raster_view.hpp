#pragma once

#include "loaded_recording.hpp"
#include "spike_bins.hpp"

#include <QImage>
#include <QWidget>

#include <memory>
#include <utility>
#include <vector>

namespace spikeminer::gui {

/// Raster plot of spike trains: time in seconds across, one row per neuron down, one
/// short tick per spike. Wheel zooms time around the cursor (Ctrl+wheel zooms neurons),
/// dragging pans, double-click or fit() shows everything.
///
/// Zoomed out (a pixel column as wide as a SpikeBins bin or more), each row's columns are
/// read from the bit index: rows × columns word tests, whatever the spike count. Zoomed in,
/// only spikes in the visible window are visited (binary search in each neuron's sorted
/// times), at most one per pixel column.
class RasterView : public QWidget {
    Q_OBJECT

public:
    /// How the rows are ordered: by the neurons' order in the file (their labels' order),
    /// by firing rate (busiest first), or by assembly (each assembly's members together).
    enum class RowOrder { Label, Rate, Assembly };

    explicit RasterView(QWidget* parent = nullptr);

    /// Shows `trains` (may be null for none) and fits the view to it; no assemblies.
    void set_recording(TrainsPtr trains);
    /// Draws each assembly's members in its colour (a neuron in several in the first's).
    void set_assemblies(const std::vector<std::vector<NeuronId>>& assemblies);
    /// Marks occurrences of an episode over the spikes: each a list of stream positions
    /// (SpikeTrains::times() indices) in episode order, drawn as dots joined by lines.
    void set_occurrences(std::vector<std::vector<std::uint32_t>> occurrences);
    [[nodiscard]] std::size_t occurrence_count() const { return occurrences_.size(); }
    /// Marks an assembly's activations: at each time (s), a dot on each member's row in
    /// `colour`, joined by a line. Empty: none.
    void set_activations(std::vector<double> seconds, std::vector<NeuronId> members, QColor colour);
    [[nodiscard]] std::size_t activation_count() const { return activations_.size(); }
    /// The time shown, in seconds.
    [[nodiscard]] std::pair<double, double> visible_span() const { return {t0_, t1_}; }
    /// Orders the rows; the view keeps its place.
    void set_order(RowOrder order);
    [[nodiscard]] RowOrder order() const { return order_; }
    /// The neuron drawn in row `row` (0 at the top).
    [[nodiscard]] NeuronId neuron_at_row(std::size_t row) const { return neuron_at_row_[row]; }
    /// Shades the time span [start_s, end_s] (a co-firing window) over the plot; an empty
    /// span (end <= start) shades nothing.
    void set_highlight(double start_s, double end_s);

    [[nodiscard]] QSize sizeHint() const override { return {900, 600}; }
    [[nodiscard]] QSize minimumSizeHint() const override { return {300, 200}; }

public slots:
    /// Shows the whole recording span and every neuron.
    void fit();

signals:
    /// Where the cursor points: "12.345 s, neuron 7", or empty when outside the plot.
    void hover_changed(const QString& text);

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    [[nodiscard]] QRect plot_rect() const;
    [[nodiscard]] double seconds_at(double x, const QRect& plot) const;
    [[nodiscard]] double row_at(double y, const QRect& plot) const;
    [[nodiscard]] double row_height(const QRect& plot) const;
    void clamp_view();
    void update_hover(const QPoint& pos);

    void render_plot(QImage& image, const QRect& plot) const;
    void draw_spikes(QImage& image) const;
    void draw_time_axis(QPainter& painter, const QRect& plot) const;
    void draw_neuron_axis(QPainter& painter, const QRect& plot) const;
    void draw_occurrences(QPainter& painter, const QRect& plot) const;
    void draw_activations(QPainter& painter, const QRect& plot) const;

    void apply_order();

    TrainsPtr trains_;
    RowOrder order_ = RowOrder::Label;
    std::vector<NeuronId> neuron_at_row_;  // row -> neuron, and back
    std::vector<NeuronId> row_of_neuron_;
    std::vector<std::vector<NeuronId>> assemblies_;  // as last set, for the assembly order
    std::unique_ptr<const SpikeBins> bins_;  // trains_' bit index, for zoomed-out views
    std::vector<QRgb> row_colours_;     // per neuron: its assembly's colour, or the plain one
    std::vector<std::vector<std::uint32_t>> occurrences_;  // in time order of their first spike
    std::vector<double> activations_;   // seconds, with the assembly's members and colour
    std::vector<NeuronId> activation_members_;
    QColor activation_colour_;
    double data_t0_ = 0, data_t1_ = 1;  // recording span, seconds
    double t0_ = 0, t1_ = 1;            // visible time, seconds
    double n0_ = 0, n1_ = 1;            // visible rows [n0, n1), in neurons
    double highlight_t0_ = 0, highlight_t1_ = 0;  // shaded span, seconds
    int label_width_ = 0;               // widest neuron label, pixels (capped)

    bool dragging_ = false;
    QPoint drag_origin_;
    double drag_t0_ = 0, drag_n0_ = 0;
};

}  // namespace spikeminer::gui
