#pragma once
// A surrogate test's result (an episode's, an assembly's) as every output writes it: a
// JSON object, five CSV columns, a row of five numbers for HDF5.

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

}  // namespace spikeminer::io::detail
