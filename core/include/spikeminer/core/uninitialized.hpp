#pragma once
// Vectors whose elements start uninitialised: for the large arrays that are filled at once
// (a recording's columns as they are read), where zeroing first would touch every page on
// one thread before the threads that fill them do.

#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace spikeminer {

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
