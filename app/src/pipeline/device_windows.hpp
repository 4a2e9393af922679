#pragma once

#include "spikeminer/core/backend.hpp"
#include "spikeminer/core/progress.hpp"
#include "spikeminer/mining/cofiring.hpp"

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace spikeminer::pipeline {

/// The co-firing windows counted on the GPU by several host threads at once (one device,
/// or several with `run --devices`): the windows cut into chunks of consecutive windows,
/// dealt round robin to the threads; each thread slides through its chunks, at most one
/// round of chunks ahead of the pipeline (so at most threads + 1 chunks of at most
/// kMostChunkWindows windows are held), and next() hands the windows over in order. A
/// window does not depend on the ones before it, so they are the windows one thread
/// gives. Reports the windows handed over to `progress`; its Cancel stops every thread.
/// The trains must outlive this object.
class DeviceWindows {
public:
    /// The most host threads a device: one window's count leaves the GPU idle while its
    /// thread decides the edges, and the other threads' windows fill that time (measured
    /// in bench/RESULTS.md: four counted the large scenario's windows in 14 % less time
    /// than two, three in 10 % less).
    static constexpr std::size_t kThreadsPerDevice = 4;
    static constexpr std::size_t kMostChunkWindows = 256;

    /// `threads_per_device` host threads for each of `devices` (each named once or more);
    /// throws Error for no device. `options.threads` CPU threads are shared by them. With
    /// `keep_whole`, each thread's counter keeps its share of the whole recording's counts
    /// (for whole_recording()).
    DeviceWindows(const SpikeTrains& trains, const mining::CofiringOptions& options, const std::vector<int>& devices,
                  std::size_t threads_per_device, std::size_t windows, Progress* progress, bool keep_whole);
    ~DeviceWindows();
    DeviceWindows(const DeviceWindows&) = delete;
    DeviceWindows& operator=(const DeviceWindows&) = delete;

    /// The next window in order; false after the last. Throws what a thread threw, or
    /// Cancelled.
    bool next(mining::CofiringWindow& window);
    /// Where the windows were counted (as the threads' CofiringWindows chose): the CPU, with
    /// its note, once any thread's GPU gave way to it.
    [[nodiscard]] BackendChoice backend() const;
    /// After the last window was handed over: the window over the whole recording from the
    /// threads' shares (made by `decider`, of the same options), without counting the spikes
    /// again. False before then, or where a thread kept none (made without keep_whole, or
    /// its GPU gave way to the CPU). Throws what a thread threw.
    bool whole_recording(mining::CofiringWindows& decider, mining::CofiringWindow& window);

private:
    void produce(std::size_t thread);
    void fail(std::exception_ptr failure);

    const SpikeTrains& trains_;
    mining::CofiringOptions options_;
    std::vector<int> thread_devices_;  // each thread's device
    std::size_t windows_;
    std::size_t chunk_;
    std::size_t chunks_;
    Progress* progress_;
    std::vector<Progress> quiet_;  // each thread's: Cancel only
    bool keep_whole_;
    mining::WholeRecordingShare shares_;  // the sum of the threads' shares, each added as its thread ends
    std::size_t handed_ = 0;       // windows handed over

    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::map<std::size_t, std::vector<mining::CofiringWindow>> ready_;  // chunks made, not yet handed over whole
    std::size_t done_chunks_ = 0;                                       // chunks handed over whole
    bool stop_ = false;
    std::exception_ptr failure_;
    std::optional<BackendChoice> backend_;  // the threads' choices: the CPU's once one gave way
    std::vector<std::jthread> threads_;  // started at the first next()
};

}  // namespace spikeminer::pipeline
