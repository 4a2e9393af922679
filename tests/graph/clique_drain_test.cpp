// RingDrain, the host side of the GPU's clique ring, against producer threads that follow
// the kernel's protocol (cuda/clique_output.cuh): take a ticket, wait while the ring is
// full (ticket - consumed >= slots), fill the ticket's slot, mark it ready with the ticket
// + 1. A small ring wraps hundreds of times; every chunk reaches the sink exactly once
// whatever the number of draining threads, in 32-bit units and in 16-bit ones; a failing sink or a cancel stops the kernel
// once and comes out of finish() while the chunks are still taken (no producer waits for
// ever); a drain left without finish() stops.
#include "catch.hpp"

#include "clique_drain.hpp"

#include "spikeminer/core/error.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

using namespace spikeminer;
using graph::CliqueBatch;
using graph::Vertex;
using graph::detail::RingDrain;
using graph::detail::RingView;

namespace {

constexpr std::size_t kSlots = 4;
constexpr std::size_t kChunkWords = 16;

// Chunk t holds 1 + t % 3 cliques; clique c of it has 1 + (t + c) % 4 vertices, ascending,
// that name the chunk and the clique (t * 16 + c * 4 + i: 16 bits up to chunk 4,095).
std::vector<std::vector<Vertex>> cliques_of(std::uint64_t t) {
    std::vector<std::vector<Vertex>> out;
    for (std::uint64_t c = 0; c <= t % 3; ++c) {
        std::vector<Vertex> clique;
        for (std::uint64_t i = 0; i <= (t + c) % 4; ++i) clique.push_back(static_cast<Vertex>(t * 16 + c * 4 + i));
        out.push_back(clique);
    }
    return out;
}

// The ring's memory and the emulated kernel: `producers` threads fill chunks until
// `chunks` are filled or the kernel is told to stop (a ticket once taken is always filled).
struct Ring {
    bool narrow = false;  // 16-bit units
    std::vector<std::uint32_t> chunks = std::vector<std::uint32_t>(kSlots * kChunkWords);
    std::vector<unsigned long long> ready = std::vector<unsigned long long>(kSlots, 0);
    std::vector<unsigned> used = std::vector<unsigned>(kSlots, 0);
    unsigned long long consumed = 0;
    std::atomic<bool> stop{false};
    std::atomic<int> stops{0};
    std::mutex tickets_mutex;
    unsigned long long taken = 0;

    RingView view() { return {chunks.data(), ready.data(), used.data(), &consumed, kSlots, kChunkWords, narrow}; }

    std::optional<unsigned long long> take(unsigned long long chunks_in_all) {
        const std::lock_guard lock(tickets_mutex);
        if (taken == chunks_in_all || stop.load()) return std::nullopt;
        return taken++;
    }

    void produce(unsigned long long chunks_in_all) {
        while (const auto ticket = take(chunks_in_all)) {
            while (*ticket - std::atomic_ref<unsigned long long>(consumed).load(std::memory_order_acquire) >= kSlots) std::this_thread::yield();
            const std::size_t slot = *ticket % kSlots;
            unsigned units = 0;
            auto* bytes = reinterpret_cast<unsigned char*>(chunks.data() + slot * kChunkWords);
            const auto put = [&](std::uint32_t value) {
                if (narrow) {
                    const auto half = static_cast<std::uint16_t>(value);
                    std::memcpy(bytes + 2 * units++, &half, 2);
                } else {
                    std::memcpy(bytes + 4 * units++, &value, 4);
                }
            };
            for (const auto& clique : cliques_of(*ticket)) {
                put(static_cast<std::uint32_t>(clique.size()));
                for (const Vertex v : clique) put(v);
            }
            used[slot] = units;
            std::atomic_ref<unsigned long long>(ready[slot]).store(*ticket + 1, std::memory_order_release);
        }
    }

    std::vector<std::thread> start(int producers, unsigned long long chunks_in_all) {
        std::vector<std::thread> threads;
        for (int p = 0; p < producers; ++p) threads.emplace_back([this, chunks_in_all] { produce(chunks_in_all); });
        return threads;
    }
};

void join(std::vector<std::thread>& threads) {
    for (std::thread& t : threads) t.join();
}

}  // namespace

TEST_CASE("ring drain: every chunk reaches the sink once, whatever the number of threads", "[graph][cliques][drain]") {
    const unsigned threads = GENERATE(1U, 3U, 16U);
    const bool narrow = GENERATE(false, true);
    CAPTURE(threads, narrow);
    constexpr unsigned long long kChunks = 2000;
    Ring ring;
    ring.narrow = narrow;
    std::mutex mutex;
    std::vector<std::vector<Vertex>> got;
    bool well_formed = true;
    const graph::CliqueBatchSink sink = [&](const CliqueBatch& batch) {
        const std::lock_guard lock(mutex);
        well_formed = well_formed && batch.offsets.front() == 0 && batch.offsets.back() == batch.vertices.size();
        for (std::size_t i = 0; i < batch.size(); ++i) got.emplace_back(batch[i].begin(), batch[i].end());
    };
    std::atomic<bool> failed{false};
    RingDrain drain(ring.view(), sink, nullptr, threads, failed, [&] { ++ring.stops; });
    auto producers = ring.start(4, kChunks);
    join(producers);
    CHECK(drain.finish(kChunks) == nullptr);
    CHECK(well_formed);
    CHECK(ring.consumed == kChunks);
    CHECK(ring.stops == 0);
    std::vector<std::vector<Vertex>> expected;
    for (unsigned long long t = 0; t < kChunks; ++t) {
        for (auto& clique : cliques_of(t)) expected.push_back(clique);
    }
    std::sort(got.begin(), got.end());
    std::sort(expected.begin(), expected.end());
    CHECK(got == expected);
}

TEST_CASE("ring drain: a failing sink stops the kernel once, its chunks are still taken, its error comes out", "[graph][cliques][drain]") {
    Ring ring;
    std::atomic<int> calls{0};
    const graph::CliqueBatchSink sink = [&](const CliqueBatch&) {
        if (calls.fetch_add(1) == 50) throw Error("disk full");
    };
    std::atomic<bool> failed{false};
    RingDrain drain(ring.view(), sink, nullptr, 3, failed, [&] {
        ++ring.stops;
        ring.stop = true;
    });
    auto producers = ring.start(4, 100'000);
    join(producers);  // ends: the drain kept taking chunks after the failure
    const std::exception_ptr failure = drain.finish(ring.taken);
    REQUIRE(failure != nullptr);
    CHECK_THROWS_WITH(std::rethrow_exception(failure), "disk full");
    CHECK(ring.stops == 1);
    CHECK(failed.load());
    CHECK(ring.consumed == ring.taken);
    CHECK(ring.taken < 100'000);
}

TEST_CASE("ring drain: a cancel stops the kernel and comes out as Cancelled", "[graph][cliques][drain]") {
    Ring ring;
    CancelToken cancel;
    Progress progress([](const std::string&, std::uint64_t, std::uint64_t) {}, &cancel);
    const graph::CliqueBatchSink sink = [&](const CliqueBatch&) { cancel.request(); };
    std::atomic<bool> failed{false};
    RingDrain drain(ring.view(), sink, &progress, 2, failed, [&] { ring.stop = true; });
    auto producers = ring.start(2, 100'000);
    join(producers);
    const std::exception_ptr failure = drain.finish(ring.taken);
    REQUIRE(failure != nullptr);
    CHECK_THROWS_AS(std::rethrow_exception(failure), Cancelled);
    CHECK(ring.consumed == ring.taken);
}

TEST_CASE("ring drain: without finish() (a way out after the kernel ended) the threads stop", "[graph][cliques][drain]") {
    // Its threads wait for ticket 3, which never comes: the destructor must end them.
    Ring ring;
    std::atomic<std::size_t> delivered{0};
    {
        std::atomic<bool> failed{false};
        RingDrain drain(ring.view(), [&](const CliqueBatch& batch) { delivered += batch.size(); }, nullptr, 4, failed, [] {});
        auto producers = ring.start(1, 3);  // fewer chunks than slots: the producer never waits
        join(producers);
        while (std::atomic_ref<unsigned long long>(ring.consumed).load() != 3) std::this_thread::yield();
    }
    CHECK(delivered.load() == 6);  // chunks 0, 1 and 2 hold 1, 2 and 3 cliques
}
