// The first exception thrown by any thread of a parallel region, kept to be rethrown
// after it: an exception must not leave an OpenMP region (that calls std::terminate).
#pragma once

#include <atomic>
#include <exception>
#include <mutex>

namespace spikeminer {

class FirstFailure {
public:
    /// Runs f; what it throws is kept if it is the first failure of any thread.
    template <typename F>
    void run(F&& f) noexcept {
        try {
            f();
        } catch (...) {
            const std::lock_guard lock(mutex_);
            if (!failure_) failure_ = std::current_exception();
            failed_.store(true, std::memory_order_relaxed);
        }
    }

    /// Whether a thread has failed: the others' cue to stop.
    [[nodiscard]] bool failed() const { return failed_.load(std::memory_order_relaxed); }

    /// After the region: rethrows the first failure, if there was one.
    void rethrow_if_failed() const {
        if (failure_) std::rethrow_exception(failure_);
    }

private:
    std::mutex mutex_;
    std::exception_ptr failure_;
    std::atomic<bool> failed_{false};
};

}  // namespace spikeminer
