#pragma once

#include "spikeminer/app/pipeline/pipeline.hpp"

#include <string>

namespace spikeminer::pipeline::detail {

/// results.h5 (results_h5.cpp has the layout).
void write_results_h5(const std::string& path, const Input& input, const std::string& config_json, const PipelineResult& result,
                      const std::string& version);

}  // namespace spikeminer::pipeline::detail
