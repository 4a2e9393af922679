#pragma once
// Wall-clock timing and table cells for the benchmarks.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace spikeminer::bench {

/// Seconds that `work` takes.
inline double seconds_of(const std::function<void()>& work) {
    const auto start = std::chrono::steady_clock::now();
    work();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// The median of `values` (the mean of the middle two for an even count); 0 for none.
inline double median(std::vector<double> values) {
    if (values.empty()) return 0;
    const std::size_t half = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(half), values.end());
    if (values.size() % 2 == 1) return values[half];
    return (values[half] + *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(half))) / 2;
}

/// A table cell: `value` printed with `format`, or "-" when it is negative (not run).
inline std::string cell(double value, const char* format) {
    if (value < 0) return "-";
    char text[32];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

}  // namespace spikeminer::bench
