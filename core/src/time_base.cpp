#include "spikeminer/core/time_base.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/in_quotes.hpp"

#include <cmath>
#include <cstdio>
#include <cstdint>
#include <string_view>
#include <utility>

namespace spikeminer {
namespace {

// 128-bit integers make the seconds-to-ticks product exact (a GCC/Clang extension).
__extension__ using Int128 = __int128;

constexpr Tick kMaxTick = Tick{1} << 62;

// Exact decimal rational parsed from text such as "0.5" or "30000": value = num / den.
struct Decimal {
    std::int64_t num = 0;
    std::int64_t den = 1;
};

bool parse_decimal(std::string_view text, Decimal& out) {
    if (text.empty()) return false;
    bool seen_digit = false;
    bool after_point = false;
    for (char c : text) {
        if (c == '.' && !after_point) {
            after_point = true;
            continue;
        }
        if (c < '0' || c > '9') return false;
        if (out.num > (INT64_MAX - 9) / 10 || out.den > INT64_MAX / 10) return false;
        out.num = out.num * 10 + (c - '0');
        if (after_point) out.den *= 10;
        seen_digit = true;
    }
    return seen_digit && out.num > 0;
}

}  // namespace

Tick TimeBase::from_seconds(double seconds) const {
    if (!std::isfinite(seconds)) throw Error("time is not a finite number");
    if (seconds == 0.0) return 0;
    int exponent = 0;
    const double fraction = std::frexp(std::fabs(seconds), &exponent);  // |s| = fraction * 2^exponent
    const auto mantissa = static_cast<std::int64_t>(std::ldexp(fraction, 53));
    const int shift = exponent - 53;  // |s| = mantissa * 2^shift exactly
    const Int128 product = static_cast<Int128>(mantissa) * ticks_per_second;
    Int128 ticks = 0;
    if (shift >= 0) {
        if (shift > 62 || product > (static_cast<Int128>(kMaxTick) >> shift)) {
            throw Error("time " + shown(seconds) + " s is beyond the range of 2^62 ticks");
        }
        ticks = product << shift;
    } else if (-shift < 126) {
        const int k = -shift;
        const Int128 quotient = product >> k;
        const Int128 remainder = product - (quotient << k);
        ticks = quotient + (remainder >= (static_cast<Int128>(1) << (k - 1)) ? 1 : 0);  // half away from zero
    }
    if (ticks > kMaxTick) throw Error("time " + shown(seconds) + " s is beyond the range of 2^62 ticks");
    const auto magnitude = static_cast<Tick>(ticks);
    return seconds < 0 ? -magnitude : magnitude;
}

namespace {

// The units of time that are read and written. Longer names first, so that a suffix
// match takes "ms" before "s"; "us" is read but "µs" is written.
struct TimeUnit {
    std::string_view name;
    std::int64_t per_second;
    bool written;
};
constexpr TimeUnit kUnits[] = {
    {"ns", 1'000'000'000, true}, {"us", 1'000'000, false}, {"µs", 1'000'000, true}, {"ms", 1'000, true}, {"s", 1, true}};

}  // namespace

std::string TimeBase::describe() const {
    // The largest written unit in which the tick is a whole number below 1000.
    for (auto unit = std::rbegin(kUnits); unit != std::rend(kUnits); ++unit) {
        if (unit->written && unit->per_second % ticks_per_second == 0 && unit->per_second / ticks_per_second < 1000) {
            return std::to_string(unit->per_second / ticks_per_second) + " " + std::string(unit->name);
        }
    }
    return "1/" + std::to_string(ticks_per_second) + " s";
}

std::int64_t units_per_second(const std::string& unit) {
    for (const TimeUnit& known : kUnits) {
        if (unit == known.name) return known.per_second;
    }
    throw UsageError("unit '" + unit + "' is not one of s, ms, us, ns");
}

std::string format_ticks(Tick ticks, const TimeBase& time_base, const std::string& unit) {
    const Int128 numerator = static_cast<Int128>(ticks) * units_per_second(unit);
    const Int128 denominator = time_base.ticks_per_second;
    Int128 remainder = numerator % denominator;
    const auto whole = static_cast<long long>(numerator / denominator);
    std::string text = numerator < 0 && whole == 0 ? "-0" : std::to_string(whole);
    if (remainder == 0) return text;
    if (remainder < 0) remainder = -remainder;
    char digits[20];
    int count = 0;
    for (; count < 18 && remainder != 0; ++count) {
        remainder *= 10;
        digits[count] = static_cast<char>('0' + static_cast<int>(remainder / denominator));
        remainder %= denominator;
    }
    if (remainder != 0) {
        char buffer[40];
        std::snprintf(buffer, sizeof buffer, "%.17g", static_cast<double>(numerator) / static_cast<double>(denominator));
        return buffer;
    }
    text += '.';
    text.append(digits, static_cast<std::size_t>(count));
    return text;
}

Tick parse_ticks(const std::string& number, const std::string& unit, const TimeBase& time_base) {
    const std::int64_t per_second = units_per_second(unit);
    Decimal value;
    if (number == "0") return 0;
    if (!parse_decimal(number, value)) {
        throw UsageError("'" + number + "' is not a non-negative decimal number of " + unit);
    }
    // ticks = value * ticks_per_second / per_second = num * tps / (den * per_second)
    const Int128 numerator = static_cast<Int128>(value.num) * time_base.ticks_per_second;
    const Int128 denominator = static_cast<Int128>(value.den) * per_second;
    if (numerator % denominator != 0) {
        throw UsageError(number + " " + unit + " is not a whole number of ticks (the tick is " + time_base.describe() + ")");
    }
    const Int128 ticks = numerator / denominator;
    if (ticks > kMaxTick) throw UsageError(number + " " + unit + " is beyond the range of 2^62 ticks");
    return static_cast<Tick>(ticks);
}

TimeBase parse_time_base(const std::string& text) {
    const auto fail = [&]() -> TimeBase {
        throw UsageError("tick '" + text +
                         "' is not understood: give a length such as 1us, 100ns, 1ms, or a rate such as 30000/s, "
                         "that divides one second into a whole number of ticks");
    };
    std::string_view s = text;
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    if (s.ends_with("/s")) {
        Decimal rate;
        if (!parse_decimal(s.substr(0, s.size() - 2), rate) || rate.den != 1) return fail();
        return TimeBase{rate.num};
    }
    for (const TimeUnit& suffix : kUnits) {
        if (!s.ends_with(suffix.name)) continue;
        std::string_view number = s.substr(0, s.size() - suffix.name.size());
        while (!number.empty() && number.back() == ' ') number.remove_suffix(1);
        Decimal length;
        if (!parse_decimal(number, length)) return fail();
        // ticks per second = per_second / (num / den) = per_second * den / num
        const Int128 scaled = static_cast<Int128>(suffix.per_second) * length.den;
        if (scaled % length.num != 0) return fail();
        return TimeBase{static_cast<std::int64_t>(scaled / length.num)};
    }
    return fail();
}

}  // namespace spikeminer
