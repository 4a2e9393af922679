#pragma once

#include "spikeminer/app/pipeline/pipeline.hpp"

#include <string>

namespace spikeminer::pipeline::detail {

/// The results.h5 layout's version (results_h5.cpp): 2 added the active periods.
inline constexpr std::int64_t kResultsVersion = 2;

/// results.h5 (results_h5.cpp has the layout).
void write_results_h5(const std::string& path, const Input& input, const std::string& config_json, const PipelineResult& result,
                      const std::string& version);

}  // namespace spikeminer::pipeline::detail
