// See significance_fields.hpp.
#include "significance_fields.hpp"

#include "spikeminer/core/error.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

namespace spikeminer::io::detail {

nlohmann::json significance_json(const mining::SurrogateSignificance& s) {
    return {{"p", s.p},
            {"p_adjusted", s.p_adjusted},
            {"surrogate_mean", s.surrogate_mean},
            {"surrogate_sd", s.surrogate_sd},
            {"surrogates", s.surrogates_used}};
}

std::string significance_csv(const std::optional<mining::SurrogateSignificance>& s) {
    if (!s) return ",,,,,";
    char numbers[160];
    std::snprintf(numbers, sizeof numbers, ",%.6g,%.6g,%.6g,%.6g,%zu", s->p, s->p_adjusted, s->surrogate_mean, s->surrogate_sd,
                  s->surrogates_used);
    return numbers;
}

std::array<double, 5> significance_row(const std::optional<mining::SurrogateSignificance>& s) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (!s) return {nan, nan, nan, nan, nan};
    return {s->p, s->p_adjusted, s->surrogate_mean, s->surrogate_sd, static_cast<double>(s->surrogates_used)};
}

nlohmann::json chance_json(const mining::ChanceResult& c) {
    return {{"pairs", c.count},       {"reversed_pairs", c.reversed}, {"baseline_pairs", c.baseline},
            {"expected_pairs", c.expected}, {"p", c.p},                 {"p_adjusted", c.p_adjusted}};
}

std::string chance_csv(const std::optional<mining::ChanceResult>& c) {
    if (!c) return ",,,,,,";
    char numbers[200];
    std::snprintf(numbers, sizeof numbers, ",%llu,%llu,%llu,%.6g,%.6g,%.6g", static_cast<unsigned long long>(c->count),
                  static_cast<unsigned long long>(c->reversed), static_cast<unsigned long long>(c->baseline), c->expected, c->p,
                  c->p_adjusted);
    return numbers;
}

std::array<double, 6> chance_row(const std::optional<mining::ChanceResult>& c) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (!c) return {nan, nan, nan, nan, nan, nan};
    return {static_cast<double>(c->count), static_cast<double>(c->reversed), static_cast<double>(c->baseline), c->expected, c->p, c->p_adjusted};
}

std::optional<mining::ChanceResult> chance_from_row(const double* row, const std::string& where) {
    if (std::isnan(row[0])) return std::nullopt;
    const auto count = [&](double v) {
        if (!(v >= 0 && v <= 9.0e15 && v == std::floor(v))) throw Error(where + ": a pair count is not a whole number, not negative");
        return static_cast<std::uint64_t>(v);
    };
    const auto probability = [&](double v) {
        if (!(v >= 0 && v <= 1)) throw Error(where + ": a p-value is not between 0 and 1");
        return v;
    };
    if (!(row[3] >= 0)) throw Error(where + ": the expected pairs are negative or not a number");
    return mining::ChanceResult{count(row[0]), count(row[1]), count(row[2]), row[3], probability(row[4]), probability(row[5])};
}

}  // namespace spikeminer::io::detail
