// See significance_fields.hpp.
#include "significance_fields.hpp"

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

}  // namespace spikeminer::io::detail
