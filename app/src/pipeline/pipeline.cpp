// Stages 3-7: co-firing windows, the dynamic graph and its analytics, the cliques,
// tracking, activation times and recovery (run_pipeline).
#include "spikeminer/app/pipeline/pipeline.hpp"

#include "activations.hpp"
#include "assemblies.hpp"
#include "device_windows.hpp"
#include "episodes_beside.hpp"
#include "window_readings.hpp"

#include "spikeminer/app/pipeline/time_scales.hpp"
#include "spikeminer/app/window_graph.hpp"
#include "spikeminer/core/device_query.hpp"
#include "spikeminer/core/error.hpp"
#include "spikeminer/core/memory.hpp"
#include "spikeminer/graph/cliques.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>

namespace spikeminer::pipeline {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

using graph::UndirectedEdge;

// -log10 of the corrected p-value, at most 300 (0 when the test is off).
float strength(const mining::CofiringEdge& e) {
    if (!(e.p_adjusted < 1)) return 0.0F;
    return static_cast<float>(std::min(300.0, -std::log10(std::max(e.p_adjusted, 1e-300))));
}

// The window's joined pairs, a < b, each weighted by its strongest test.
std::vector<UndirectedEdge> weighted_pairs(const mining::CofiringWindow& window) {
    std::vector<UndirectedEdge> pairs;
    for (const mining::CofiringEdge& e : window.edges) {
        const auto [a, b] = std::minmax(e.a, e.b);
        pairs.push_back({a, b, strength(e)});
    }
    std::sort(pairs.begin(), pairs.end(), [](const UndirectedEdge& x, const UndirectedEdge& y) {
        return std::tuple(x.a, x.b, -x.weight) < std::tuple(y.a, y.b, -y.weight);
    });
    // The strongest test of each pair (first after the sort).
    pairs.erase(std::unique(pairs.begin(), pairs.end(), [](const UndirectedEdge& x, const UndirectedEdge& y) { return x.a == y.a && x.b == y.b; }),
                pairs.end());
    return pairs;
}

// The changes that move the window's graph from `before` to `after`, counted in its summary.
void record_changes(const std::vector<UndirectedEdge>& before, const std::vector<UndirectedEdge>& after, WindowSummary& summary,
                    std::vector<EdgeChange>& changes) {
    const auto window = static_cast<std::uint32_t>(summary.index);
    graph::edge_changes(
        before, after,
        [&](const UndirectedEdge& p) {
            changes.push_back({window, p.a, p.b, EdgeChange::Kind::Erased, 0.0F});
            ++summary.erased;
        },
        [&](const UndirectedEdge& p) {
            changes.push_back({window, p.a, p.b, EdgeChange::Kind::Inserted, p.weight});
            ++summary.inserted;
        },
        [&](const UndirectedEdge& p) {
            changes.push_back({window, p.a, p.b, EdgeChange::Kind::Updated, p.weight});
            ++summary.updated;
        });
}

// The batches that move a dynamic graph from `before` to `after` (both directions of each
// pair: the graph is undirected); only the windows the dynamic graph reads need them.
app::WindowBatches batches_of(const std::vector<UndirectedEdge>& before, const std::vector<UndirectedEdge>& after) {
    app::WindowBatches batches;
    graph::edge_changes(
        before, after,
        [&](const UndirectedEdge& p) {
            batches.erase.push_back({p.a, p.b});
            batches.erase.push_back({p.b, p.a});
        },
        [&](const UndirectedEdge& p) {
            batches.insert.push_back({p.a, p.b, p.weight});
            batches.insert.push_back({p.b, p.a, p.weight});
        },
        [&](const UndirectedEdge& p) {
            batches.update.push_back({p.a, p.b, p.weight});
            batches.update.push_back({p.b, p.a, p.weight});
        });
    return batches;
}

// What a large window's graph gives (with analytics), read where the dynamic graph holds it.
graph::SmallGraphReading read_graph(const app::WindowGraph& graph, bool analytics, double& analytics_s) {
    graph::SmallGraphReading out;
    if (analytics) {
        const auto start = Clock::now();
        graph::count_components(graph.components(), out);
        if (graph.num_edges() != 0) out.most_central = graph::most_central(graph.pagerank().rank);
        analytics_s += seconds_since(start);
    }
    return out;
}

// The maximal cliques of at least `min_size` of a large window's graph, read where the
// dynamic graph holds it.
std::vector<std::vector<NeuronId>> cliques_of(const app::WindowGraph& graph, const RunConfig& config, std::string& note) {
    graph::CliqueOptions options;
    options.min_size = config.min_size;
    options.backend = parse_backend(config.backend);
    options.threads = config.threads;
    std::vector<std::vector<NeuronId>> cliques;
    const graph::CliqueSummary summary =
        graph.maximal_cliques(options, [&](std::span<const graph::Vertex> c) { cliques.emplace_back(c.begin(), c.end()); });
    if (!summary.note.empty()) note = summary.note;
    std::sort(cliques.begin(), cliques.end());
    return cliques;
}

// Windows from which host threads share the counting on the GPU: below them each thread's
// setup (the lag layout, the test tables, a counter) costs more than it saves.
constexpr std::size_t kThreadedWindows = 32;

// DeviceWindows' threads a device: as many as kThreadsPerDevice counters that take at most
// half of the first device's free memory (so that GPMA+ and the cliques keep room beside
// them), and at least one.
std::size_t threads_per_device(const mining::CofiringWindows& windows, const std::vector<int>& devices) {
    const DeviceReport report = query_devices();
    const auto first = static_cast<std::size_t>(devices.front());
    const std::size_t free = first < report.devices.size() ? report.devices[first].free_memory : 0;
    return std::clamp<std::size_t>(free / 2 / std::max<std::size_t>(1, windows.gpu_count_bytes()), 1, DeviceWindows::kThreadsPerDevice);
}

}  // namespace

mining::CofiringOptions cofiring_options(const RunConfig& given, const SpikeTrains& trains) {
    RunConfig config = given;
    (void)resolve_time_scales(config, trains);
    const TimeBase& time_base = trains.time_base();
    mining::CofiringOptions options;
    options.lags = mining::parse_lags(config.sync_ms, config.intervals_ms, config.baseline_ms, time_base);
    options.test.chance = config.chance == "independent" ? mining::Chance::Independent : mining::Chance::Baseline;
    options.test.correction = config.correction == "bonferroni" ? mining::Correction::Bonferroni : mining::Correction::BenjaminiHochberg;
    options.test.q = config.q;
    options.test.surrogates = mining::surrogate_edge_test(config.edge_test, config.surrogates, config.surrogate, config.dither_ms,
                                                          config.refractory_ms, config.surrogate_seed, time_base);
    try {
        options.window = parse_ticks(std::to_string(config.window_s), "s", time_base);
        options.step = parse_ticks(std::to_string(config.step_s), "s", time_base);
    } catch (const Error& e) {
        throw UsageError(std::string("co-firing window and step: ") + e.what());
    }
    options.backend = parse_backend(config.backend);
    options.threads = config.threads;
    options.memory_budget = memory_budget_bytes(config);
    return options;
}

// Auto's reason to keep a large window's graph on the CPU while it stays under kGpuWindowEdges.
std::string large_graphs() {
    return "window graphs under " + std::to_string(app::kGpuWindowEdges) + " edges, which the CPU keeps faster";
}

PipelineResult run_pipeline(const Input& input, const RunConfig& given, Progress* progress, const WindowFeed& feed) {
    validate(given);
    const SpikeTrains& trains = input.recording.trains;
    PipelineResult result;
    result.settings = given;
    result.notes.push_back("time scales: " + resolve_time_scales(result.settings, trains));
    const RunConfig& config = result.settings;
    if (!config.devices.empty() && choose_backend(parse_backend(config.backend)).backend == Backend::Cuda) use_device(config.devices.front());
    reset_peak_memory();
    result.cofiring = cofiring_options(config, trains);
    mining::CofiringOptions counting = result.cofiring;
    counting.progress = progress;
    mining::CofiringWindows windows(trains, counting);
    // The episodes first; or, where the GPU mines them and shares out the windows' counting
    // (DeviceWindows), beside the windows; or after the windows, where the CPU counts them
    // (below). Their stage and notes come first whichever.
    const bool windows_on_gpu = !feed && windows.backend().backend == Backend::Cuda && windows.size() >= kThreadedWindows;
    // The peak of episodes mined beside other stages is not theirs alone: not known (0).
    const auto add_episodes = [&](mining::MiningResult episodes, double seconds, const char* where, std::size_t peak) {
        result.episodes = std::move(episodes);
        const std::string backend = result.episodes.levels.empty() ? "" : backend_name(result.episodes.levels.back().backend) + where;
        result.stages.insert(result.stages.begin(), {"episodes", seconds, backend, peak});
        std::vector<std::string> notes;
        for (const auto& level : result.episodes.levels) {
            if (!level.significance_note.empty()) notes.push_back("episodes, level " + std::to_string(level.level) + ": " + level.significance_note);
        }
        if (!result.episodes.stopped.empty()) notes.push_back("episodes: " + result.episodes.stopped);
        result.notes.insert(result.notes.begin() + 1, notes.begin(), notes.end());  // after the time scales
    };
    // The assemblies' members, from the whole recording's co-firing graph: after the
    // windows, from the steps they counted (the same counts without counting the spikes
    // again), or, where that cannot be (windows fed from elsewhere, one window, or the sum
    // over the memory budget), counted first.
    const bool members_from_windows = !feed && windows.keep_whole_recording();
    // Where the CPU counts the windows and keeps their sum, the episodes are mined after
    // them: level 2's sieve reads the lags it shares with the windows (the chance baseline,
    // the most of its count) from that sum, and counts only the others.
    mining::MiningOptions episode_options = mining_options(trains, config, progress);
    const bool mine_after = members_from_windows && windows.backend().backend == Backend::Cpu && episode_options.max_level >= 2 &&
                            episode_options.chance.has_value();
    // On the GPU, threads on each device share the windows' counting (as many as the device's
    // free memory holds before the mining beside takes its part); the graphs and cliques
    // stay on the first device.
    std::vector<int> devices = config.devices;
    std::size_t counting_threads = 0;
    if (windows_on_gpu) {
        if (devices.empty()) devices.push_back(current_device());
        counting_threads = threads_per_device(windows, devices);
    }
    const auto mine_here = [&](const mining::WholeRecordingCounts* pair_counts) {
        const auto began = Clock::now();
        episode_options.pair_counts = pair_counts;
        mining::MiningResult episodes = mining::mine(trains, episode_options);
        episode_options.pair_counts = nullptr;  // not kept past the counts
        add_episodes(std::move(episodes), seconds_since(began), "", peak_memory());
        reset_peak_memory();
    };
    std::optional<EpisodesBeside> beside;
    if (windows_on_gpu && choose_backend(parse_backend(config.backend)).backend == Backend::Cuda) {
        beside.emplace(trains, config, current_device());
    } else if (!mine_after) {
        mine_here(nullptr);
    }
    std::vector<std::vector<NeuronId>> whole;
    const std::size_t notes_at = result.notes.size();
    const auto members_stage = [&](std::size_t at, const std::function<std::vector<std::vector<NeuronId>>(std::string&)>& find) {
        const auto began = Clock::now();
        std::string note;
        whole = find(note);
        result.stages.insert(result.stages.begin() + static_cast<std::ptrdiff_t>(at), {"assemblies' members", seconds_since(began), "", peak_memory()});
        if (!note.empty()) result.notes.insert(result.notes.begin() + static_cast<std::ptrdiff_t>(notes_at), "assemblies' members: " + note);
        reset_peak_memory();
    };
    const auto count_members = [&](std::string& note) { return detail::whole_recording_assemblies(trains, result.cofiring, config, progress, note); };
    const std::size_t members_at = result.stages.size();
    if (!members_from_windows) members_stage(members_at, count_members);
    if (!windows.note().empty()) result.notes.push_back(windows.note());
    std::unique_ptr<DeviceWindows> on_gpu;
    WindowFeed from_gpu;
    if (windows_on_gpu) {
        on_gpu = std::make_unique<DeviceWindows>(trains, counting, devices, counting_threads, windows.size(), progress, members_from_windows);
        from_gpu = [&on_gpu](mining::CofiringWindows&, mining::CofiringWindow& w) { return on_gpu->next(w); };
        if (config.devices.size() > 1) result.notes.push_back("co-firing windows counted on " + std::to_string(config.devices.size()) + " devices");
    }
    const WindowFeed& next_window = feed ? feed : from_gpu;
    // A window's graph under kOneThreadBelowEdges edges (every co-firing window of the
    // recordings measured: at most a few hundred) is read with the next ones in a batch, one
    // thread or one warp each; a larger one where one dynamic graph holds it, moved by the
    // window's batches when it held the window before, its cliques on all threads: under
    // auto the CPU's PMA while the graphs stay under kGpuWindowEdges, and GPMA+ from the
    // first window of kGpuWindowEdges or more on (when a GPU can be used).
    WindowReader reader(static_cast<graph::Vertex>(trains.num_neurons()), windows.size(), config);
    const Backend graph_requested = parse_backend(config.backend);
    BackendChoice graph_choice = choose_backend(graph_requested, graph_requested == Backend::Auto ? large_graphs() : "");
    bool may_move_to_gpu = graph_requested == Backend::Auto && choose_backend(Backend::Auto).backend == Backend::Cuda;
    std::optional<app::WindowGraph> dynamic;
    Backend dynamic_on = Backend::Cpu;
    std::optional<std::size_t> dynamic_holds;  // the window whose graph it holds
    std::vector<UndirectedEdge> before;
    AssemblyTracker tracker({config.jaccard, config.max_gap});
    double counting_s = 0, tracking_s = 0;
    WindowStageTimes times;
    std::string clique_note;
    std::vector<WindowSummary> waiting;  // summaries of the windows in `graphs`
    std::vector<std::vector<UndirectedEdge>> graphs;
    // A window read (its groups go to the tracker once the members are known).
    const auto finish = [&](WindowSummary& summary, const graph::SmallGraphReading& reading, std::vector<std::vector<NeuronId>> cliques) {
        summary.components = reading.components;
        summary.largest_component = reading.largest_component;
        summary.most_central = reading.most_central;
        summary.cliques = std::move(cliques);
        result.windows.push_back(std::move(summary));
    };
    const auto read_waiting = [&] {
        if (graphs.empty()) return;
        std::vector<WindowReading> readings = reader.read(graphs, times);
        for (std::size_t i = 0; i < readings.size(); ++i) finish(waiting[i], readings[i].graph, std::move(readings[i].cliques));
        waiting.clear();
        graphs.clear();
    };
    mining::CofiringWindow window;
    for (;;) {
        auto start = Clock::now();
        if (!(next_window ? next_window(windows, window) : windows.next(window))) break;
        counting_s += seconds_since(start);
        WindowSummary summary;
        summary.index = window.index;
        summary.span = window.span;
        std::vector<UndirectedEdge> after = weighted_pairs(window);
        summary.edges = after.size();
        record_changes(before, after, summary, result.changes);
        if (after.size() < graph::kOneThreadBelowEdges) {
            waiting.push_back(std::move(summary));
            graphs.push_back(after);
            if (graphs.size() == reader.batch()) read_waiting();
            before = std::move(after);
            continue;
        }
        read_waiting();
        if (may_move_to_gpu && after.size() >= app::kGpuWindowEdges) {
            may_move_to_gpu = false;
            graph_choice = choose_backend(Backend::Auto);
        }
        // The window's batches, or, for a new structure (or one that holds an older window,
        // or the CPU's after the GPU ran out of memory), the whole window's graph.
        const auto update_and_read = [&](Backend backend) {
            const auto started = Clock::now();
            double analytics_s = 0;
            const bool fresh = !dynamic || dynamic_on != backend || dynamic_holds != summary.index - 1;
            if (fresh) {
                dynamic.emplace(static_cast<graph::Vertex>(trains.num_neurons()), app::GraphStructure::Pma, backend);
                dynamic_on = backend;
            }
            dynamic->apply(batches_of(fresh ? std::vector<UndirectedEdge>{} : before, after));
            dynamic_holds = summary.index;
            graph::SmallGraphReading reading = read_graph(*dynamic, config.analytics, analytics_s);
            times.graph_s += seconds_since(started) - analytics_s;
            times.analytics_s += analytics_s;
            return reading;
        };
        const graph::SmallGraphReading reading =
            run_with_fallback(graph_choice, [&] { return update_and_read(Backend::Cuda); }, [&] { return update_and_read(Backend::Cpu); });
        start = Clock::now();
        std::vector<std::vector<NeuronId>> cliques = cliques_of(*dynamic, config, clique_note);
        times.cliques_s += seconds_since(start);
        finish(summary, reading, std::move(cliques));
        before = std::move(after);
    }
    read_waiting();
    const BackendChoice counting_backend = on_gpu ? on_gpu->backend() : windows.backend();
    const std::string counted_on = backend_name(counting_backend.backend);
    // The window stages run window by window, together: one peak for them all.
    const std::size_t windows_peak = peak_memory();
    std::string structure = reader.describe();
    if (dynamic) structure += "; windows of " + std::to_string(graph::kOneThreadBelowEdges) + " edges or more: " + dynamic->describe();
    result.stages.push_back({"co-firing", counting_s, counted_on, windows_peak});
    result.stages.push_back({"graph updates", times.graph_s, structure, windows_peak});
    if (config.analytics) result.stages.push_back({"components and PageRank", times.analytics_s, structure, windows_peak});
    result.stages.push_back({"cliques", times.cliques_s, structure, windows_peak});
    reset_peak_memory();
    if (!counting_backend.note.empty()) result.notes.push_back("co-firing: " + counting_backend.note);
    if (!reader.choice().note.empty()) result.notes.push_back("window graphs: " + reader.choice().note);
    if (dynamic && !graph_choice.note.empty()) {
        result.notes.push_back("window graphs of " + std::to_string(graph::kOneThreadBelowEdges) + " edges or more: " + graph_choice.note);
    }
    if (!clique_note.empty()) result.notes.push_back("cliques: " + clique_note);
    if (members_from_windows) {
        members_stage(members_at, [&](std::string& note) {
            mining::CofiringWindow counted;
            if (!(on_gpu ? on_gpu->whole_recording(windows, counted) : windows.whole_recording(counted))) return count_members(note);
            note = counting_backend.note;
            return detail::assemblies_of_whole(trains, counted, config, progress);
        });
    }
    if (mine_after) {
        const std::optional<mining::WholeRecordingCounts> counts = windows.take_whole_recording_counts();
        mine_here(counts ? &*counts : nullptr);
    }
    // The window groups (candidates of stage 7), in window order: cliques that show no
    // whole-recording assembly (other groups, and parts of one, as after a split or before
    // a merge).
    const auto tracking_began = Clock::now();
    for (const WindowSummary& summary : result.windows) {
        std::vector<std::vector<NeuronId>> other;
        for (const auto& clique : summary.cliques) {
            if (!detail::shows_one(whole, clique)) other.push_back(clique);
        }
        tracker.add_window(summary.index, other);
    }
    tracker.finish();
    tracking_s += seconds_since(tracking_began);

    auto start = Clock::now();
    const Tick sync = std::max<Tick>(result.cofiring.lags.sync, 0);
    detail::assemblies_through_time(trains, config, whole, tracker, result);
    const auto unseen = static_cast<std::size_t>(
        std::count_if(result.assemblies.begin(), result.assemblies.end(), [](const Assembly& a) { return a.track.windows.empty(); }));
    if (unseen != 0) {
        char text[320];
        std::snprintf(text, sizeof text,
                      "assemblies: %zu of the %zu are no clique of any %g s window (too short for the test at these rates): their "
                      "activity comes from their activations alone; a longer --window shows them window by window",
                      unseen, result.assemblies.size(), config.window_s);
        result.notes.push_back(text);
    }
    tracking_s += seconds_since(start);
    result.stages.push_back({"tracking and activations", tracking_s, "cpu", peak_memory()});
    if (const auto significance = significance_options(config, trains.time_base()); significance && !result.assemblies.empty()) {
        start = Clock::now();
        std::vector<std::vector<NeuronId>> members;
        std::vector<std::vector<TimeSpan>> periods;  // where each assembly is active
        for (const Assembly& a : result.assemblies) {
            members.push_back(a.members);
            periods.push_back(a.active);
        }
        const auto tested = test_activations(trains, members, periods, sync, *significance, progress);
        for (std::size_t i = 0; i < tested.size(); ++i) result.assemblies[i].significance = tested[i];
        result.stages.push_back({"assemblies against surrogates", seconds_since(start), "cpu", peak_memory()});
    }
    if (beside) {
        double seconds = 0;
        mining::MiningResult episodes = beside->take(progress, seconds);
        add_episodes(std::move(episodes), seconds, ", beside the co-firing windows", 0);
    }
    if (input.recording.truth) result.recovery = recover(*input.recording.truth, result, trains.time_base());
    return result;
}

std::optional<std::size_t> assembly_index(const PipelineResult& result, std::uint32_t id) {
    const auto& assemblies = result.assemblies;
    const auto at = std::lower_bound(assemblies.begin(), assemblies.end(), id, [](const Assembly& a, std::uint32_t wanted) { return a.track.id < wanted; });
    if (at == assemblies.end() || at->track.id != id) return std::nullopt;
    return static_cast<std::size_t>(at - assemblies.begin());
}

}  // namespace spikeminer::pipeline
