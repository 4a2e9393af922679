// The worker list (Almasri et al.): a queue of idle workers. A worker with no subtree left
// enqueues itself and waits on its own flag; a busy worker with branches to spare takes an
// idle worker from the queue, writes a branch into that worker's workspace and raises its
// flag (release; the waiter acquires). The search is over when every worker is idle.
//
// The queue is a bounded ring of `capacity` (= the number of workers) cells with 64-bit
// head and tail tickets and, per cell, a sequence number (Vyukov's bounded queue): the
// enqueuer of ticket t waits until its cell's sequence is t, writes its id and sets it to
// t + 1; the taker of ticket t waits for t + 1, reads the id and sets it to t + capacity,
// freeing the cell for ticket t + capacity. Each ticket thus waits for its own turn: a
// slow taker cannot have its entry read by the taker of a later ticket of the same cell.
#pragma once

#include <cuda/atomic>

namespace spikeminer::graph::detail::gpu {

struct WorkerList {
    unsigned long long* head;      // next ticket to take
    unsigned long long* tail;      // next ticket to give
    int* slots;                    // capacity cells: a queued worker's id
    unsigned long long* sequence;  // capacity cells: the turn (see above), cell i starts at i
    int* idle;                     // workers idle (queued or about to be)
    int* flags;                // one per worker: 1 when a branch was handed to it
    int capacity;              // = workers

    using Ticket = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>;
    using Int = cuda::atomic_ref<int, cuda::thread_scope_device>;

    /// One lane: the worker declares itself idle and joins the queue.
    __device__ void enqueue(int worker) const {
        Int(*idle).fetch_add(1, cuda::memory_order_relaxed);
        const unsigned long long ticket = Ticket(*tail).fetch_add(1, cuda::memory_order_relaxed);
        const unsigned long long cell = ticket % static_cast<unsigned long long>(capacity);
        Ticket turn(sequence[cell]);
        while (turn.load(cuda::memory_order_acquire) != ticket) __nanosleep(32);
        slots[cell] = worker;
        turn.store(ticket + 1, cuda::memory_order_release);
    }

    /// One lane: an idle worker, taken out of the queue and counted busy, or -1.
    __device__ int take() const {
        Ticket h(*head);
        unsigned long long ticket = h.load(cuda::memory_order_relaxed);
        if (ticket >= Ticket(*tail).load(cuda::memory_order_relaxed)) return -1;
        if (!h.compare_exchange_strong(ticket, ticket + 1, cuda::memory_order_relaxed)) return -1;
        const unsigned long long cell = ticket % static_cast<unsigned long long>(capacity);
        Ticket turn(sequence[cell]);
        while (turn.load(cuda::memory_order_acquire) != ticket + 1) __nanosleep(32);
        const int worker = slots[cell];
        turn.store(ticket + static_cast<unsigned long long>(capacity), cuda::memory_order_release);
        Int(*idle).fetch_sub(1, cuda::memory_order_relaxed);
        return worker;
    }

    /// Whether any worker waits (a cheap test before take()).
    __device__ bool has_idle() const {
        return Ticket(*head).load(cuda::memory_order_relaxed) < Ticket(*tail).load(cuda::memory_order_relaxed);
    }

    /// One lane, after writing the branch into the worker's workspace.
    __device__ void hand_over(int worker) const { Int(flags[worker]).store(1, cuda::memory_order_release); }

    /// One lane of an idle worker: 1 when a branch was handed over (flag cleared), -1 when
    /// every worker is idle (the search is over), 0 to keep waiting.
    __device__ int poll(int worker) const {
        Int flag(flags[worker]);
        if (flag.load(cuda::memory_order_acquire) == 1) {
            flag.store(0, cuda::memory_order_relaxed);
            return 1;
        }
        return Int(*idle).load(cuda::memory_order_relaxed) == capacity ? -1 : 0;
    }
};

}  // namespace spikeminer::graph::detail::gpu
