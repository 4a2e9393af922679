#pragma once
// Everything `spikeminer run` can be told, from a JSON file and the command line (which
// wins), checked before any work starts.

#include "spikeminer/mining/cofiring.hpp"
#include "spikeminer/mining/significance.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace spikeminer::pipeline {

/// The run's parameters. Times are written as text in ms or s, as on the command line, and
/// converted exactly to the recording's ticks once it is read.
struct RunConfig {
    // What to analyse: a recording, or a simulation of a scenario.
    std::string input;
    std::string simulate;                   ///< a scenario name, instead of `input`
    std::uint64_t seed = 1;
    std::optional<double> duration_s;       ///< the simulation's length (default: the scenario's)
    std::string format;                     ///< the recording's format (default: detected)
    std::string tick;                       ///< tick for files in seconds (default: the file's own, else 1 us)
    std::string duplicates = "keep";        ///< keep or merge two spikes of one neuron at one tick
    std::string units = "good";             ///< a Kilosort / Phy folder's units: good or all
    // Episodes over the whole recording.
    /// The delays, or "auto": those the recording's time grid resolves (time_scales.hpp).
    std::string mining_intervals_ms = "auto";
    /// "auto", one count, or one per level ("300,200,100"). With the test against chance
    /// auto is a floor of kAutoFloor occurrences; without, twice the count of a pair of
    /// neurons at the 90th percentile of the rates by chance, in the widest interval, at least 10.
    std::string mining_min_count = "auto";
    std::size_t max_level = 5;
    /// The test against chance (mining/chance.hpp) of every level's candidates at this false
    /// discovery rate; 0: no test, the count alone decides.
    double mining_q = 0.01;
    // Co-firing windows; 0: auto (time_scales.hpp: 10 s every 1 s, longer for slow neurons).
    double window_s = 0;
    double step_s = 0;
    std::string sync_ms = "auto";           ///< or "off"; auto: 2 ms, or half a step of a coarser time grid
    std::string intervals_ms;               ///< lagged co-firing that also joins neurons (default none)
    /// The lags that give chance, both ways, to the co-firing test and the episodes' test;
    /// auto: 20-40 ms, or 6 to 10 steps of a coarser time grid.
    std::string baseline_ms = "auto";
    std::string chance = "baseline";
    std::string edge_test = "analytic";     ///< or "surrogate": edges also beat surrogates (the significance settings)
    std::string correction = "bh";
    double q = 0.01;
    // Significance against surrogates, off when significance_q is 0: of the episodes (from
    // level 2 on, as `mine --significance`) and of each assembly's activations. The
    // surrogates' settings also serve edge_test "surrogate".
    double significance_q = 0;
    std::size_t surrogates = 1000;
    std::string surrogate = "dither";
    double dither_ms = 10;
    double refractory_ms = 1;
    std::uint64_t surrogate_seed = 1;
    // Assemblies.
    std::size_t min_size = 3;
    double jaccard = 0.5;
    std::size_t max_gap = 1;
    std::size_t min_windows = 3;            ///< assemblies seen in fewer windows are left out (flicker)
    bool analytics = true;                  ///< components and PageRank of each window's graph
    /// Also results.nwb: the input NWB file (copied) or a new one of the recording's units,
    /// with the assemblies, their active periods and the episodes (results_nwb.cpp).
    bool nwb = false;
    // Where, and within what.
    /// Bytes of host memory a stage may take ("4G", "512M"), or "auto": half what is available.
    std::string memory_budget = "auto";
    std::string backend = "auto";
    unsigned threads = 0;
    /// GPUs that share the episodes' prefix counting and the co-firing windows (empty: the
    /// current one); the window graphs and their cliques run on the first.
    std::vector<int> devices;
};

/// The significance options of `config` in the ticks of `time_base`; none when it is off.
/// Throws UsageError naming the setting.
std::optional<mining::SignificanceOptions> significance_options(const RunConfig& config, const TimeBase& time_base);

/// The keys of a run config file, each with what it sets (for --help and the README).
std::vector<std::pair<std::string, std::string>> config_keys();

/// Sets `config` from a JSON object (`source` names it in errors): every key must be one of
/// config_keys() with a value of its type. Throws UsageError naming the key.
void apply_json(RunConfig& config, const std::string& text, const std::string& source);

/// Checks what can be checked before reading anything: an input or a scenario (not both),
/// positive window and step (the window a whole number of steps), 0 < q, min_size >= 2,
/// 0 < jaccard <= 1, known names. Throws UsageError naming the setting.
void validate(const RunConfig& config);

/// The config as JSON, every key (kept with the results).
std::string to_json(const RunConfig& config);

/// The episodes' floor under "auto" with the test against chance: an episode is reported
/// only when it occurred at least this many times, however improbable.
inline constexpr std::uint64_t kAutoFloor = 5;

/// The memory budget's bytes: memory_budget, or the default share of what is available.
/// Throws UsageError for a size it cannot read.
std::size_t memory_budget_bytes(const RunConfig& config);

/// `spikeminer demo`'s run: the demo scenario (seed 1) at the defaults of `spikeminer run`.
RunConfig demo_config();

}  // namespace spikeminer::pipeline
