#pragma once

#include "spikeminer/app/pipeline/pipeline.hpp"

#include <string>

namespace spikeminer::pipeline::detail {

/// results.nwb (results_nwb.cpp has the layout): a copy of the input NWB file, or for any
/// other recording a new NWB file of its units, with the run's results in the processing
/// module `spikeminer`. `name` is the file's name in errors.
void write_results_nwb(const std::string& path, const std::string& name, const Input& input, const RunConfig& config,
                       const PipelineResult& result);

}  // namespace spikeminer::pipeline::detail
