#pragma once
// Wall-clock timing and table cells for the benchmarks.

#include <chrono>
#include <cstdio>
#include <functional>
#include <string>

namespace spikeminer::bench {

/// Seconds that `work` takes.
inline double seconds_of(const std::function<void()>& work) {
    const auto start = std::chrono::steady_clock::now();
    work();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// A table cell: `value` printed with `format`, or "-" when it is negative (not run).
inline std::string cell(double value, const char* format) {
    if (value < 0) return "-";
    char text[32];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

}  // namespace spikeminer::bench
