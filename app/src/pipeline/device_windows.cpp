#include "device_windows.hpp"

#include "spikeminer/core/device_query.hpp"
#include "spikeminer/core/device_threads.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

namespace spikeminer::pipeline {
namespace {

// Threads that count windows on each device: one window's count leaves a GPU idle while
// its host thread decides the edges and waits for the next launch, so a second thread's
// window fills the gap (the 1,000-neuron hour's co-firing on one H200: 3.6 s with one
// thread, 0.6 s with two; bench/RESULTS.md).
constexpr std::size_t kThreadsPerDevice = 2;

// Windows a chunk: about eight rounds of chunks over the threads, so that a slow chunk
// holds little back, and at least 16, so that the full count of a chunk's first window
// (the others move by one step) stays a small share of its work.
std::size_t chunk_windows(std::size_t windows, std::size_t threads) {
    return std::clamp<std::size_t>(windows / (8 * threads), 16, 1024);
}

// Each device named kThreadsPerDevice times, in rounds (d0, d1, d0, d1, ...).
std::vector<int> thread_devices(const std::vector<int>& devices) {
    std::vector<int> threads;
    for (std::size_t round = 0; round < kThreadsPerDevice; ++round) threads.insert(threads.end(), devices.begin(), devices.end());
    return threads;
}

class DeviceWindows {
public:
    DeviceWindows(const SpikeTrains& trains, const mining::CofiringOptions& options, std::vector<int> devices, Progress* progress)
        : trains_(trains), options_(options), devices_(thread_devices(devices)), progress_(progress), named_(devices.size()) {}

    ~DeviceWindows() {
        {
            const std::lock_guard lock(mutex_);
            stop_ = true;
        }
        changed_.notify_all();
        threads_.clear();  // joins
    }
    DeviceWindows(const DeviceWindows&) = delete;
    DeviceWindows& operator=(const DeviceWindows&) = delete;

    bool next(std::size_t windows, mining::CofiringWindow& window) {
        if (threads_.empty()) start(windows);
        if (handed_ >= windows_) return false;
        const std::size_t chunk = handed_ / chunk_;
        std::unique_lock lock(mutex_);
        while (!failure_ && !ready_.contains(chunk)) {
            changed_.wait_for(lock, std::chrono::milliseconds(50));
            if (progress_ != nullptr) progress_->check_cancelled();
        }
        if (failure_) std::rethrow_exception(failure_);
        std::vector<mining::CofiringWindow>& made = ready_[chunk];
        window = std::move(made[handed_ - chunk * chunk_]);
        ++handed_;
        if (handed_ == windows_ || handed_ % chunk_ == 0) {
            ready_.erase(chunk);
            done_chunks_ = chunk + 1;
            lock.unlock();
            changed_.notify_all();
        } else {
            lock.unlock();
        }
        if (progress_ != nullptr) {
            progress_->update(handed_);
            if (handed_ == windows_) progress_->finish();
        }
        return true;
    }

private:
    void start(std::size_t windows) {
        windows_ = windows;
        chunk_ = chunk_windows(windows, devices_.size());
        chunks_ = (windows + chunk_ - 1) / chunk_;
        if (progress_ != nullptr) {
            progress_->begin(named_ > 1 ? "co-firing windows on " + std::to_string(named_) + " devices" : "co-firing windows", windows);
        }
        for (std::size_t d = 0; d < devices_.size(); ++d) {
            quiet_.push_back(progress_ != nullptr ? progress_->cancel_only() : Progress());
        }
        for (std::size_t d = 0; d < devices_.size(); ++d) threads_.emplace_back([this, d] { produce(d); });
    }

    // Thread d's chunks: d, d + threads, ...
    void produce(std::size_t d) {
        try {
            if (devices_[d] != kNoDevice) use_device(devices_[d]);
            mining::CofiringOptions options = options_;
            options.progress = &quiet_[d];
            mining::CofiringWindows windows(trains_, options);
            const std::size_t ahead = 2 * devices_.size();
            for (std::size_t c = d; c < chunks_; c += devices_.size()) {
                {
                    std::unique_lock lock(mutex_);
                    changed_.wait(lock, [&] { return stop_ || c < done_chunks_ + ahead; });
                    if (stop_) return;
                }
                const std::size_t first = c * chunk_;
                const std::size_t last = std::min(windows_, first + chunk_);
                std::vector<mining::CofiringWindow> made(last - first);
                windows.skip_to(first);
                for (mining::CofiringWindow& w : made) windows.next(w);
                {
                    const std::lock_guard lock(mutex_);
                    ready_.emplace(c, std::move(made));
                }
                changed_.notify_all();
            }
        } catch (...) {
            {
                const std::lock_guard lock(mutex_);
                if (!failure_) failure_ = std::current_exception();
                stop_ = true;
            }
            changed_.notify_all();
        }
    }

    const SpikeTrains& trains_;
    mining::CofiringOptions options_;
    std::vector<int> devices_;  // each thread's
    Progress* progress_;
    std::size_t named_;           // devices named
    std::vector<Progress> quiet_;  // each thread's: Cancel only
    std::size_t windows_ = 0;
    std::size_t chunk_ = 1;
    std::size_t chunks_ = 0;
    std::size_t handed_ = 0;  // windows handed over

    std::mutex mutex_;
    std::condition_variable changed_;
    std::map<std::size_t, std::vector<mining::CofiringWindow>> ready_;  // chunks made, not yet handed over whole
    std::size_t done_chunks_ = 0;                                       // chunks handed over whole
    bool stop_ = false;
    std::exception_ptr failure_;
    std::vector<std::jthread> threads_;  // last: joined first
};

}  // namespace

WindowFeed windows_over_devices(const SpikeTrains& trains, const mining::CofiringOptions& options, std::vector<int> devices,
                                Progress* progress) {
    auto state = std::make_shared<DeviceWindows>(trains, options, std::move(devices), progress);
    return [state](mining::CofiringWindows& windows, mining::CofiringWindow& window) { return state->next(windows.size(), window); };
}

}  // namespace spikeminer::pipeline
