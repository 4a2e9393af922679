#include "episodes_beside.hpp"

#include "spikeminer/core/device_threads.hpp"

#include <chrono>

namespace spikeminer::pipeline {

EpisodesBeside::EpisodesBeside(const SpikeTrains& trains, const RunConfig& config, int device)
    : quiet_({}, &cancel_), thread_([this, &trains, &config, device] {
          const auto start = std::chrono::steady_clock::now();
          try {
              enter_device(device);
              result_ = mine_episodes(trains, config, &quiet_);
          } catch (...) {
              failure_ = std::current_exception();
          }
          seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
          done_.store(true, std::memory_order_release);
      }) {}

EpisodesBeside::~EpisodesBeside() {
    cancel_.request();
    if (thread_.joinable()) thread_.join();
}

mining::MiningResult EpisodesBeside::take(Progress* progress, double& seconds) {
    if (progress != nullptr) progress->check_cancelled();
    const bool waited = progress != nullptr && !done_.load(std::memory_order_acquire);
    if (waited) progress->begin("episodes (mined beside the co-firing windows)", 0);
    while (!done_.load(std::memory_order_acquire)) {
        if (progress != nullptr) progress->check_cancelled();
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (waited) progress->finish();
    thread_.join();
    if (failure_) std::rethrow_exception(failure_);
    seconds = seconds_;
    return std::move(*result_);
}

}  // namespace spikeminer::pipeline
