#pragma once
// The assembly pipeline, one chain of stages from a recording to assemblies through time:
//   read or simulate -> episodes over the whole recording -> co-firing windows -> the
//   window's graph kept in a dynamic graph (GPMA+ on the GPU, the CPU's packed memory
//   array otherwise), moved from window to window by insert, erase and update batches ->
//   components and PageRank of each window on the graph in place -> the maximal cliques
//   of each window -> assemblies tracked through time, their activation times, and what
//   they recover of a simulation's ground truth.
// Every stage is a function of values; `spikeminer run`, `spikeminer demo`, the GUI and the
// tests call the same ones.

#include "spikeminer/app/io/read_spikes.hpp"
#include "spikeminer/app/pipeline/run_config.hpp"
#include "spikeminer/app/pipeline/tracking.hpp"
#include "spikeminer/core/progress.hpp"
#include "spikeminer/mining/cofiring.hpp"
#include "spikeminer/mining/mine.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace spikeminer::pipeline {

/// What the pipeline analyses: spikes, what a simulation put in them, and where they came from.
struct Input {
    io::SpikeRecording recording;
    std::string source;    ///< the file's name, or "simulated scenario demo, seed 1"
    std::string checksum;  ///< "crc32:..." of the file's bytes; "crc32-spikes:..." of a simulation's spikes
};

/// Stage 1: the recording named by config.input (read once: spikes and ground truth), or
/// the simulation of config.simulate (its assemblies' active stretches scaled with the
/// length when config.duration_s changes it).
Input load_input(const RunConfig& config, Progress* progress);

/// Stage 1 for spikes already in memory (the Python module's arrays): `source` names them,
/// the checksum is that of the spikes, as of a simulation's.
Input input_from_trains(SpikeTrains trains, std::string source);

/// Stage 2's options for `config` (its auto lags resolved, time_scales.hpp) in the ticks of
/// the trains: the test against chance unless mining_q is 0, the floor or threshold, the
/// memory budget. Throws UsageError naming a setting the recording cannot take.
mining::MiningOptions mining_options(const SpikeTrains& trains, const RunConfig& config, Progress* progress);

/// Stage 2: frequent episodes over the whole recording (mining_options).
mining::MiningResult mine_episodes(const SpikeTrains& trains, const RunConfig& config, Progress* progress);

/// An edge of a window's co-firing graph that changed from the window before.
struct EdgeChange {
    enum class Kind : std::uint8_t { Inserted, Erased, Updated };
    std::uint32_t window = 0;
    NeuronId a = 0;  ///< a < b
    NeuronId b = 0;
    Kind kind = Kind::Inserted;
    float weight = 0;  ///< -log10 of the pair's best corrected p-value (0 when erased)
    bool operator==(const EdgeChange&) const = default;
};

/// One window of stages 3-6.
struct WindowSummary {
    std::size_t index = 0;
    TimeSpan span;
    std::size_t edges = 0;                   ///< neuron pairs joined
    std::size_t inserted = 0;                ///< pairs the batches inserted, erased, re-weighted
    std::size_t erased = 0;
    std::size_t updated = 0;
    std::size_t components = 0;              ///< connected groups of 2 or more neurons (with analytics)
    std::size_t largest_component = 0;
    std::optional<NeuronId> most_central;    ///< the highest PageRank (with analytics and edges)
    std::vector<std::vector<NeuronId>> cliques;  ///< maximal cliques of at least min_size, sorted
    std::vector<std::uint32_t> assemblies;   ///< the tracked assembly of each clique (kNoAssembly: one seen too briefly)
    bool operator==(const WindowSummary&) const = default;
};

/// A clique's assembly when that one was seen in fewer windows than reported.
inline constexpr std::uint32_t kNoAssembly = ~std::uint32_t{0};

/// A tracked assembly with what the stages after tracking add.
struct Assembly {
    TrackedAssembly track;
    std::vector<NeuronId> members;        ///< a clique of the whole recording's co-firing graph, or the neurons in at least half its windows
    TimeSpan span;                        ///< from its first active period's start to its last one's end
    std::vector<TimeSpan> active;         ///< its active periods, each from its first activation to just after its last
    std::vector<Tick> activations;        ///< times within them at which more than half its members fire within the synchrony lag
    /// Its number of activations over its windows against surrogates (with significance on).
    std::optional<mining::SurrogateSignificance> significance;
    bool operator==(const Assembly&) const = default;
};

/// How well the pipeline found what a simulation embedded.
struct Recovery {
    std::size_t chain_links = 0;          ///< consecutive pairs of the embedded chains
    std::size_t chain_links_found = 0;    ///< ... inside frequent episodes at their delays
    std::size_t long_episodes = 0;        ///< frequent episodes of 3 neurons or more
    std::size_t long_episodes_true = 0;   ///< ... that run along an embedded chain at its delays, or lie within one assembly
    std::size_t assembly_periods = 0;     ///< embedded assemblies, one per active stretch
    std::size_t assembly_periods_found = 0;  ///< ... matched by a tracked assembly (Jaccard >= 0.5, overlapping in time)
    std::size_t assemblies_tracked = 0;
    std::size_t assemblies_true = 0;      ///< tracked assemblies that are the best match of an embedded one's stretch
    double span_error_s = 0;              ///< mean |start error| + |end error| of the matched, in s
    /// Events the embedded stretches make (one starting as another ends: grows, shrinks,
    /// splits, merges; else appears and ends, the recording's own bounds apart), those a
    /// reported event matches (its kind, within 10 s, its assembly's members Jaccard >= 0.5
    /// with the event's), the reported events and how many of them match one.
    std::size_t events = 0;
    std::size_t events_found = 0;
    std::size_t events_reported = 0;
    std::size_t events_true = 0;
    double event_time_error_s = 0;        ///< mean |time error| of the matched, in s
    [[nodiscard]] double chain_recall() const;
    [[nodiscard]] double chain_precision() const;
    [[nodiscard]] double assembly_recall() const;
    [[nodiscard]] double assembly_precision() const;
};

/// How long a stage took, where it ran, and the most memory the process held during it.
struct StageTime {
    std::string stage;
    double seconds = 0;
    std::string backend;
    std::size_t peak_bytes = 0;  ///< resident memory at the stage's peak (0: not known)
};

struct PipelineResult {
    mining::MiningResult episodes;
    mining::CofiringOptions cofiring;        ///< as applied to the recording's ticks
    std::vector<WindowSummary> windows;
    std::vector<EdgeChange> changes;
    std::vector<Assembly> assemblies;
    std::vector<AssemblyEvent> events;
    std::optional<Recovery> recovery;
    std::vector<StageTime> stages;
    std::vector<std::string> notes;          ///< backend choices and fallbacks, short recordings
    RunConfig settings;                      ///< the config as applied: its auto lags resolved for the recording
};

/// Stage 3's options for `config` (its auto lags resolved for the trains, time_scales.hpp)
/// in the trains' ticks.
mining::CofiringOptions cofiring_options(const RunConfig& config, const SpikeTrains& trains);

/// Where stage 3's windows come from: by default each is computed here in turn
/// (`windows.next`); across MPI ranks some arrive from other ranks. False after the last.
using WindowFeed = std::function<bool(mining::CofiringWindows& windows, mining::CofiringWindow& window)>;

/// Stages 2-7 on a loaded input. Throws Cancelled when asked to stop, UsageError for
/// settings the recording cannot take (a lag that is not a whole number of its ticks).
PipelineResult run_pipeline(const Input& input, const RunConfig& config, Progress* progress, const WindowFeed& feed = {});

/// The index in result.assemblies of the tracked assembly `id` (they are in ascending id,
/// as run_pipeline and read_results give them); none for kNoAssembly or an id not reported.
std::optional<std::size_t> assembly_index(const PipelineResult& result, std::uint32_t id);

/// Stage 7's last part: the recovery of the ground truth.
Recovery recover(const simulator::GroundTruth& truth, const PipelineResult& result, const TimeBase& time_base);

}  // namespace spikeminer::pipeline
