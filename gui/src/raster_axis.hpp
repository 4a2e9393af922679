#pragma once

#include <QString>

namespace spikeminer::gui {

/// The smallest "nice" step (1, 2 or 5 times a power of ten) of at least `min_step`.
double nice_step(double min_step);

/// `value` formatted with just enough decimals to tell apart multiples of `step`.
QString format_axis_value(double value, double step);

/// A duration in seconds as a short text: "1.5 ms", "12.3 s", "2 h 03 min".
QString format_duration(double seconds);

}  // namespace spikeminer::gui
