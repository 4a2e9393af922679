#include "catch.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/time_base.hpp"

#include <cmath>
#include <limits>
#include <random>

using namespace spikeminer;

TEST_CASE("seconds convert to the nearest tick") {
    const TimeBase us{1'000'000};
    CHECK(us.from_seconds(0.0) == 0);
    CHECK(us.from_seconds(1.0) == 1'000'000);
    CHECK(us.from_seconds(-2.5) == -2'500'000);
    CHECK(us.from_seconds(0.033333) == 33'333);
    // 1.7666666666666666 s (a songbird time on a 30 Hz grid) is 1766666.67 µs.
    CHECK(us.from_seconds(1.7666666666666666) == 1'766'667);
    const TimeBase ms{1'000};
    CHECK(ms.from_seconds(0.0004) == 0);
    CHECK(ms.from_seconds(0.0006) == 1);
    CHECK(ms.from_seconds(-0.0006) == -1);
}

TEST_CASE("ties are decided on the exact binary value of the double") {
    const TimeBase ms{1'000};
    // 0.0005 as a double is 0.000500000000000000010408...: above the tie, so it rounds up.
    CHECK(ms.from_seconds(0.0005) == 1);
    // 0.0045 as a double is 0.004499999999999999659...: below the tie, so it rounds down.
    // (Both expansions from Python's decimal.Decimal(0.0005) and Decimal(0.0045).)
    CHECK(ms.from_seconds(0.0045) == 4);
    // Exact binary ties (0.5 ticks) round away from zero.
    const TimeBase s{1};
    CHECK(s.from_seconds(0.5) == 1);
    CHECK(s.from_seconds(-0.5) == -1);
    CHECK(s.from_seconds(2.5) == 3);
    CHECK(TimeBase{4}.from_seconds(0.125) == 1);  // 0.5 ticks
}

TEST_CASE("conversion agrees with long double rounding where that is exact enough") {
    std::mt19937_64 random(7);
    std::uniform_real_distribution<double> seconds(-1e4, 1e4);
    const TimeBase us{1'000'000};
    for (int i = 0; i < 100000; ++i) {
        const double t = seconds(random);
        const long double scaled = static_cast<long double>(t) * 1'000'000.0L;
        const long double frac = std::fabs(scaled - std::trunc(scaled));
        if (std::fabs(frac - 0.5L) < 1e-6L) continue;  // too near a tie for long double to judge
        CHECK(us.from_seconds(t) == static_cast<Tick>(std::llround(scaled)));
    }
}

TEST_CASE("non-finite and huge times are refused") {
    const TimeBase us{};
    CHECK_THROWS_AS(us.from_seconds(std::numeric_limits<double>::quiet_NaN()), Error);
    CHECK_THROWS_AS(us.from_seconds(std::numeric_limits<double>::infinity()), Error);
    CHECK_THROWS_AS(us.from_seconds(-std::numeric_limits<double>::infinity()), Error);
    CHECK_THROWS_WITH(us.from_seconds(1e300), test::contains("2^62"));
    CHECK(us.from_seconds(1e-300) == 0);
}

TEST_CASE("ticks convert back to the seconds they came from") {
    const TimeBase us{};
    for (Tick t : {Tick{0}, Tick{1}, Tick{-1}, Tick{123'456'789}, Tick{3'600'000'000}}) {
        CHECK(us.from_seconds(us.to_seconds(t)) == t);
    }
}

TEST_CASE("ticks are parsed from lengths and rates") {
    CHECK(parse_time_base("1us").ticks_per_second == 1'000'000);
    CHECK(parse_time_base("1 µs").ticks_per_second == 1'000'000);
    CHECK(parse_time_base("100ns").ticks_per_second == 10'000'000);
    CHECK(parse_time_base("0.5ms").ticks_per_second == 2'000);
    CHECK(parse_time_base("1ms").ticks_per_second == 1'000);
    CHECK(parse_time_base("1s").ticks_per_second == 1);
    CHECK(parse_time_base("30000/s").ticks_per_second == 30'000);
    CHECK_THROWS_AS(parse_time_base("3ms"), UsageError);  // 1/3 tick per ms: not whole
    CHECK_THROWS_AS(parse_time_base("fast"), UsageError);
    CHECK_THROWS_AS(parse_time_base("0us"), UsageError);
    CHECK_THROWS_AS(parse_time_base("-1us"), UsageError);
}

TEST_CASE("ticks describe themselves") {
    CHECK(TimeBase{1'000'000}.describe() == "1 µs");
    CHECK(TimeBase{1'000}.describe() == "1 ms");
    CHECK(TimeBase{10'000}.describe() == "100 µs");
    CHECK(TimeBase{30'000}.describe() == "1/30000 s");
}

TEST_CASE("ticks are written as exact decimals of a unit") {
    const TimeBase us{1'000'000};
    CHECK(format_ticks(0, us, "s") == "0");
    CHECK(format_ticks(2'500'000, us, "s") == "2.5");
    CHECK(format_ticks(-1, us, "s") == "-0.000001");
    CHECK(format_ticks(-2'500'000, us, "s") == "-2.5");
    CHECK(format_ticks(1'234, us, "ms") == "1.234");
    CHECK(format_ticks(5, TimeBase{1'000'000'000}, "s") == "0.000000005");
    // 1/30000 s ticks have no finite decimal: 17 significant digits, which read back exactly.
    const TimeBase grid{30'000};
    const std::string text = format_ticks(1'000'001, grid, "s");
    CHECK(grid.from_seconds(std::stod(text)) == 1'000'001);
    CHECK(units_per_second("ms") == 1'000);
    CHECK(units_per_second("µs") == 1'000'000);
    CHECK_THROWS_AS(units_per_second("min"), UsageError);
}
