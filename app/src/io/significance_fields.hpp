#pragma once
// A test's result as every output writes it: a surrogate test's (an episode's, an
// assembly's) as a JSON object, five CSV columns, a row of five numbers for HDF5; an
// episode's test against chance as a JSON object, six CSV columns, a row of six numbers.

#include "spikeminer/mining/chance.hpp"
#include "spikeminer/mining/significance.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <optional>
#include <string>

namespace spikeminer::io::detail {

/// The CSV columns' names, after a comma each.
inline constexpr const char* kSignificanceColumns = ",p,p_adjusted,surrogate_mean,surrogate_sd,surrogates";

/// {"p", "p_adjusted", "surrogate_mean", "surrogate_sd", "surrogates"}.
nlohmann::json significance_json(const mining::SurrogateSignificance& s);

/// The five CSV columns, each after a comma; empty ones for an untested item.
std::string significance_csv(const std::optional<mining::SurrogateSignificance>& s);

/// p, p_adjusted, surrogate mean, surrogate sd, surrogates used; NaN for an untested item.
std::array<double, 5> significance_row(const std::optional<mining::SurrogateSignificance>& s);

/// The test against chance's CSV columns, after a comma each.
inline constexpr const char* kChanceColumns = ",pairs,reversed_pairs,baseline_pairs,expected_pairs,chance_p,chance_p_adjusted";

/// {"pairs", "reversed_pairs", "baseline_pairs", "expected_pairs", "p", "p_adjusted"}.
nlohmann::json chance_json(const mining::ChanceResult& c);

/// The six CSV columns, each after a comma; empty ones for an untested episode.
std::string chance_csv(const std::optional<mining::ChanceResult>& c);

/// pairs, reversed pairs, baseline pairs, expected pairs, p, p_adjusted; NaN for an untested episode.
std::array<double, 6> chance_row(const std::optional<mining::ChanceResult>& c);

/// The result a chance_row holds (none for NaNs); throws Error naming `where` for counts
/// that are not whole and not negative, or p-values outside [0, 1].
std::optional<mining::ChanceResult> chance_from_row(const double* row, const std::string& where);

}  // namespace spikeminer::io::detail
