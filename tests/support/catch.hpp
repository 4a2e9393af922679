#pragma once
// One include for Catch2 2.13 (Debian 12) and Catch2 3.x (Ubuntu 24.04).

#if __has_include(<catch2/catch_all.hpp>)
#include <catch2/catch_all.hpp>
#define SPIKEMINER_CATCH3 1
#else
#include <catch2/catch.hpp>
#endif

#include <string>

#ifdef SPIKEMINER_CATCH3
using Catch::Approx;  // at global scope, where Catch2 2.13 declares it
#endif

namespace spikeminer::test {

/// Matches an exception message (or string) that contains `text`.
inline auto contains(const std::string& text) {
#ifdef SPIKEMINER_CATCH3
    return Catch::Matchers::ContainsSubstring(text);
#else
    return Catch::Matchers::Contains(text);
#endif
}

}  // namespace spikeminer::test
