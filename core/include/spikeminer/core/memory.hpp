#pragma once
// Host memory: what this process may still take, the budget each stage works within, and
// the peak a stage reached.

#include "spikeminer/core/error.hpp"

#include <cstddef>
#include <string>

namespace spikeminer {

/// A stage that cannot do its work within the memory budget, even in chunks: raised before
/// the work starts, its message says what would fit. Exit code 1.
class MemoryBudgetExceeded : public Error {
public:
    using Error::Error;
};

/// Bytes of host memory this process can still take: the least of what the kernel reports
/// available (MemAvailable), what the cgroup's limit leaves (memory.max less memory.current)
/// and what the address-space and data limits (ulimit -v, -d) leave of this process's size.
std::size_t available_host_memory();

/// The share of the available host memory a run takes when no budget is given.
inline constexpr double kDefaultBudgetShare = 0.5;

/// The budget in bytes: `given`, or when that is 0 the default share of available_host_memory().
std::size_t host_memory_budget(std::size_t given);

/// Parses a size: bytes ("1000000"), or a number with K, M, G or T (powers of 1024; "KiB",
/// "MB", "g" and the like too), e.g. "4G", "512M", "1.5GiB". Throws UsageError naming `what`.
std::size_t parse_bytes(const std::string& text, const std::string& what);

/// "3.2 GiB", "512 MiB", "12 KiB", "80 B".
std::string format_bytes(double bytes);

/// The most resident memory this process held since the last reset_peak_memory() (Linux's
/// VmHWM), in bytes; 0 where that is not known.
std::size_t peak_memory();

/// Starts a new peak: the resident memory now (Linux 4.0 on; elsewhere nothing changes).
void reset_peak_memory();

}  // namespace spikeminer
