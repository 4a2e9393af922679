#pragma once
// Vectors whose elements start uninitialised: for the large arrays that are filled at once
// (a recording's columns as they are read), where zeroing first would touch every page on
// one thread before the threads that fill them do.

#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace spikeminer {

/// Arrays of at least this many bytes are laid on huge pages where the system gives them
/// on request (Linux's transparent huge pages in "madvise" mode, Debian's and Ubuntu's
/// default): a 1 GB recording then takes 512 page faults instead of 262,144, and an array
/// read a row apart misses the TLB less.
inline constexpr std::size_t kHugePagesFrom = std::size_t{4} << 20;

namespace detail {
/// `bytes` (at least kHugePagesFrom) aligned to a huge page and advised to use them; freed
/// with free_on_huge_pages(). Throws std::bad_alloc.
void* allocate_on_huge_pages(std::size_t bytes);
void free_on_huge_pages(void* at) noexcept;
}  // namespace detail

template <typename T>
struct UninitializedAllocator : std::allocator<T> {
    static_assert(std::is_trivially_default_constructible_v<T>);
    template <typename U>
    struct rebind {
        using other = UninitializedAllocator<U>;
    };
    UninitializedAllocator() = default;
    template <typename U>
    explicit UninitializedAllocator(const UninitializedAllocator<U>& /*other*/) noexcept {}
    T* allocate(std::size_t n) {
        if (n < kHugePagesFrom / sizeof(T)) return std::allocator<T>::allocate(n);
        return static_cast<T*>(detail::allocate_on_huge_pages(n * sizeof(T)));
    }
    void deallocate(T* at, std::size_t n) noexcept {
        if (n < kHugePagesFrom / sizeof(T)) return std::allocator<T>::deallocate(at, n);
        detail::free_on_huge_pages(at);
    }
    /// Default-initialises: nothing for a trivial type.
    template <typename U>
    void construct(U* at) noexcept {
        ::new (static_cast<void*>(at)) U;
    }
    template <typename U, typename... Args>
    void construct(U* at, Args&&... args) {
        ::new (static_cast<void*>(at)) U(std::forward<Args>(args)...);
    }
};

/// A vector of trivial values that resize() and the size constructor leave uninitialised.
template <typename T>
using UninitializedVector = std::vector<T, UninitializedAllocator<T>>;

}  // namespace spikeminer
