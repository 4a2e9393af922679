#include "device_windows.hpp"

#include "spikeminer/core/device_threads.hpp"
#include "spikeminer/core/error.hpp"

#include <algorithm>

namespace spikeminer::pipeline {
namespace {

// Windows a chunk: about eight rounds of chunks over the threads, so that a slow chunk
// holds little back, and at least 16, so that the full count of a chunk's first window
// (the others move by one step) stays a small share of its work.
std::size_t chunk_windows(std::size_t windows, std::size_t threads) {
    return std::clamp<std::size_t>(windows / (8 * threads), 16, DeviceWindows::kMostChunkWindows);
}

// Each device named `per_device` times, in rounds (d0, d1, d0, d1, ...).
std::vector<int> thread_devices(const std::vector<int>& devices, std::size_t per_device) {
    if (devices.empty() || per_device == 0) throw Error("co-firing windows over devices: no device to count on");
    std::vector<int> threads;
    for (std::size_t round = 0; round < per_device; ++round) threads.insert(threads.end(), devices.begin(), devices.end());
    return threads;
}

}  // namespace

DeviceWindows::DeviceWindows(const SpikeTrains& trains, const mining::CofiringOptions& options, const std::vector<int>& devices,
                             std::size_t threads_per_device, std::size_t windows, Progress* progress, bool keep_whole)
    : trains_(trains),
      options_(options),
      thread_devices_(thread_devices(devices, threads_per_device)),
      windows_(windows),
      chunk_(chunk_windows(windows, thread_devices_.size())),
      chunks_((windows + chunk_ - 1) / chunk_),
      progress_(progress),
      keep_whole_(keep_whole) {
    // The threads' decisions share the CPU threads asked for.
    const std::size_t cpu = options.threads != 0 ? options.threads : std::max(1U, std::thread::hardware_concurrency());
    options_.threads = static_cast<unsigned>(std::max<std::size_t>(1, cpu / thread_devices_.size()));
    for (std::size_t t = 0; t < thread_devices_.size(); ++t) quiet_.push_back(progress != nullptr ? progress->cancel_only() : Progress());
}

DeviceWindows::~DeviceWindows() {
    {
        const std::lock_guard lock(mutex_);
        stop_ = true;
    }
    changed_.notify_all();
    threads_.clear();  // joins
}

bool DeviceWindows::next(mining::CofiringWindow& window) {
    if (threads_.empty()) {
        if (progress_ != nullptr) progress_->begin("co-firing windows", windows_);
        for (std::size_t t = 0; t < thread_devices_.size(); ++t) threads_.emplace_back([this, t] { produce(t); });
    }
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

BackendChoice DeviceWindows::backend() const {
    const std::lock_guard lock(mutex_);
    return backend_.value_or(BackendChoice{Backend::Cuda, {}});
}

bool DeviceWindows::whole_recording(mining::CofiringWindows& decider, mining::CofiringWindow& window) {
    if (handed_ < windows_) return false;
    threads_.clear();  // joins: each has added its share, or said it has none
    if (failure_) std::rethrow_exception(failure_);
    return decider.whole_recording_of(shares_, window);
}

void DeviceWindows::fail(std::exception_ptr failure) {
    {
        const std::lock_guard lock(mutex_);
        if (!failure_) failure_ = failure;
        stop_ = true;
    }
    changed_.notify_all();
}

// Thread t's chunks: t, t + threads, ...
void DeviceWindows::produce(std::size_t t) {
    try {
        enter_device(thread_devices_[t]);
        mining::CofiringOptions options = options_;
        options.progress = &quiet_[t];
        mining::CofiringWindows windows(trains_, options);
        if (keep_whole_) windows.keep_whole_recording();
        const std::size_t threads = thread_devices_.size();
        for (std::size_t c = t; c < chunks_; c += threads) {
            {
                std::unique_lock lock(mutex_);
                changed_.wait(lock, [&] { return stop_ || c <= done_chunks_ + threads; });
                if (stop_) return;
            }
            const std::size_t first = c * chunk_;
            const std::size_t last = std::min(windows_, first + chunk_);
            std::vector<mining::CofiringWindow> made(last - first);
            windows.skip_to(first);
            windows.next(made);  // the chunk's surrogate edge tests together
            {
                const std::lock_guard lock(mutex_);
                if (stop_) return;
            }
            {
                const std::lock_guard lock(mutex_);
                ready_.emplace(c, std::move(made));
                // A thread whose GPU gave way counts on the CPU from then on: that is said.
                if (!backend_ || (windows.backend().backend == Backend::Cpu && backend_->backend == Backend::Cuda)) backend_ = windows.backend();
            }
            changed_.notify_all();
        }
        // A thread without a share leaves its steps out of the sum, which then makes no whole recording.
        std::optional<mining::WholeRecordingShare> share = windows.whole_recording_share();
        const std::lock_guard lock(mutex_);
        if (share) shares_.add(std::move(*share));
    } catch (...) {
        fail(std::current_exception());
    }
}

}  // namespace spikeminer::pipeline
