// Large uninitialised arrays on huge pages (see uninitialized.hpp).
#include "spikeminer/core/uninitialized.hpp"

#include <sys/mman.h>

#include <cstdlib>
#include <new>

namespace spikeminer::detail {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;

}  // namespace

void* allocate_on_huge_pages(std::size_t bytes) {
    const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    void* at = std::aligned_alloc(kHugePage, rounded);
    if (at == nullptr) throw std::bad_alloc();
    (void)madvise(at, rounded, MADV_HUGEPAGE);  // advice: without huge pages it is 4 KiB pages as before
    return at;
}

void free_on_huge_pages(void* at) noexcept { std::free(at); }

}  // namespace spikeminer::detail
