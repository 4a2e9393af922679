#include "spikeminer/core/progress.hpp"

#include "spikeminer/core/error.hpp"

namespace spikeminer {

void Progress::begin(std::string task, std::uint64_t total) {
    task_ = std::move(task);
    total_ = total;
    last_report_ = std::chrono::steady_clock::now();
    if (callback_) callback_(task_, 0, total_);
    check_cancelled();
}

void Progress::update(std::uint64_t done) {
    check_cancelled();
    if (!callback_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_report_ < interval_) return;
    last_report_ = now;
    callback_(task_, done, total_);
}

void Progress::finish() {
    if (callback_) callback_(task_, total_, total_);
}

void Progress::check_cancelled() const {
    if (cancel_ != nullptr && cancel_->requested()) throw Cancelled();
}

}  // namespace spikeminer
