#include "clique_drain.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>

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

// Takes the chunks in ticket order, each as soon as it is ready: a thread claims a ticket
// only once its chunk is ready, so a chunk never waits behind a thread that is asleep.
// While none is ready, a thread yields for up to 100 us (chunks come microseconds apart
// while the kernel lists; a sleep costs a timer tick, 50 us or more, which would cap every
// thread at a chunk a tick), then sleeps from 20 us to 200 us. Stops at the first ticket
// the ended kernel never filled.
void RingDrain::run() {
    using Clock = std::chrono::steady_clock;
    std::vector<Vertex> vertices;
    std::vector<std::size_t> offsets;
    auto idle_since = Clock::now();
    auto pause = std::chrono::microseconds(20);
    for (;;) {
        unsigned long long ticket = next_ticket_.load(std::memory_order_acquire);
        const std::size_t slot = ticket % ring_.slots;
        if (std::atomic_ref<unsigned long long>(ring_.ready[slot]).load(std::memory_order_acquire) != ticket + 1) {
            if (ticket >= tickets_.load(std::memory_order_acquire)) return;
            if (Clock::now() - idle_since < std::chrono::microseconds(100)) {
                std::this_thread::yield();
            } else {
                std::this_thread::sleep_for(pause);
                pause = std::min(2 * pause, std::chrono::microseconds(200));
            }
            continue;
        }
        if (!next_ticket_.compare_exchange_weak(ticket, ticket + 1, std::memory_order_acq_rel)) continue;  // another took it
        if (!failed_.load(std::memory_order_relaxed) && !dropping_.load(std::memory_order_relaxed)) {
            deliver(ring_.chunks + slot * ring_.chunk_words, ring_.used[slot], vertices, offsets);
        }
        give_back(ticket);
        idle_since = Clock::now();
        pause = std::chrono::microseconds(20);
    }
}

namespace {

// The cliques of a chunk of `units` units ([k, v1, ..., vk] each), appended as a batch's
// vertices and offsets. Units are read with memcpy: the chunk's memory is 32-bit words.
template <typename Unit>
void unpack(const std::uint32_t* chunk, unsigned units, std::vector<Vertex>& vertices, std::vector<std::size_t>& offsets) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(chunk);
    const auto unit = [bytes](unsigned i) {
        Unit u;
        std::memcpy(&u, bytes + std::size_t{i} * sizeof(Unit), sizeof u);
        return u;
    };
    for (unsigned at = 0; at < units;) {
        const unsigned k = unit(at);
        for (unsigned i = 1; i <= k; ++i) vertices.push_back(unit(at + i));
        offsets.push_back(vertices.size());
        at += k + 1;
    }
}

}  // namespace

void RingDrain::deliver(const std::uint32_t* chunk, unsigned units, std::vector<Vertex>& vertices, std::vector<std::size_t>& offsets) {
    try {
        vertices.clear();
        offsets.assign(1, 0);
        if (ring_.narrow) {
            unpack<std::uint16_t>(chunk, units, vertices, offsets);
        } else {
            unpack<std::uint32_t>(chunk, units, vertices, offsets);
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
