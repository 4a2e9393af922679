#include "raster_view.hpp"

#include "spikeminer/app/assembly_palette.hpp"

#include "raster_axis.hpp"

#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace spikeminer::gui {
namespace {

constexpr int kMinTimeLabelSpacing = 90;  // pixels between time-axis labels
constexpr double kWheelZoomPerNotch = 0.8;
constexpr double kMaxTickLength = 24.0;   // device pixels, so a few tall rows stay readable
const QColor kSpikeColor(24, 48, 140);
const QColor kPlotBackground(255, 255, 255);
const QColor kRowBand(242, 245, 250);
const QColor kHighlight(255, 200, 40, 60);  // the co-firing window shown, over the spikes
const QColor kGridColor(225, 228, 235);
const QColor kOccurrenceColor(214, 39, 40);

/// The first index in [from, count) whose spike time is at least `tick`: a galloping
/// search from `from`, so skipping a few spikes costs a few steps, not log(count).
std::size_t first_at_or_after(const Tick* times, const std::uint32_t* spikes, std::size_t from, std::size_t count,
                              double tick) {
    std::size_t step = 1;
    std::size_t low = from;
    while (low < count && static_cast<double>(times[spikes[low]]) < tick) {
        const std::size_t next = std::min(count, low + step);
        if (next == count || static_cast<double>(times[spikes[next]]) >= tick) {
            // The answer is in (low, next]: bisect.
            std::size_t lo = low + 1;
            std::size_t hi = next;
            while (lo < hi) {
                const std::size_t mid = lo + (hi - lo) / 2;
                if (static_cast<double>(times[spikes[mid]]) < tick) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }
        low = next;
        step *= 2;
    }
    return low;
}

}  // namespace

RasterView::RasterView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setCursor(Qt::CrossCursor);
    setFocusPolicy(Qt::StrongFocus);
}

void RasterView::set_recording(TrainsPtr trains) {
    trains_ = std::move(trains);
    bins_ = trains_ != nullptr ? std::make_unique<const SpikeBins>(*trains_) : nullptr;
    occurrences_.clear();
    activations_.clear();
    activation_members_.clear();
    row_colours_.assign(trains_ != nullptr ? trains_->num_neurons() : 0, kSpikeColor.rgb());
    assemblies_.clear();
    apply_order();
    const QFontMetrics metrics(font());
    label_width_ = metrics.horizontalAdvance(QStringLiteral("000"));
    if (trains_ != nullptr) {
        for (NeuronId n = 0; n < trains_->num_neurons(); ++n) {
            label_width_ = std::max(label_width_, metrics.horizontalAdvance(QString::fromStdString(trains_->label(n))));
        }
    }
    label_width_ = std::min(label_width_, 120);
    fit();
}

void RasterView::set_activations(std::vector<double> seconds, std::vector<NeuronId> members, QColor colour) {
    activations_ = std::move(seconds);
    activation_members_ = std::move(members);
    activation_colour_ = colour;
    update();
}

void RasterView::draw_activations(QPainter& painter, const QRect& plot) const {
    if (activations_.empty() || activation_members_.empty()) return;
    const double row_h = row_height(plot);
    double top = 1e300, bottom = -1e300;
    std::vector<double> ys;
    for (const NeuronId n : activation_members_) {
        const double y = plot.top() + (static_cast<double>(row_of_neuron_[n]) - n0_ + 0.5) * row_h;
        ys.push_back(y);
        top = std::min(top, y);
        bottom = std::max(bottom, y);
    }
    painter.save();
    painter.setClipRect(plot);
    painter.setRenderHint(QPainter::Antialiasing);
    const double radius = std::clamp(row_h * 0.4, 1.5, 4.0);
    const auto first = std::lower_bound(activations_.begin(), activations_.end(), t0_);
    for (auto t = first; t != activations_.end() && *t <= t1_; ++t) {
        const double x = plot.left() + (*t - t0_) / (t1_ - t0_) * plot.width();
        painter.setPen(QPen(activation_colour_.darker(150), 1));
        painter.drawLine(QPointF(x, top), QPointF(x, bottom));
        painter.setBrush(activation_colour_);
        for (const double y : ys) painter.drawEllipse(QPointF(x, y), radius, radius);
    }
    painter.restore();
}

void RasterView::set_order(RowOrder order) {
    order_ = order;
    apply_order();
    update();
}

void RasterView::apply_order() {
    const std::size_t neurons = trains_ != nullptr ? trains_->num_neurons() : 0;
    neuron_at_row_.resize(neurons);
    std::iota(neuron_at_row_.begin(), neuron_at_row_.end(), NeuronId{0});
    if (order_ == RowOrder::Rate) {
        std::stable_sort(neuron_at_row_.begin(), neuron_at_row_.end(),
                         [this](NeuronId a, NeuronId b) { return trains_->spike_count(a) > trains_->spike_count(b); });
    } else if (order_ == RowOrder::Assembly) {
        // Each assembly's members together, in the assemblies' order; the others after them.
        const std::vector<int> group = first_assembly_of(neurons, assemblies_);
        const auto rank = [&](NeuronId n) { return group[n] == -1 ? std::numeric_limits<int>::max() : group[n]; };
        std::stable_sort(neuron_at_row_.begin(), neuron_at_row_.end(), [&](NeuronId a, NeuronId b) { return rank(a) < rank(b); });
    }
    row_of_neuron_.assign(neurons, 0);
    for (std::size_t row = 0; row < neurons; ++row) row_of_neuron_[neuron_at_row_[row]] = static_cast<NeuronId>(row);
}

void RasterView::set_assemblies(const std::vector<std::vector<NeuronId>>& assemblies) {
    assemblies_ = assemblies;
    if (order_ == RowOrder::Assembly) apply_order();
    // Beside coloured members, the other neurons fade to grey.
    const QColor plain = assemblies.empty() ? kSpikeColor : QColor(QString::fromLatin1(kOtherNeuronColour));
    const std::vector<int> group = first_assembly_of(row_colours_.size(), assemblies);
    for (std::size_t n = 0; n < row_colours_.size(); ++n) {
        row_colours_[n] = group[n] == -1 ? plain.rgb() : QColor(QString::fromLatin1(assembly_colour(static_cast<std::size_t>(group[n])))).rgb();
    }
    update();
}

void RasterView::set_highlight(double start_s, double end_s) {
    highlight_t0_ = start_s;
    highlight_t1_ = end_s;
    update();
}

void RasterView::set_occurrences(std::vector<std::vector<std::uint32_t>> occurrences) {
    occurrences_ = std::move(occurrences);
    update();
}

void RasterView::fit() {
    if (trains_ != nullptr) {
        const TimeBase& base = trains_->time_base();
        data_t0_ = base.to_seconds(trains_->span().start);
        data_t1_ = base.to_seconds(trains_->span().end);
        if (!(data_t1_ > data_t0_)) data_t1_ = data_t0_ + 1;
        const double pad = (data_t1_ - data_t0_) * 0.01;
        t0_ = data_t0_ - pad;
        t1_ = data_t1_ + pad;
        n0_ = 0;
        n1_ = static_cast<double>(std::max<std::size_t>(trains_->num_neurons(), 1));
    }
    update();
}

QRect RasterView::plot_rect() const {
    const QFontMetrics metrics(font());
    const int left = metrics.height() + 6 + label_width_ + 10;
    const int bottom = 2 * metrics.height() + 14;
    return QRect(left, 8, std::max(width() - left - 12, 10), std::max(height() - 8 - bottom, 10));
}

double RasterView::seconds_at(double x, const QRect& plot) const {
    return t0_ + (x - plot.left()) / plot.width() * (t1_ - t0_);
}

double RasterView::row_at(double y, const QRect& plot) const {
    return n0_ + (y - plot.top()) / plot.height() * (n1_ - n0_);
}

double RasterView::row_height(const QRect& plot) const { return plot.height() / (n1_ - n0_); }

void RasterView::clamp_view() {
    if (trains_ == nullptr) return;
    // Keep the middle of the view inside the recording, and the rows inside the neurons.
    const double w = t1_ - t0_;
    t0_ = std::clamp(t0_, data_t0_ - 0.5 * w, data_t1_ - 0.5 * w);
    t1_ = t0_ + w;
    const double neurons = static_cast<double>(std::max<std::size_t>(trains_->num_neurons(), 1));
    const double h = std::min(n1_ - n0_, neurons);
    n0_ = std::clamp(n0_, 0.0, neurons - h);
    n1_ = n0_ + h;
}

void RasterView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().window());
    if (trains_ == nullptr || trains_->num_neurons() == 0) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter,
                         trains_ == nullptr ? tr("No recording loaded.\nUse File ▸ Open… to read a spike file.")
                                            : tr("This recording has no neurons."));
        return;
    }
    const QRect plot = plot_rect();
    const qreal ratio = devicePixelRatioF();
    QImage image(plot.size() * ratio, QImage::Format_RGB32);
    image.setDevicePixelRatio(ratio);
    render_plot(image, plot);
    painter.drawImage(plot.topLeft(), image);
    if (highlight_t1_ > highlight_t0_ && highlight_t1_ > t0_ && highlight_t0_ < t1_) {
        const double x0 = plot.left() + std::max(0.0, (highlight_t0_ - t0_) / (t1_ - t0_)) * plot.width();
        const double x1 = plot.left() + std::min(1.0, (highlight_t1_ - t0_) / (t1_ - t0_)) * plot.width();
        painter.fillRect(QRectF(x0, plot.top(), std::max(1.0, x1 - x0), plot.height()), kHighlight);
    }
    draw_occurrences(painter, plot);
    draw_activations(painter, plot);
    painter.setPen(palette().color(QPalette::Mid));
    painter.drawRect(plot.adjusted(0, 0, -1, -1));
    painter.setPen(palette().color(QPalette::WindowText));
    draw_time_axis(painter, plot);
    draw_neuron_axis(painter, plot);
}

void RasterView::render_plot(QImage& image, const QRect& plot) const {
    image.fill(kPlotBackground);
    {
        QPainter painter(&image);
        const double row_h = row_height(plot);
        if (row_h >= 4) {
            // Banded rows tell neighbouring neurons apart once rows are tall enough.
            for (auto n = static_cast<long>(std::floor(n0_)); n < static_cast<long>(std::ceil(n1_)); ++n) {
                if (n % 2 != 0) continue;
                const double y = (static_cast<double>(n) - n0_) * row_h;
                painter.fillRect(QRectF(0, y, plot.width(), row_h), kRowBand);
            }
        }
        painter.setPen(kGridColor);
        const double step = nice_step((t1_ - t0_) * kMinTimeLabelSpacing / plot.width());
        for (double k = std::ceil(t0_ / step); k * step <= t1_; k += 1) {
            const double x = (k * step - t0_) / (t1_ - t0_) * plot.width();
            painter.drawLine(QPointF(x, 0), QPointF(x, plot.height()));
        }
    }
    draw_spikes(image);
}

void RasterView::draw_spikes(QImage& image) const {
    const SpikeTrains& trains = *trains_;
    const int width = image.width();
    const int height = image.height();
    const double ticks_per_second = static_cast<double>(trains.time_base().ticks_per_second);
    const double tick0 = t0_ * ticks_per_second;
    const double ticks_per_pixel = (t1_ - t0_) * ticks_per_second / width;
    const double row_h = height / (n1_ - n0_);
    const double tick_length = std::min(row_h * 0.7, kMaxTickLength);
    const Tick* times = trains.times().data();
    auto* pixels = reinterpret_cast<QRgb*>(image.bits());
    const auto stride = static_cast<std::ptrdiff_t>(image.bytesPerLine() / sizeof(QRgb));

    // Zoomed out to a bin or more per pixel column: column x shows the bins that start in
    // it (so a spike may show one column early), read from the bit index.
    const bool binned = bins_ != nullptr && ticks_per_pixel >= static_cast<double>(bins_->width());
    std::vector<std::size_t> column_bins;  // column x's bins: [column_bins[x], column_bins[x + 1])
    if (binned) {
        const auto bin_width = static_cast<double>(bins_->width());
        const auto origin = static_cast<double>(bins_->start());
        for (int x = 0; x <= width; ++x) {
            const double bin = std::ceil((tick0 + x * ticks_per_pixel - origin) / bin_width);
            column_bins.push_back(static_cast<std::size_t>(std::clamp(bin, 0.0, static_cast<double>(bins_->bins()))));
        }
    }

    const auto first = static_cast<NeuronId>(std::max(0.0, std::floor(n0_)));
    const auto end = static_cast<NeuronId>(std::min(static_cast<double>(trains.num_neurons()), std::ceil(n1_)));
    for (NeuronId row = first; row < end; ++row) {
        const NeuronId n = neuron_at_row_[row];
        const double middle = (row - n0_ + 0.5) * row_h;
        const int y0 = std::max(0, static_cast<int>(std::floor(middle - tick_length / 2)));
        const int y1 = std::min(height - 1, std::max(y0, static_cast<int>(std::ceil(middle + tick_length / 2)) - 1));
        if (y0 > y1) continue;
        const QRgb color = row_colours_[n];
        if (binned) {
            for (int x = 0; x < width; ++x) {
                if (!bins_->any(n, column_bins[static_cast<std::size_t>(x)], column_bins[static_cast<std::size_t>(x) + 1])) continue;
                for (int y = y0; y <= y1; ++y) pixels[y * stride + x] = color;
            }
            continue;
        }
        const auto positions = trains.spikes_of(n);
        const std::uint32_t* spikes = positions.data();
        const std::size_t count = positions.size();
        std::size_t i = first_at_or_after(times, spikes, 0, count, tick0);
        while (i < count) {
            const double column = (static_cast<double>(times[spikes[i]]) - tick0) / ticks_per_pixel;
            if (column >= width) break;
            const int x = std::max(0, static_cast<int>(column));
            for (int y = y0; y <= y1; ++y) pixels[y * stride + x] = color;
            // One tick per pixel column: skip the rest of this column's spikes at once.
            i = first_at_or_after(times, spikes, i + 1, count, tick0 + (x + 1) * ticks_per_pixel);
        }
    }
}

void RasterView::draw_time_axis(QPainter& painter, const QRect& plot) const {
    const QFontMetrics metrics(font());
    const double step = nice_step((t1_ - t0_) * kMinTimeLabelSpacing / plot.width());
    const int y = plot.bottom() + 1;
    for (double k = std::ceil(t0_ / step); k * step <= t1_; k += 1) {
        const double x = plot.left() + (k * step - t0_) / (t1_ - t0_) * plot.width();
        painter.drawLine(QPointF(x, y), QPointF(x, y + 4));
        const QString text = format_axis_value(k * step, step);
        const int w = metrics.horizontalAdvance(text);
        painter.drawText(QPointF(x - w / 2.0, y + 6 + metrics.ascent()), text);
    }
    const QString title = tr("time (s)   ·   showing %1").arg(format_duration(t1_ - t0_));
    painter.drawText(QRect(plot.left(), y + 6 + metrics.height(), plot.width(), metrics.height() + 4),
                     Qt::AlignCenter, title);
}

void RasterView::draw_occurrences(QPainter& painter, const QRect& plot) const {
    if (occurrences_.empty()) return;
    const TimeBase& base = trains_->time_base();
    const auto times = trains_->times();
    const auto neurons = trains_->neurons();
    const double row_h = row_height(plot);
    const auto point = [&](std::uint32_t event) {
        return QPointF(plot.left() + (base.to_seconds(times[event]) - t0_) / (t1_ - t0_) * plot.width(),
                       plot.top() + (static_cast<double>(row_of_neuron_[neurons[event]]) - n0_ + 0.5) * row_h);
    };
    painter.save();
    painter.setClipRect(plot);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(QPen(kOccurrenceColor, 1.5));
    painter.setBrush(kOccurrenceColor);
    // Occurrences are in time order: skip to the first that can reach the view.
    const auto first = std::partition_point(occurrences_.begin(), occurrences_.end(), [&](const auto& occurrence) {
        return base.to_seconds(times[occurrence.back()]) < t0_;
    });
    for (auto it = first; it != occurrences_.end() && base.to_seconds(times[it->front()]) <= t1_; ++it) {
        QPointF previous = point(it->front());
        painter.drawEllipse(previous, 2.5, 2.5);
        for (std::size_t k = 1; k < it->size(); ++k) {
            const QPointF next = point((*it)[k]);
            painter.drawLine(previous, next);
            painter.drawEllipse(next, 2.5, 2.5);
            previous = next;
        }
    }
    painter.restore();
}

void RasterView::draw_neuron_axis(QPainter& painter, const QRect& plot) const {
    const QFontMetrics metrics(font());
    const double row_h = row_height(plot);
    // Label every row when rows are tall enough, else every k-th row with k a nice number.
    const auto stride = static_cast<long>(row_h >= metrics.height() ? 1 : nice_step(metrics.height() * 1.2 / row_h));
    const int right = plot.left() - 6;
    for (auto n = static_cast<long>(std::ceil(n0_)); n < static_cast<long>(std::ceil(n1_)); ++n) {
        if (n % stride != 0 || n >= static_cast<long>(trains_->num_neurons())) continue;
        const double y = plot.top() + (static_cast<double>(n) - n0_ + 0.5) * row_h;
        painter.drawLine(QPointF(plot.left() - 4, y), QPointF(plot.left(), y));
        const QString label = metrics.elidedText(QString::fromStdString(trains_->label(neuron_at_row_[static_cast<std::size_t>(n)])),
                                                 Qt::ElideMiddle, label_width_);
        painter.drawText(QRectF(right - label_width_, y - metrics.height() / 2.0, label_width_, metrics.height()),
                         Qt::AlignRight | Qt::AlignVCenter, label);
    }
    painter.save();
    painter.translate(2, plot.center().y());
    painter.rotate(-90);
    painter.drawText(QRect(-plot.height() / 2, 0, plot.height(), metrics.height()), Qt::AlignCenter,
                     stride == 1 ? tr("neuron") : tr("neuron (every %1 labelled)").arg(stride));
    painter.restore();
}

void RasterView::wheelEvent(QWheelEvent* event) {
    if (trains_ == nullptr) return;
    const QRect plot = plot_rect();
    const QPoint delta = event->angleDelta();
    const double notches = (delta.y() != 0 ? delta.y() : delta.x()) / 120.0;
    const double factor = std::pow(kWheelZoomPerNotch, notches);
    const QPointF pos = event->position();
    if (event->modifiers() & Qt::ControlModifier) {
        const double neurons = static_cast<double>(trains_->num_neurons());
        const double old_h = n1_ - n0_;
        const double h = std::clamp(old_h * factor, std::min(neurons, 3.0), std::max(neurons, 1.0));
        const double anchor = row_at(pos.y(), plot);
        n0_ = anchor - (anchor - n0_) * h / old_h;
        n1_ = n0_ + h;
    } else {
        const double old_w = t1_ - t0_;
        const double min_w = 10 * trains_->time_base().tick_seconds();
        const double w = std::clamp(old_w * factor, min_w, std::max(min_w, 1.5 * (data_t1_ - data_t0_)));
        const double anchor = seconds_at(pos.x(), plot);
        t0_ = anchor - (anchor - t0_) * w / old_w;
        t1_ = t0_ + w;
    }
    clamp_view();
    update();
    update_hover(pos.toPoint());
    event->accept();
}

void RasterView::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || trains_ == nullptr) return;
    dragging_ = true;
    drag_origin_ = event->position().toPoint();
    drag_t0_ = t0_;
    drag_n0_ = n0_;
    setCursor(Qt::ClosedHandCursor);
}

void RasterView::mouseMoveEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    if (dragging_) {
        const QRect plot = plot_rect();
        const double w = t1_ - t0_;
        const double h = n1_ - n0_;
        t0_ = drag_t0_ - (pos.x() - drag_origin_.x()) * w / plot.width();
        t1_ = t0_ + w;
        n0_ = drag_n0_ - (pos.y() - drag_origin_.y()) * h / plot.height();
        n1_ = n0_ + h;
        clamp_view();
        update();
    }
    update_hover(pos);
}

void RasterView::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return;
    dragging_ = false;
    setCursor(Qt::CrossCursor);
}

void RasterView::mouseDoubleClickEvent(QMouseEvent*) { fit(); }

void RasterView::leaveEvent(QEvent*) { emit hover_changed(QString()); }

void RasterView::update_hover(const QPoint& pos) {
    const QRect plot = plot_rect();
    if (trains_ == nullptr || !plot.contains(pos)) {
        emit hover_changed(QString());
        return;
    }
    const double seconds = seconds_at(pos.x(), plot);
    const auto row = static_cast<long>(std::floor(row_at(pos.y(), plot)));
    const double pixel = (t1_ - t0_) / plot.width();
    const int decimals = std::clamp(static_cast<int>(std::ceil(-std::log10(pixel))), 0, 9);
    QString text = tr("%1 s").arg(seconds, 0, 'f', decimals);
    if (row >= 0 && row < static_cast<long>(trains_->num_neurons())) {
        const NeuronId n = neuron_at_row_[static_cast<std::size_t>(row)];
        text += tr("   neuron %1 (%2 spikes)").arg(QString::fromStdString(trains_->label(n))).arg(trains_->spike_count(n));
    }
    emit hover_changed(text);
}

}  // namespace spikeminer::gui
