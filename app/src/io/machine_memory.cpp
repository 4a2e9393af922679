#include "machine_memory.hpp"

#include <unistd.h>

#include <cstdint>

namespace spikeminer::io::detail {

std::size_t physical_memory_bytes() {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page_size = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page_size <= 0) return SIZE_MAX;
    return static_cast<std::size_t>(pages) * static_cast<std::size_t>(page_size);
}

}  // namespace spikeminer::io::detail
