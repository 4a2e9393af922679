// Cliques leave the GPU through a ring of chunks in pinned, mapped host memory: a worker
// fills a buffer in its own workspace, then takes a ticket, waits until the host has
// consumed the chunk that last used the ticket's slot, copies the buffer there, and marks
// the slot ready (after a system-wide fence). The host consumes chunks in ticket order
// while the kernel runs, so the cliques never need to fit in device or host memory at once.
// A chunk holds cliques as [k, v1, ..., vk], the graph's vertex ids in ascending order
// (the worker translates and sorts each clique as it reports it), in 32-bit units, or in
// 16-bit units when the graph has fewer than 65,536 vertices (every id and size fits):
// the bus to the host bounds listing, and half the bytes take about half the time.
#pragma once

#include "tile_sets.cuh"

#include <cuda/atomic>

namespace spikeminer::graph::detail::gpu {

struct CliqueRing {
    Word* chunks;                         // host memory: slots x chunk_words
    unsigned long long* ready;            // host memory: per slot, ticket + 1 once filled
    unsigned* used;                       // host memory: per slot, units filled
    const volatile unsigned long long* consumed;  // host memory: chunks the host has finished
    unsigned long long* next_ticket;      // device memory
    int slots;
    int chunk_words;                      // also the size of each worker's buffer; a multiple of 4
    bool narrow;                          // 16-bit units, else 32-bit

    /// The buffer's first word free after `units` units.
    __device__ int words_of(int units) const { return narrow ? (units + 1) / 2 : units; }

    /// Copies the buffer's first `units` units to the host; called by every lane of the
    /// tile. The buffer and the chunks start on 16 bytes and hold a multiple of 4 words, so
    /// the copy moves 16 bytes a lane (rounded up past the units: the host reads `used`
    /// units only), the bus's writes 4 times wider than word by word.
    template <unsigned G>
    __device__ void flush(const Tile<G>& tile, const Word* buffer, int units) const {
        if (units == 0) return;
        const int words = words_of(units);
        unsigned long long ticket = 0;
        if (tile.thread_rank() == 0) {
            ticket = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(*next_ticket).fetch_add(1);
            while (ticket - *consumed >= static_cast<unsigned long long>(slots)) __nanosleep(1000);
            __threadfence_system();  // the host has read the slot before we overwrite it
        }
        ticket = tile.shfl(ticket, 0);
        tile.sync();  // every lane's stores after lane 0 saw the slot free
        const int slot = static_cast<int>(ticket % static_cast<unsigned long long>(slots));
        Word* chunk = chunks + static_cast<std::size_t>(slot) * static_cast<std::size_t>(chunk_words);
        const auto* from = reinterpret_cast<const uint4*>(buffer);
        auto* to = reinterpret_cast<uint4*>(chunk);
        for (int i = static_cast<int>(tile.thread_rank()); i < (words + 3) / 4; i += static_cast<int>(G)) to[i] = from[i];
        tile.sync();
        if (tile.thread_rank() == 0) {
            used[slot] = static_cast<unsigned>(units);
            __threadfence_system();
            cuda::atomic_ref<unsigned long long, cuda::thread_scope_system>(ready[slot]).store(ticket + 1, cuda::memory_order_release);
        }
    }
};

}  // namespace spikeminer::graph::detail::gpu
