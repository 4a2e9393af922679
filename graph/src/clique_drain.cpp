#include "clique_drain.hpp"

#include <algorithm>
#include <chrono>

namespace spikeminer::graph::detail {

RingDrain::RingDrain(const RingView& ring, CliqueBatchSink sink, Progress* progress, unsigned threads, std::atomic<bool>& failed,
                     std::function<void()> stop_kernel)
    : ring_(ring), sink_(std::move(sink)), progress_(progress), failed_(failed), stop_kernel_(std::move(stop_kernel)),
      done_(std::make_unique<std::atomic<unsigned long long>[]>(ring.slots)) {
    for (std::size_t s = 0; s < ring.slots; ++s) done_[s] = 0;
    threads = std::max(1U, threads);
    threads_.reserve(threads);
    try {
        for (unsigned t = 0; t < threads; ++t) threads_.emplace_back([this] { run(); });
    } catch (...) {
        stop();
        throw;
    }
}

// Reached without finish() only on a way out on which the caller has waited for the
// kernel to end: what is not yet taken is dropped.
RingDrain::~RingDrain() { stop(); }

void RingDrain::stop() {
    dropping_ = true;
    tickets_.store(0, std::memory_order_release);
    for (std::thread& t : threads_) t.join();
    threads_.clear();
}

std::exception_ptr RingDrain::finish(unsigned long long tickets) {
    tickets_.store(tickets, std::memory_order_release);
    for (std::thread& t : threads_) t.join();
    threads_.clear();
    const std::lock_guard lock(failure_mutex_);
    return failure_;
}

// Claims tickets in order and waits for each chunk, pausing from 2 us to 200 us while
// none is ready; stops at the first ticket the ended kernel never filled.
void RingDrain::run() {
    std::vector<Vertex> vertices;
    std::vector<std::size_t> offsets;
    for (;;) {
        const unsigned long long ticket = next_ticket_.fetch_add(1);
        const std::size_t slot = ticket % ring_.slots;
        auto pause = std::chrono::microseconds(2);
        while (std::atomic_ref<unsigned long long>(ring_.ready[slot]).load(std::memory_order_acquire) != ticket + 1) {
            if (ticket >= tickets_.load(std::memory_order_acquire)) return;
            std::this_thread::sleep_for(pause);
            pause = std::min(2 * pause, std::chrono::microseconds(200));
        }
        if (!failed_.load(std::memory_order_relaxed) && !dropping_.load(std::memory_order_relaxed)) {
            deliver(ring_.chunks + slot * ring_.chunk_words, ring_.used[slot], vertices, offsets);
        }
        give_back(ticket);
    }
}

void RingDrain::deliver(const std::uint32_t* chunk, unsigned words, std::vector<Vertex>& vertices, std::vector<std::size_t>& offsets) {
    try {
        vertices.clear();
        offsets.assign(1, 0);
        for (unsigned at = 0; at < words; at += chunk[at] + 1) {
            vertices.insert(vertices.end(), chunk + at + 1, chunk + at + 1 + chunk[at]);
            offsets.push_back(vertices.size());
        }
        sink_(CliqueBatch{vertices, offsets});
        // A cancel stops the delivery here, even when the kernel has written everything.
        if (progress_ != nullptr) progress_->check_cancelled();
    } catch (...) {
        const std::lock_guard lock(failure_mutex_);
        if (!failure_) {
            failure_ = std::current_exception();
            failed_ = true;
            stop_kernel_();
        }
    }
}

// The slot goes back to the kernel once every earlier chunk is consumed too.
void RingDrain::give_back(unsigned long long ticket) {
    done_[ticket % ring_.slots].store(ticket + 1, std::memory_order_release);
    const std::lock_guard lock(advance_);
    while (done_[consumed_ % ring_.slots].load(std::memory_order_acquire) == consumed_ + 1) ++consumed_;
    std::atomic_ref<unsigned long long>(*ring_.consumed).store(consumed_, std::memory_order_release);
}

}  // namespace spikeminer::graph::detail
