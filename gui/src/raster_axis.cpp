#include "raster_axis.hpp"

#include <algorithm>
#include <cmath>

namespace spikeminer::gui {

double nice_step(double min_step) {
    if (!(min_step > 0) || !std::isfinite(min_step)) return 1.0;
    const double power = std::pow(10.0, std::floor(std::log10(min_step)));
    for (const double m : {1.0, 2.0, 5.0, 10.0}) {
        if (m * power >= min_step * (1 - 1e-9)) return m * power;
    }
    return 10.0 * power;
}

QString format_axis_value(double value, double step) {
    const int decimals = std::clamp(static_cast<int>(std::ceil(-std::log10(step) - 1e-9)), 0, 9);
    // Avoid "-0" for a gridline at zero reached by floating-point steps.
    if (std::abs(value) < step * 1e-6) value = 0;
    return QString::number(value, 'f', decimals);
}

QString format_duration(double seconds) {
    const double a = std::abs(seconds);
    if (a == 0) return QStringLiteral("0 s");
    if (a < 1e-3) return QStringLiteral("%1 µs").arg(seconds * 1e6, 0, 'g', 4);
    if (a < 1) return QStringLiteral("%1 ms").arg(seconds * 1e3, 0, 'g', 4);
    if (a < 120) return QStringLiteral("%1 s").arg(seconds, 0, 'g', 4);
    if (a < 7200) return QStringLiteral("%1 min").arg(seconds / 60, 0, 'g', 4);
    return QStringLiteral("%1 h").arg(seconds / 3600, 0, 'g', 4);
}

}  // namespace spikeminer::gui
