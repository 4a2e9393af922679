#pragma once

#include "spikeminer/app/pipeline/pipeline.hpp"

#include <vector>

namespace spikeminer::pipeline {

/// The co-firing windows counted on the GPU by several host threads at once, two a device
/// (one device, or several with `run --devices`): the windows cut into chunks of
/// consecutive windows, dealt round robin to the threads; each thread slides through its
/// chunks, at most two rounds of chunks ahead of the pipeline, and the feed hands the
/// windows over in order. A window does not depend on the ones before it, so they are the
/// windows one thread gives. Reports the windows handed over to `progress`; its Cancel
/// stops every thread. The trains must outlive the feed.
WindowFeed windows_over_devices(const SpikeTrains& trains, const mining::CofiringOptions& options, std::vector<int> devices,
                                Progress* progress);

}  // namespace spikeminer::pipeline
