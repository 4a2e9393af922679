#pragma once

#include "spikeminer/mining/count.hpp"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace spikeminer::cli {

/// The counting flags `mine` and `count` share.
struct CountArguments {
    std::string backend = "auto";
    std::string counter = "auto";
    unsigned threads = 0;
    std::size_t gpu_memory_mib = 0;
    std::vector<int> devices;

    /// Registers --backend, --counter, --threads, --gpu-memory and --devices on `command`.
    void add_to(CLI::App& command);
    /// The CountOptions these flags ask for (UsageError on bad values).
    [[nodiscard]] mining::CountOptions options(Progress* progress) const;
};

}  // namespace spikeminer::cli
