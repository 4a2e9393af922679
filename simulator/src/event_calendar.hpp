#pragma once

#include <cstdint>
#include <queue>
#include <vector>

namespace spikeminer::simulator::detail {

/// A calendar of events by step: a ring of one bucket per step for the next `window`
/// steps, and a heap for events further ahead (rare: long resting gaps). Events of one
/// step come out in the order they were added, so a run is the same on every machine.
/// Cheaper than one heap for all events: most are input spikes a few steps ahead.
template <typename Event>
class EventCalendar {
public:
    explicit EventCalendar(std::int64_t window) : buckets_(static_cast<std::size_t>(window)), window_(window) {}

    /// Adds an event at `step` (never before the current step).
    void add(std::int64_t step, const Event& event) {
        if (step < now_ + window_) {
            bucket(step).push_back(event);
            ++in_ring_;
        } else {
            later_.push(Later{step, order_++, event});
        }
    }

    /// Moves to the next step that holds events; false when none is left before `end`.
    bool advance(std::int64_t end) {
        if (started_) ++now_;
        started_ = true;
        if (in_ring_ == 0) {
            if (later_.empty()) return false;
            now_ = std::max(now_, later_.top().step);
        }
        while (bucket(now_).empty()) {
            pull_due();
            if (!bucket(now_).empty()) break;
            if (in_ring_ == 0 && !later_.empty()) now_ = later_.top().step; else ++now_;
        }
        pull_due();
        return now_ < end;
    }

    /// The current step and its events; events added to it while it is handled are
    /// appended, so iterate by index.
    [[nodiscard]] std::int64_t now() const { return now_; }
    std::vector<Event>& current() { return bucket(now_); }

    /// Empties the current step's bucket once it has been handled.
    void finish_step() {
        in_ring_ -= bucket(now_).size();
        bucket(now_).clear();
    }

private:
    struct Later {
        std::int64_t step;
        std::uint64_t order;
        Event event;
        bool operator>(const Later& other) const { return step != other.step ? step > other.step : order > other.order; }
    };

    std::vector<Event>& bucket(std::int64_t step) { return buckets_[static_cast<std::size_t>(step % window_)]; }

    // Events from the heap that now fall inside the ring's window.
    void pull_due() {
        while (!later_.empty() && later_.top().step < now_ + window_) {
            bucket(later_.top().step).push_back(later_.top().event);
            ++in_ring_;
            later_.pop();
        }
    }

    std::vector<std::vector<Event>> buckets_;
    std::int64_t window_;
    std::int64_t now_ = 0;
    bool started_ = false;
    std::size_t in_ring_ = 0;
    std::uint64_t order_ = 0;
    std::priority_queue<Later, std::vector<Later>, std::greater<>> later_;
};

}  // namespace spikeminer::simulator::detail
