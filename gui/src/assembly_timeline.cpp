#include "assembly_timeline.hpp"

#include "spikeminer/app/assembly_palette.hpp"

#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>

#include <algorithm>

namespace spikeminer::gui {
namespace {

constexpr int kRow = 14;       // pixels per assembly
constexpr int kTop = 6;
constexpr int kLeft = 86;      // room for "assembly 123 (7)"
constexpr int kRight = 10;

}  // namespace

AssemblyTimeline::AssemblyTimeline(QWidget* parent) : QWidget(parent) {
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
}

QSize AssemblyTimeline::sizeHint() const {
    const int rows = run_ == nullptr ? 1 : static_cast<int>(std::max<std::size_t>(run_->result.assemblies.size(), 1));
    return {600, kTop + kRow * rows + 6};
}

void AssemblyTimeline::set_run(RunPtr run) {
    run_ = std::move(run);
    window_ = 0;
    selected_.reset();
    if (run_ != nullptr && !run_->result.windows.empty()) {
        from_ = run_->result.windows.front().span.start;
        to_ = std::max(run_->result.windows.back().span.end, from_ + 1);
    }
    setMinimumHeight(sizeHint().height());
    updateGeometry();
    update();
}

void AssemblyTimeline::set_window(std::size_t w) {
    window_ = w;
    update();
}

void AssemblyTimeline::set_selected_assembly(std::optional<std::size_t> a) {
    selected_ = a;
    update();
}

double AssemblyTimeline::x_of(Tick t) const {
    return kLeft + static_cast<double>(width() - kLeft - kRight) * static_cast<double>(t - from_) / static_cast<double>(to_ - from_);
}

int AssemblyTimeline::window_at(double x) const {
    if (run_ == nullptr || run_->result.windows.empty() || x < kLeft || x > width() - kRight) return -1;
    const auto& windows = run_->result.windows;
    const double fraction = (x - kLeft) / std::max(1.0, static_cast<double>(width() - kLeft - kRight));
    const double t = static_cast<double>(from_) + fraction * static_cast<double>(to_ - from_);
    // The window whose centre is nearest.
    std::size_t best = 0;
    double nearest = -1;
    for (std::size_t w = 0; w < windows.size(); ++w) {
        const double d = std::abs(static_cast<double>(windows[w].span.start + windows[w].span.end) / 2 - t);
        if (nearest < 0 || d < nearest) nearest = d, best = w;
    }
    return static_cast<int>(best);
}

void AssemblyTimeline::paintEvent(QPaintEvent* event) {
    QPainter painter(this);
    if (run_ == nullptr || run_->result.windows.empty() || run_->result.assemblies.empty()) {
        painter.drawText(rect(), Qt::AlignCenter, run_ == nullptr ? tr("No pipeline run yet") : tr("No assembly was tracked"));
        return;
    }
    const auto& windows = run_->result.windows;
    const auto& assemblies = run_->result.assemblies;
    const auto centre = [&](std::size_t w) { return (windows[w].span.start + windows[w].span.end) / 2; };
    const int first = std::max(0, (event->rect().top() - kTop) / kRow);
    const int last = std::min(static_cast<int>(assemblies.size()) - 1, (event->rect().bottom() - kTop) / kRow);
    for (int row = first; row <= last; ++row) {
        const auto a = static_cast<std::size_t>(row);
        const pipeline::Assembly& assembly = assemblies[a];
        const int y = kTop + kRow * row;
        if (selected_ == a) painter.fillRect(QRect(0, y, width(), kRow), palette().color(QPalette::Highlight).lighter(170));
        painter.setPen(palette().color(QPalette::Text));
        painter.drawText(QRect(2, y, kLeft - 6, kRow), Qt::AlignRight | Qt::AlignVCenter,
                         tr("%1 (%2)").arg(assembly.track.id).arg(assembly.members.size()));
        const QColor colour(QString::fromLatin1(assembly_colour(a)));
        for (const TimeSpan& period : assembly.active) {
            const double x0 = x_of(period.start);
            painter.fillRect(QRectF(x0, y + 2, std::max(1.0, x_of(period.end) - x0), kRow - 6), QColor(colour.red(), colour.green(), colour.blue(), 160));
        }
        painter.setPen(colour.darker(140));
        for (const Tick t : assembly.activations) painter.drawLine(QPointF(x_of(t), y + kRow - 4), QPointF(x_of(t), y + kRow - 1));
    }
    const double x = x_of(centre(std::min(window_, windows.size() - 1)));
    painter.setPen(QPen(palette().color(QPalette::Highlight), 1.5));
    painter.drawLine(QPointF(x, event->rect().top()), QPointF(x, event->rect().bottom()));
}

void AssemblyTimeline::mousePressEvent(QMouseEvent* event) {
    if (run_ == nullptr || event->button() != Qt::LeftButton) return;
    const int row = (static_cast<int>(event->position().y()) - kTop) / kRow;
    const bool on_row = event->position().y() >= kTop && row < static_cast<int>(run_->result.assemblies.size());
    emit clicked(on_row ? row : -1, window_at(event->position().x()));
}

}  // namespace spikeminer::gui
