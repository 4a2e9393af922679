// The pipeline end to end at run's defaults on the demo simulation (seed 1, the demo's own)
// and on the dynamics and independent-neuron scenarios (seeds the benchmarks do not use):
// what was embedded is found (chains, every active stretch of every assembly, the events),
// nothing where nothing was embedded; each window's cliques are those of a graph
// built from scratch from that window's co-firing edges (so the dynamic graph, moved by
// batches, holds exactly the window's graph); the edge changes replay to each window's
// edges; the results folder is written whole, or not at all when cancelled; run configs
// refuse unknown keys and wrong types; with significance on, every assembly is tested
// against surrogates and the embedded ones pass.
#include "catch.hpp"

#include "app_test_helpers.hpp"
#include "test_paths.hpp"

#include "spikeminer/app/figures/figure.hpp"
#include "spikeminer/app/pipeline/pipeline.hpp"
#include "spikeminer/app/pipeline/results.hpp"
#include "spikeminer/core/error.hpp"
#include "spikeminer/graph/cliques.hpp"
#include "spikeminer/simulator/simulate.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <set>

using namespace spikeminer;

namespace {

pipeline::RunConfig demo_config() {
    pipeline::RunConfig config;
    config.simulate = "demo";
    config.backend = "cpu";
    return config;
}

struct Demo {
    pipeline::RunConfig config = demo_config();
    pipeline::Input input = pipeline::load_input(config, nullptr);
    pipeline::PipelineResult result = pipeline::run_pipeline(input, config, nullptr);
};

const Demo& demo() {
    static const Demo run;
    return run;
}

}  // namespace

TEST_CASE("pipeline: the demo's chains, the active stretches of its assemblies and their events are found at the defaults", "[pipeline]") {
    const Demo& d = demo();
    REQUIRE(d.result.recovery);
    const pipeline::Recovery& r = *d.result.recovery;
    CHECK(r.chain_links == 10);
    CHECK(r.chain_recall() == 1.0);
    CHECK(r.chain_precision() == 1.0);
    CHECK(r.assembly_periods == 7);
    CHECK(r.assembly_recall() == 1.0);
    CHECK(r.assembly_precision() == 1.0);
    CHECK(r.span_error_s < 5);
    CHECK(r.events == 8);
    CHECK(r.events_found == 8);
    CHECK(r.events_true == r.events_reported);
    // Windows from the median neuron's rate: 10 s (it fires at 5 Hz), a tenth of that apart.
    const TimeBase& tb = d.input.recording.trains.time_base();
    CHECK(d.result.cofiring.window == tb.from_seconds(10));
    CHECK(d.result.cofiring.step == tb.from_seconds(1));
    CHECK(d.result.windows.size() == 231);
}

TEST_CASE("pipeline: assemblies that grow, shrink, split, merge and switch on and off are followed with their events", "[pipeline]") {
    pipeline::RunConfig config;
    config.simulate = "dynamics";
    config.seed = 3;
    config.backend = "cpu";
    const pipeline::Input input = pipeline::load_input(config, nullptr);
    const pipeline::PipelineResult result = pipeline::run_pipeline(input, config, nullptr);
    REQUIRE(result.recovery);
    const pipeline::Recovery& r = *result.recovery;
    CHECK(r.assembly_recall() == 1.0);
    CHECK(r.assembly_precision() == 1.0);
    CHECK(result.assemblies.size() == 9);  // 0-6, 40-46, 10-19 and its two halves, 20-29 and its two halves, 30-35
    CHECK(r.span_error_s < 10);
    CHECK(r.events == 10);
    CHECK(r.events_found >= 9);
    CHECK(r.events_true == r.events_reported);
    std::set<pipeline::EventKind> kinds;
    for (const pipeline::AssemblyEvent& e : result.events) kinds.insert(e.kind);
    for (const auto kind : {pipeline::EventKind::Appears, pipeline::EventKind::Ends, pipeline::EventKind::Grows, pipeline::EventKind::Shrinks,
                            pipeline::EventKind::Splits, pipeline::EventKind::Merges}) {
        INFO(static_cast<int>(kind));
        CHECK(kinds.count(kind) == 1);
    }
}

TEST_CASE("pipeline: independent neurons give no assembly at the defaults", "[pipeline]") {
    for (const std::uint64_t seed : {7, 8}) {
        simulator::NetworkConfig network = simulator::scenario("none");
        network.neurons = 200;
        network.seed = seed;
        network.duration_s = 600;
        pipeline::Input input;
        input.recording.trains = simulator::simulate(network).trains;
        pipeline::RunConfig config;
        config.simulate = "none";  // the scenario, with 200 neurons for 10 minutes simulated here
        config.backend = "cpu";
        config.max_level = 2;
        const pipeline::PipelineResult result = pipeline::run_pipeline(input, config, nullptr);
        INFO("seed " << seed);
        CHECK(result.assemblies.empty());
        CHECK(result.events.empty());
    }
}

TEST_CASE("pipeline: with significance on, every assembly is tested against surrogates and the embedded ones pass", "[pipeline][significance]") {
    pipeline::RunConfig config = demo_config();
    config.significance_q = 0.05;
    config.surrogates = 99;
    const pipeline::Input input = pipeline::load_input(config, nullptr);
    const pipeline::PipelineResult result = pipeline::run_pipeline(input, config, nullptr);
    REQUIRE(input.recording.truth);
    REQUIRE_FALSE(result.assemblies.empty());
    std::size_t embedded = 0;
    for (const pipeline::Assembly& a : result.assemblies) {
        REQUIRE(a.significance);
        CHECK(a.significance->count == a.activations.size());
        CHECK(a.significance->surrogates_used >= 1);
        const bool within_truth = std::any_of(input.recording.truth->assemblies.begin(), input.recording.truth->assemblies.end(),
                                              [&](const auto& t) {
                                                  return std::all_of(a.members.begin(), a.members.end(), [&](NeuronId n) {
                                                      return std::find(t.members.begin(), t.members.end(), n) != t.members.end();
                                                  });
                                              });
        if (!within_truth) continue;
        ++embedded;
        INFO("assembly " << a.track.id << ", " << a.activations.size() << " activations");
        CHECK(a.significance->p <= 2.0 / 100);  // (1 + at most one exceedance) / (N + 1)
        CHECK(a.significance->significant);
    }
    CHECK(embedded >= 5);
}

TEST_CASE("pipeline: every clique's assembly id finds its assembly, and an unreported one none", "[pipeline]") {
    const Demo& d = demo();
    REQUIRE(d.result.assemblies.size() >= 2);
    for (std::size_t a = 0; a < d.result.assemblies.size(); ++a) {
        CHECK(pipeline::assembly_index(d.result, d.result.assemblies[a].track.id) == a);
    }
    CHECK_FALSE(pipeline::assembly_index(d.result, pipeline::kNoAssembly));
    for (const pipeline::WindowSummary& w : d.result.windows) {
        for (const std::uint32_t id : w.assemblies) {
            const auto a = pipeline::assembly_index(d.result, id);
            if (a) CHECK(d.result.assemblies[*a].track.id == id);
        }
    }
}

TEST_CASE("pipeline: a simulation's checksum is that of its spikes: the same for its seed, another for another", "[pipeline]") {
    pipeline::RunConfig config;
    config.simulate = "demo";
    config.duration_s = 10;
    const pipeline::Input first = pipeline::load_input(config, nullptr);
    const pipeline::Input again = pipeline::load_input(config, nullptr);
    config.seed = 2;
    const pipeline::Input other = pipeline::load_input(config, nullptr);
    CHECK(first.checksum.starts_with("crc32-spikes:"));
    CHECK(first.checksum.size() == std::string("crc32-spikes:").size() + 8);
    CHECK(first.checksum == again.checksum);
    CHECK(first.checksum != other.checksum);
}

TEST_CASE("pipeline: each window's cliques are those of its co-firing edges, built from scratch", "[pipeline]") {
    const Demo& d = demo();
    const SpikeTrains& trains = d.input.recording.trains;
    mining::CofiringWindows windows(trains, d.result.cofiring);
    mining::CofiringWindow window;
    std::set<std::pair<NeuronId, NeuronId>> replayed;
    std::size_t change = 0;
    std::size_t with_cliques = 0;
    while (windows.next(window)) {
        const auto pairs = mining::joined_pairs(window);
        graph::CliqueOptions options;
        options.min_size = d.config.min_size;
        options.backend = Backend::Cpu;
        std::vector<std::vector<NeuronId>> expected;
        graph::enumerate_maximal_cliques(graph::Graph::from_edges(static_cast<graph::Vertex>(trains.num_neurons()), pairs), options,
                                         [&](std::span<const graph::Vertex> c) { expected.emplace_back(c.begin(), c.end()); });
        std::sort(expected.begin(), expected.end());
        INFO("window " << window.index);
        REQUIRE(window.index < d.result.windows.size());
        CHECK(d.result.windows[window.index].cliques == expected);
        CHECK(d.result.windows[window.index].edges == pairs.size());
        with_cliques += expected.empty() ? 0 : 1;
        // The changes up to this window rebuild its edges.
        for (; change < d.result.changes.size() && d.result.changes[change].window == window.index; ++change) {
            const auto& c = d.result.changes[change];
            if (c.kind == pipeline::EdgeChange::Kind::Inserted) CHECK(replayed.emplace(c.a, c.b).second);
            if (c.kind == pipeline::EdgeChange::Kind::Erased) CHECK(replayed.erase({c.a, c.b}) == 1);
        }
        CHECK(std::vector<std::pair<NeuronId, NeuronId>>(replayed.begin(), replayed.end()) == pairs);
    }
    CHECK(with_cliques > 30);
}

TEST_CASE("pipeline: the results folder holds every file, and a bad folder is refused", "[pipeline]") {
    const Demo& d = demo();
    const test::TempDir dir;
    const std::string out = dir.file("results");
    const std::vector<std::string> written = pipeline::write_results(out, d.input, d.config, d.result, nullptr);
    std::vector<std::string> expected = {"results.h5", "summary.json", "assemblies.csv", "episodes.csv", "windows.csv"};
    if (figures::figures_available()) {
        for (const char* name : {"raster.svg", "raster.png", "timeline.svg", "timeline.png", "graph.svg", "graph.png"}) expected.push_back(name);
    }
    CHECK(written == expected);
    std::size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(out)) {
        INFO(entry.path());
        CHECK(std::find(expected.begin(), expected.end(), entry.path().filename().string()) != expected.end());
        CHECK(entry.file_size() > 0);
        ++files;
    }
    CHECK(files == expected.size());
    std::filesystem::create_directory(dir.file("fresh"));  // the results folder has a new folder's rights
    CHECK(std::filesystem::status(out).permissions() == std::filesystem::status(dir.file("fresh")).permissions());
    const auto summary = nlohmann::json::parse(test::read_file(out + "/summary.json"));
    CHECK(summary["recovery"]["assembly_recall"] == 1.0);
    CHECK(summary["assemblies"].size() == d.result.assemblies.size());
    CHECK(summary["config"]["cofiring"]["window_s"] == 10.0);
    CHECK_THROWS_AS(pipeline::check_results_dir(out, d.config), UsageError);  // not empty
    CHECK_THROWS_AS(pipeline::check_results_dir(out + "/summary.json", d.config), UsageError);  // a file
    CHECK_THROWS_AS(pipeline::check_results_dir(dir.file("missing/results"), d.config), UsageError);
    CHECK_NOTHROW(pipeline::check_results_dir(dir.file("new"), d.config));
    std::filesystem::remove(dir.file("fresh"));
    pipeline::remove_previous_results(out);  // only results there: removed
    CHECK(!std::filesystem::exists(out));
    test::write_file(dir.file("mine.txt"), "keep me");
    CHECK_THROWS_AS(pipeline::remove_previous_results(dir.path()), UsageError);
    CHECK(std::filesystem::exists(dir.file("mine.txt")));
}

TEST_CASE("pipeline: a cancelled run leaves no results and no partial folder", "[pipeline]") {
    const Demo& d = demo();
    const test::TempDir dir;
    CancelToken cancel;
    cancel.request();
    Progress progress([](const std::string&, std::uint64_t, std::uint64_t) {}, &cancel);
    CHECK_THROWS_AS(pipeline::write_results(dir.file("results"), d.input, d.config, d.result, &progress), Cancelled);
    CHECK(std::filesystem::is_empty(dir.path()));
    CHECK_THROWS_AS(pipeline::run_pipeline(d.input, d.config, &progress), Cancelled);
}

TEST_CASE("pipeline: without the test against chance the automatic episode threshold is twice the chance count at the 90th "
          "percentile rate; with it, a floor", "[pipeline]") {
    // Ten neurons firing 1, 2, ..., 10 Hz (evenly spread) over 100 s: the 90th percentile
    // rate is 9 Hz, the widest interval of 0-5,5-10 ms is 5 ms, so two 9 Hz neurons meet
    // 81 * 0.005 * 100 = 40.5 times by chance; twice that is 81.
    std::vector<Spike> spikes;
    NeuronTable table;
    for (NeuronId n = 0; n < 10; ++n) {
        table.labels.push_back("n" + std::to_string(n));
        const Tick count = 100 * (n + 1);
        for (Tick k = 0; k < count; ++k) spikes.push_back({k * 100'000 / count, n});
    }
    SpikeTrains trains = SpikeTrains::from_spikes(std::move(spikes), std::move(table), TimeBase{1000});
    trains.set_span(TimeSpan{0, 100'000});
    pipeline::RunConfig config;
    config.max_level = 1;
    config.backend = "cpu";
    CHECK(pipeline::mine_episodes(trains, config, nullptr).levels.at(0).threshold == pipeline::kAutoFloor);
    config.mining_q = 0;
    const mining::MiningResult mined = pipeline::mine_episodes(trains, config, nullptr);
    REQUIRE(mined.levels.size() == 1);
    CHECK(mined.levels[0].threshold == 81);

    // Too quiet for chance to reach 10: the floor.
    NeuronTable two;
    two.labels = {"a", "b"};
    SpikeTrains quiet = SpikeTrains::from_spikes({{0, 0}, {50'000, 1}}, std::move(two), TimeBase{1000});
    quiet.set_span(TimeSpan{0, 100'000});
    CHECK(pipeline::mine_episodes(quiet, config, nullptr).levels[0].threshold == 10);
}

TEST_CASE("pipeline: the episodes mined after the CPU's windows, level 2 reading their counts, are those mined alone", "[pipeline]") {
    const Demo& d = demo();
    const mining::MiningResult alone = pipeline::mine_episodes(d.input.recording.trains, d.result.settings, nullptr);
    const mining::MiningResult& run = d.result.episodes;
    REQUIRE(run.episodes.size() == alone.episodes.size());
    CHECK(run.episodes.size() > 20);
    for (std::size_t i = 0; i < run.episodes.size(); ++i) {
        CHECK(run.episodes[i].episode == alone.episodes[i].episode);
        CHECK(run.episodes[i].count == alone.episodes[i].count);
        REQUIRE(run.episodes[i].chance.has_value() == alone.episodes[i].chance.has_value());
        if (run.episodes[i].chance) CHECK(*run.episodes[i].chance == *alone.episodes[i].chance);
    }
    REQUIRE(run.levels.size() == alone.levels.size());
    for (std::size_t l = 0; l < run.levels.size(); ++l) {
        CHECK(run.levels[l].chance_tests == alone.levels[l].chance_tests);
        CHECK(run.levels[l].beat_chance == alone.levels[l].beat_chance);
    }
    // Their stage keeps its place before the windows'.
    const auto at = [&](const char* name) {
        return std::find_if(d.result.stages.begin(), d.result.stages.end(), [&](const pipeline::StageTime& t) { return t.stage == name; });
    };
    REQUIRE(at("episodes") != d.result.stages.end());
    CHECK(at("episodes") < at("co-firing"));
}

TEST_CASE("run config: keys from JSON, checked by name and type, and back", "[pipeline][config]") {
    pipeline::RunConfig config;
    pipeline::apply_json(config, R"({"simulate": {"scenario": "demo", "seed": 7}, "cofiring": {"window_s": 20, "step_s": 2, "sync_ms": 1.5},
                                   "mining": {"min_count": [300, 200]}, "assemblies": {"min_size": 4}, "analytics": false,
                                   "significance": {"q": 0.05, "surrogates": 500, "surrogate": "isi", "dither_ms": 5},
                                   "devices": [0, 1]})",
                         "run.json");
    CHECK(config.simulate == "demo");
    CHECK(config.seed == 7);
    CHECK(config.window_s == 20);
    CHECK(config.sync_ms == "1.5");
    CHECK(config.mining_min_count == "300,200");
    CHECK(config.min_size == 4);
    CHECK_FALSE(config.analytics);
    CHECK(config.significance_q == 0.05);
    CHECK(config.surrogates == 500);
    CHECK(config.surrogate == "isi");
    CHECK(config.dither_ms == 5);
    CHECK(config.devices == std::vector<int>{0, 1});
    pipeline::RunConfig again;
    pipeline::apply_json(again, pipeline::to_json(config), "again");
    CHECK(pipeline::to_json(again) == pipeline::to_json(config));
    const auto refused = [](const std::string& json, const std::string& words) {
        pipeline::RunConfig c;
        INFO(json);
        CHECK_THROWS_WITH(pipeline::apply_json(c, json, "run.json"), spikeminer::test::contains(words));
    };
    refused(R"({"cofiring": {"windw_s": 20}})", "unknown key 'cofiring.windw_s'");
    refused(R"({"cofiring": {"window_s": "20"}})", "'cofiring.window_s' must be \"auto\" or a positive number");
    refused(R"({"cofiring": {"step_s": -1}})", "'cofiring.step_s' must be \"auto\" or a positive number");
    refused(R"({"assemblies": {"min_size": -3}})", "'assemblies.min_size' must be a whole number");
    refused(R"({"analytics": 1})", "'analytics' must be true or false");
    refused(R"({"cofiring": 3})", "'cofiring' must be an object");
    refused(R"({"devices": 1})", "'devices' must be a list of device numbers");
    refused(R"({"devices": [0, -1]})", "'devices' must be a whole number");
    refused(R"([1, 2])", "a JSON object");
    refused(R"({"input": )", "not JSON");
    refused(R"({"cofiring": {"q": 44444e4444}})", "not JSON the program can take");  // found by fuzz_run_config
    const auto invalid = [](const std::function<void(pipeline::RunConfig&)>& change) {
        pipeline::RunConfig c;
        c.simulate = "demo";
        change(c);
        CHECK_THROWS_AS(pipeline::validate(c), UsageError);
    };
    invalid([](pipeline::RunConfig& c) { c.input = "x.h5"; });  // both an input and a scenario
    invalid([](pipeline::RunConfig& c) { c.window_s = 10; c.step_s = 3; });
    invalid([](pipeline::RunConfig& c) { c.step_s = -1; });
    invalid([](pipeline::RunConfig& c) { c.window_s = 5; c.step_s = 10; });
    invalid([](pipeline::RunConfig& c) { c.q = 0; });
    invalid([](pipeline::RunConfig& c) { c.min_size = 1; });
    invalid([](pipeline::RunConfig& c) { c.jaccard = 1.5; });
    invalid([](pipeline::RunConfig& c) { c.backend = "tpu"; });
    invalid([](pipeline::RunConfig& c) { c.devices = {0, -1}; });
    invalid([](pipeline::RunConfig& c) { c.backend = "cpu"; c.devices = {0, 1}; });
    invalid([](pipeline::RunConfig& c) { c.significance_q = 1.5; });
    invalid([](pipeline::RunConfig& c) { c.significance_q = 0.05; c.surrogate = "jitter"; });
    invalid([](pipeline::RunConfig& c) { c.significance_q = 0.05; c.surrogates = 0; });
    invalid([](pipeline::RunConfig& c) { c.significance_q = 0.05; c.dither_ms = 0; });
    invalid([](pipeline::RunConfig& c) { c.significance_q = 0.05; c.refractory_ms = -1; });
}
