// See run_settings.hpp.
#include "run_settings.hpp"

#include "spikeminer/app/io/input_file.hpp"
#include "spikeminer/core/error.hpp"

#include <fstream>
#include <sstream>

namespace spikeminer::cli {

void add_input_settings(CLI::App& command, RunArguments& args) {
    using C = pipeline::RunConfig;
    setting(command, args, "--seed", &C::seed, "the simulation's seed");
    auto duration = std::make_shared<double>(0);
    CLI::Option* duration_option =
        command.add_option("--duration", *duration, "the simulation's length in s (default: the scenario's)")->check(CLI::PositiveNumber);
    args.overrides.push_back([duration, duration_option](pipeline::RunConfig& config) {
        if (duration_option->count() > 0) config.duration_s = *duration;
    });
    setting(command, args, "--format", &C::format, "the recording's format: csv, text, nwb, spikeminer, waverepo, phy (default: detect)");
    add_tick_setting(command, args);
    setting(command, args, "--duplicates", &C::duplicates, "two spikes of one neuron at one tick: keep (default) or merge");
    setting(command, args, "--units", &C::units, "a Kilosort / Phy folder's units: good (default: those its labels call good) or all");
}

void add_tick_setting(CLI::App& command, RunArguments& args) {
    setting(command, args, "--tick", &pipeline::RunConfig::tick, "tick for times in seconds, e.g. 1us, 30000/s");
}

void add_analysis_settings(CLI::App& command, RunArguments& args) {
    using C = pipeline::RunConfig;
    setting(command, args, "--mining-intervals", &C::mining_intervals_ms,
            "the episodes' delays in ms (default auto: 0-5,5-10, or one and two steps of a coarser time grid)");
    setting(command, args, "--min-count", &C::mining_min_count,
            "episodes' floor: auto (default: 5 with the test against chance), a count, or one per level");
    setting(command, args, "--max-level", &C::max_level, "the longest episode (default 5)");
    setting(command, args, "--mining-q", &C::mining_q,
            "test each level's candidate episodes against chance at this false discovery rate (default 0.01; 0: no test, "
            "the count alone decides)");
    setting(command, args, "--window", &C::window_s,
            "co-firing windows this many s wide (default auto: 10, or long enough for 50 spikes of the median neuron)")
        ->transform(CLI::Transformer({{"auto", "0"}}));
    setting(command, args, "--step", &C::step_s, "... every this many s (default auto: a tenth of the window)")
        ->transform(CLI::Transformer({{"auto", "0"}}));
    setting(command, args, "--sync", &C::sync_ms, "synchrony within this many ms, either way (default auto: 2, or a coarser grid's step)");
    setting(command, args, "--intervals", &C::intervals_ms, "directed lags that also join neurons, in ms (default none)");
    setting(command, args, "--baseline", &C::baseline_ms,
            "lags that give chance to co-firing and episodes, in ms (default auto: 20-40, or 6 to 10 steps of a coarser grid)");
    setting(command, args, "--chance", &C::chance, "baseline (default) or independent");
    setting(command, args, "--edge-test", &C::edge_test,
            "analytic (default) or surrogate: each edge found is also counted in surrogates (--surrogates, --surrogate, "
            "--dither-ms) and kept when it beats them");
    setting(command, args, "--correction", &C::correction, "bh (default) or bonferroni");
    setting(command, args, "--q", &C::q, "the correction's rate (default 0.01)");
    setting(command, args, "--significance", &C::significance_q,
            "keep only episodes more frequent than in surrogates, and test each assembly's activations, at this false "
            "discovery rate, e.g. 0.05 (default off)");
    setting(command, args, "--surrogates", &C::surrogates, "surrogate recordings per test (default 1000)");
    setting(command, args, "--surrogate", &C::surrogate, "dither (default), isi or shift");
    setting(command, args, "--dither-ms", &C::dither_ms, "the surrogates' largest move in ms (default 10)");
    setting(command, args, "--refractory-ms", &C::refractory_ms, "dither and isi keep a neuron's spikes this far apart (default 1)");
    setting(command, args, "--surrogate-seed", &C::surrogate_seed, "the surrogates' seed (default 1)");
    setting(command, args, "--min-size", &C::min_size, "the smallest assembly (default 3)");
    setting(command, args, "--jaccard", &C::jaccard, "cliques of consecutive windows this alike are one assembly (default 0.5)");
    setting(command, args, "--max-gap", &C::max_gap, "windows an assembly may go unseen (default 1)");
    setting(command, args, "--min-windows", &C::min_windows, "assemblies seen in fewer windows are left out (default 3)");
    setting(command, args, "--memory-budget", &C::memory_budget,
            "memory a stage may take, e.g. 4G (default auto: half what is available); a stage chunks its work to fit, or "
            "stops before it with what would fit");
    setting(command, args, "--backend", &C::backend, "auto (default), cpu or gpu");
    setting(command, args, "--threads", &C::threads, "CPU threads (default: all)");
    setting(command, args, "--devices", &C::devices,
            "GPUs to share the episodes' counting and the co-firing windows over, e.g. 0,1 (default: the current one)")
        ->delimiter(',')->allow_extra_args(false);
    auto no_analytics = std::make_shared<bool>(false);
    command.add_flag("--no-analytics", *no_analytics, "skip the components and PageRank of each window");
    args.overrides.push_back([no_analytics](pipeline::RunConfig& config) {
        if (*no_analytics) config.analytics = false;
    });
}

void add_output_settings(CLI::App& command, RunArguments& args) {
    auto nwb = std::make_shared<bool>(false);
    command.add_flag("--nwb", *nwb,
                     "also write results.nwb: the input NWB file (a copy) or a new NWB file of the recording's units, with the "
                     "assemblies, their active periods and the episodes in processing/spikeminer");
    args.overrides.push_back([nwb](pipeline::RunConfig& config) {
        if (*nwb) config.nwb = true;
    });
    command.add_option("--figure-seconds", args.figure_seconds, "seconds the raster figure shows (default 10)")->check(CLI::PositiveNumber);
    command.add_option("--show", args.show, "assemblies listed (default 10)");
}

std::string config_help() {
    std::string text = "A run config file is a JSON object with any of these keys (the command line wins):";
    for (const auto& [key, help] : pipeline::config_keys()) text += "\n  " + key + ": " + help;
    return text;
}

void apply_config_file(pipeline::RunConfig& config, const std::string& path) {
    if (path.empty()) return;
    io::check_input_file(path);
    std::ifstream file(path);
    if (!file) throw UsageError(path + ": cannot be read");
    std::stringstream text;
    text << file.rdbuf();
    pipeline::apply_json(config, text.str(), path);
}

}  // namespace spikeminer::cli
