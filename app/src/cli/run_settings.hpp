#pragma once
// The pipeline's settings on the command line, shared by `run`, `demo` and `live`: each
// option, when given, sets its key of the run config over the config file's.

#include "spikeminer/app/pipeline/run_config.hpp"

#include <CLI/CLI.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace spikeminer::cli {

// The command line's settings, each applied over the config file's when given.
struct RunArguments {
    std::string config_file;
    std::string batch;  // a manifest of recordings, instead of one
    std::string output;
    double figure_seconds = 10;
    std::size_t show = 10;
    std::vector<std::function<void(pipeline::RunConfig&)>> overrides;
};

// Registers `--name` so that, when given, it sets `field` of the config.
template <typename T>
CLI::Option* setting(CLI::App& command, RunArguments& args, const std::string& name, T pipeline::RunConfig::*field, const std::string& help) {
    auto value = std::make_shared<T>();
    CLI::Option* option = command.add_option(name, *value, help);
    args.overrides.push_back([option, value, field](pipeline::RunConfig& config) {
        if (option->count() > 0) config.*field = *value;
    });
    return option;
}

/// Registers on `command` the settings of what is read or simulated (--seed, --duration,
/// --format, --tick, --duplicates, --units)...
void add_input_settings(CLI::App& command, RunArguments& args);
/// ... --tick alone (for a stream, which has no format to tell) ...
void add_tick_setting(CLI::App& command, RunArguments& args);
/// ... the stages' settings (episodes, co-firing, significance, assemblies, backend) ...
void add_analysis_settings(CLI::App& command, RunArguments& args);
/// ... and what the results folder holds (--nwb, --figure-seconds, --show).
void add_output_settings(CLI::App& command, RunArguments& args);

/// The help's footer: the keys a config file may hold.
std::string config_help();

/// Sets `config` from the JSON file `path` (nothing when it is empty); UsageError naming
/// the file when it cannot be read or holds what is not a setting.
void apply_config_file(pipeline::RunConfig& config, const std::string& path);

}  // namespace spikeminer::cli
