// The host side of the GPU's clique ring (cuda/clique_output.cuh): several threads take
// the chunks the kernel has filled, hand each to the sink as a CliqueBatch, and give the
// slots back in ticket order (the kernel reuses a slot once every earlier chunk is
// consumed), so the sink's work (formatting, writing) runs on as many threads. Host code
// only: built everywhere, so that its protocol is tested without a GPU.
#pragma once

#include "spikeminer/core/progress.hpp"
#include "spikeminer/graph/cliques.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace spikeminer::graph::detail {

/// The ring as the host sees it (pinned, mapped memory the kernel writes).
struct RingView {
    const std::uint32_t* chunks;   // slots x chunk_words: cliques as [k, v1, ..., vk], ascending ids
    unsigned long long* ready;     // per slot: the ticket + 1 of the chunk it holds
    const unsigned* used;          // per slot: units filled
    unsigned long long* consumed;  // chunks consumed, in ticket order (the kernel waits on it)
    std::size_t slots;
    std::size_t chunk_words;
    bool narrow;                   // the chunks' units are 16-bit (else 32-bit)
};

class RingDrain {
public:
    /// Starts `threads` threads handing the ring's chunks to `sink`. The first failure
    /// (the sink's, or Cancelled from `progress`) is kept, sets `failed` (which the drains
    /// of a run's other devices share) and calls `stop_kernel`; once `failed` is set, the
    /// chunks are still taken, so that no kernel waits for space, but dropped.
    RingDrain(const RingView& ring, CliqueBatchSink sink, Progress* progress, unsigned threads, std::atomic<bool>& failed,
              std::function<void()> stop_kernel);
    /// Stops the threads, dropping what they have not taken (for a way out on which the
    /// kernel has ended without finish()).
    ~RingDrain();
    RingDrain(const RingDrain&) = delete;
    RingDrain& operator=(const RingDrain&) = delete;

    /// The kernel has ended, having filled `tickets` chunks: waits until every one is
    /// consumed and the threads have stopped; the first failure, if any.
    std::exception_ptr finish(unsigned long long tickets);

private:
    void stop();
    void run();
    void deliver(const std::uint32_t* chunk, unsigned units, std::vector<Vertex>& vertices, std::vector<std::size_t>& offsets);
    void give_back(unsigned long long ticket);

    RingView ring_;
    CliqueBatchSink sink_;
    Progress* progress_;
    std::atomic<bool>& failed_;
    std::function<void()> stop_kernel_;
    std::atomic<unsigned long long> next_ticket_{0};
    std::atomic<unsigned long long> tickets_{~0ULL};  // known once the kernel has ended
    std::unique_ptr<std::atomic<unsigned long long>[]> done_;  // per slot: ticket + 1 once consumed
    std::mutex advance_;
    unsigned long long consumed_ = 0;  // under advance_
    std::atomic<bool> dropping_{false};  // stopped without finish(): nothing more is delivered
    std::mutex failure_mutex_;
    std::exception_ptr failure_;
    std::vector<std::thread> threads_;
};

}  // namespace spikeminer::graph::detail
