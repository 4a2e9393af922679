#pragma once

#include "spikeminer/app/io/read_spikes.hpp"

#include <CLI/CLI.hpp>

#include <string>

namespace spikeminer::cli {

/// The reading flags every subcommand that loads spikes shares.
struct ReadArguments {
    std::string format;      ///< empty: detect
    std::string tick;        ///< empty: the file's own, else 1 µs
    std::string duplicates = "keep";
    std::string units = "good";  ///< a Kilosort / Phy folder's units

    /// Registers --format, --tick, --duplicates and --units on `command`.
    void add_to(CLI::App& command);
    /// The ReadOptions these flags ask for (UsageError on bad values).
    [[nodiscard]] io::ReadOptions options(Progress* progress) const;
};

}  // namespace spikeminer::cli
