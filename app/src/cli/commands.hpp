#pragma once

#include <CLI/CLI.hpp>

namespace spikeminer::cli {

/// Each subcommand registers its flags and its action on the top-level parser.
void add_run_command(CLI::App& app);
void add_demo_command(CLI::App& app);
void add_info_command(CLI::App& app);
void add_convert_command(CLI::App& app);
void add_simulate_command(CLI::App& app);
void add_mine_command(CLI::App& app);
void add_count_command(CLI::App& app);
void add_cofiring_command(CLI::App& app);
void add_assemblies_command(CLI::App& app);
void add_cliques_command(CLI::App& app);
void add_dyngraph_command(CLI::App& app);
void add_live_command(CLI::App& app);

/// Once every command is added: every unsigned option refuses a negative number (which
/// CLI11 would wrap around to 2^64 - 1), every floating-point one a value that is not
/// finite, and every --threads more than 4,096 threads.
void check_option_ranges(CLI::App& app);

}  // namespace spikeminer::cli
