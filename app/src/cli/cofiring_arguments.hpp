#pragma once

#include "spikeminer/mining/cofiring.hpp"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

namespace spikeminer::cli {

/// The co-firing flags `assemblies` and `cofiring` share: the lags, the edge test and where
/// it runs.
struct CofiringArguments {
    std::string sync = mining::kDefaultSyncMs;
    std::string intervals;
    std::string baseline = mining::kDefaultBaselineMs;
    std::string unit = "ms";
    std::string chance = "baseline";
    std::string correction = "bh";
    double q = 0.01;
    std::uint64_t min_count = 1;
    double min_ratio = 0;
    std::optional<double> min_z;
    std::string edge_test = "analytic";
    std::size_t surrogates = 1000;
    std::string surrogate = "dither";
    double dither_ms = 10;
    double refractory_ms = 1;
    std::uint64_t surrogate_seed = 1;
    std::string backend = "auto";
    unsigned threads = 0;

    /// Registers the flags on `command`, with `intervals` as the default of --intervals.
    void add_to(CLI::App& command, const std::string& intervals_default);
    /// The options these flags ask for, in the recording's ticks (UsageError on bad values).
    [[nodiscard]] mining::CofiringOptions options(const TimeBase& time_base) const;
};

}  // namespace spikeminer::cli
