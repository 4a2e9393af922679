#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

namespace spikeminer {

/// Set from any thread (a Cancel button, a signal handler) to stop long work.
class CancelToken {
public:
    void request() { flag_.store(true, std::memory_order_relaxed); }
    [[nodiscard]] bool requested() const { return flag_.load(std::memory_order_relaxed); }

private:
    std::atomic<bool> flag_{false};
};

/// Progress of one long task, reported to a callback (a terminal bar, a GUI signal) at
/// most once an interval (50 ms by default), with a cancellation check at every step. A
/// default-constructed Progress reports nothing and is never cancelled.
class Progress {
public:
    /// Called with the task name, units done and units in total (0 when unknown).
    using Callback = std::function<void(const std::string& task, std::uint64_t done, std::uint64_t total)>;

    /// The default time between two reports.
    static constexpr std::chrono::milliseconds kReportInterval{50};

    Progress() = default;
    Progress(Callback callback, const CancelToken* cancel, std::chrono::nanoseconds interval = kReportInterval)
        : callback_(std::move(callback)), cancel_(cancel), interval_(interval) {}

    /// Starts a task of `total` units.
    void begin(std::string task, std::uint64_t total);
    /// Records that `done` units are finished; throws Cancelled when cancellation was requested.
    void update(std::uint64_t done);
    /// Reports the task complete.
    void finish();
    /// Throws Cancelled when cancellation was requested.
    void check_cancelled() const;
    /// A Progress that reports nothing and is cancelled with this one: for work shared over
    /// threads, of which one reports.
    [[nodiscard]] Progress cancel_only() const { return Progress({}, cancel_); }

private:
    Callback callback_;
    const CancelToken* cancel_ = nullptr;
    std::chrono::nanoseconds interval_ = kReportInterval;
    std::string task_;
    std::uint64_t total_ = 0;
    std::chrono::steady_clock::time_point last_report_{};
};

}  // namespace spikeminer
