#pragma once
// Work shared out on plain threads rather than OpenMP's: the readers and writers also run
// in forked processes (the HDF5 reader's child; a child whose file size is capped), where
// an OpenMP pool made before the fork is gone and its first parallel region waits for ever.

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace spikeminer::io::detail {

/// Threads to share work out on: OpenMP's count (OMP_NUM_THREADS, else the cores).
inline std::size_t plain_thread_count() { return static_cast<std::size_t>(std::clamp(omp_get_max_threads(), 1, 256)); }

/// Runs work(i) for each i in [0, n) on up to `threads` threads, this one among them, each
/// taking the next i. The first exception thrown stops the taking and is rethrown here
/// once every thread has ended.
template <typename Work>
void on_plain_threads(std::size_t n, std::size_t threads, const Work& work) {
    std::atomic<std::size_t> next{0};
    std::mutex lock;
    std::exception_ptr failure;
    const auto run = [&] {
        try {
            for (std::size_t i = next++; i < n; i = next++) work(i);
        } catch (...) {
            const std::lock_guard guard(lock);
            if (!failure) failure = std::current_exception();
            next = n;
        }
    };
    std::vector<std::thread> workers;
    workers.reserve(std::min(threads, n));  // no reallocation among started threads
    try {
        for (std::size_t t = 1; t < std::min(threads, n); ++t) workers.emplace_back(run);
    } catch (const std::system_error&) {  // fewer threads than asked: those started do the work
    }
    run();
    for (std::thread& worker : workers) worker.join();
    if (failure) std::rethrow_exception(failure);
}

}  // namespace spikeminer::io::detail
