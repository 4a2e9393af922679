// The episodes mined on a thread of their own while the co-firing windows are counted.
#pragma once

#include "spikeminer/app/pipeline/pipeline.hpp"
#include "spikeminer/core/progress.hpp"

#include <atomic>
#include <exception>
#include <optional>
#include <thread>

namespace spikeminer::pipeline {

/// mine_episodes on a thread of its own, with `device` current there (a CUDA device, or
/// kNoDevice). Where the GPU both mines and counts the windows, the windows' many short
/// steps (a count, a candidates pass and a read-back each) leave the device idle between
/// them, and the mining's large counts fill that time. The mining is cancelled with the
/// Progress that take() is given, or when this is destroyed before take() (the pipeline
/// failed elsewhere). The trains and the config must outlive this object.
class EpisodesBeside {
public:
    EpisodesBeside(const SpikeTrains& trains, const RunConfig& config, int device);
    ~EpisodesBeside();
    EpisodesBeside(const EpisodesBeside&) = delete;
    EpisodesBeside& operator=(const EpisodesBeside&) = delete;

    /// Waits for the episodes (a task of unknown length on `progress` while it must), checking
    /// `progress` for Cancel meanwhile (throws Cancelled, and rethrows what the mining threw);
    /// `seconds` is the mining's own time.
    mining::MiningResult take(Progress* progress, double& seconds);

private:
    CancelToken cancel_;
    Progress quiet_;
    std::optional<mining::MiningResult> result_;
    std::exception_ptr failure_;
    double seconds_ = 0;
    std::atomic<bool> done_{false};
    std::thread thread_;  // last: it starts once the members above exist
};

}  // namespace spikeminer::pipeline
