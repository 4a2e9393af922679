#pragma once
// What every fuzz target shares: the input written to a file (the readers take paths), and
// the rule that a reader may only return or throw spikeminer::Error. Anything else (another
// exception, a crash, a sanitizer report, a hang) is a finding.

#include "spikeminer/core/error.hpp"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace spikeminer::fuzz {

/// `size` bytes at `data` written to a file of this process ending in `suffix`, in
/// /dev/shm when there is one; returns its path.
inline std::string write_input(const std::uint8_t* data, std::size_t size, const std::string& suffix) {
    static const std::string folder = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    const std::string path = folder + "/spikeminer-fuzz-" + std::to_string(getpid()) + suffix;
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (file == nullptr || std::fwrite(data, 1, size, file) != size || std::fclose(file) != 0) std::abort();
    return path;
}

/// Runs `read`: an Error is the expected refusal; any other exception aborts (a finding).
template <typename Read>
void expect_only_errors(Read&& read) {
    try {
        read();
    } catch (const Error&) {
    } catch (const std::exception& other) {
        std::fprintf(stderr, "not an Error: %s\n", other.what());
        std::abort();
    }
}

}  // namespace spikeminer::fuzz
