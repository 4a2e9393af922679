#pragma once

#include <cstdint>
#include <string>

namespace spikeminer {

/// A time in integer ticks. Signed: recordings aligned to a stimulus have negative times.
using Tick = std::int64_t;

/// The largest magnitude of a time in a recording (spikes, spans, observation intervals):
/// below 2^62, so that the difference of two times, and a time plus an interval bound (at
/// most 2^62 ticks, as parsed), never leave int64. 2^62 µs is 146,000 years.
inline constexpr Tick kMaxRecordingTick = (Tick{1} << 62) - 1;

/// The length of one tick, as a whole number of ticks per second (1 µs = 1'000'000).
/// Every time in the program is an integer count of ticks; floating point never decides
/// whether a constraint holds.
struct TimeBase {
    std::int64_t ticks_per_second = 1'000'000;

    /// The tick length in seconds (for display and rates only).
    [[nodiscard]] double tick_seconds() const { return 1.0 / static_cast<double>(ticks_per_second); }

    /// Converts seconds to the nearest tick, exactly: the double is expanded to its exact
    /// binary value, multiplied by ticks_per_second in 128-bit integers, and rounded half
    /// away from zero. Throws Error for NaN, infinities and times beyond ±2^62 ticks.
    [[nodiscard]] Tick from_seconds(double seconds) const;

    /// Converts ticks to seconds (nearest double; for display and text output).
    [[nodiscard]] double to_seconds(Tick ticks) const {
        return static_cast<double>(ticks) / static_cast<double>(ticks_per_second);
    }

    /// "1 µs", "1 ms", "1/30000 s": a human description of the tick.
    [[nodiscard]] std::string describe() const;

    bool operator==(const TimeBase&) const = default;
};

/// Units per second of "s", "ms", "us" (or "µs") and "ns"; throws UsageError for another.
std::int64_t units_per_second(const std::string& unit);

/// Ticks as a decimal number of `unit`: exact digits when the quotient ends within 18
/// decimals (always, for ticks that are decimal fractions of a second), otherwise 17
/// significant digits, which read back to the same tick.
std::string format_ticks(Tick ticks, const TimeBase& time_base, const std::string& unit);

/// Converts a decimal length such as "5", "0.25" or "12.5" in `unit` ("s", "ms", "us",
/// "ns") to ticks exactly; throws UsageError when it is not a non-negative decimal or not
/// a whole number of ticks.
Tick parse_ticks(const std::string& number, const std::string& unit, const TimeBase& time_base);

/// Parses a tick given as "1us", "1 µs", "100ns", "1ms", "0.5ms", "1s" or a number of
/// ticks per second ("30000/s"). Throws UsageError when the text is not one of these or
/// the tick is not a whole fraction of a second.
TimeBase parse_time_base(const std::string& text);

}  // namespace spikeminer
