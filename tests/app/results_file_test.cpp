// A pipeline run's results.h5 read back (read_results): a run of a short demo simulation,
// with its assemblies tested against surrogates, comes back as it was written, and so do
// the empty tables of a run that reported no assembly; a small results file built by hand
// reads, and each way of damaging it (wrong format or version, an index that stops short
// or points past its data, ids that name no neuron, window or assembly, wrong types, a
// missing dataset, not HDF5 at all) is an Error naming the file and the dataset or
// attribute. hdf5_mutation_test.cpp puts every object of a real results.h5 in a wrong shape.
#include "catch.hpp"

#include "app_test_helpers.hpp"
#include "hdf5_fixtures.hpp"
#include "test_paths.hpp"

#include "spikeminer/app/pipeline/pipeline.hpp"
#include "spikeminer/app/pipeline/results.hpp"
#include "spikeminer/app/pipeline/results_file.hpp"
#include "spikeminer/core/error.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <functional>
#include <map>

using namespace spikeminer;

TEST_CASE("results file: a run of the demo reads back as it was written", "[results-file]") {
    pipeline::RunConfig config;
    config.simulate = "demo";
    config.duration_s = 60;
    config.window_s = 10;
    config.step_s = 5;
    config.backend = "cpu";
    config.significance_q = 0.05;  // assemblies and episodes tested: their significance is stored
    config.surrogates = 19;
    const pipeline::Input input = pipeline::load_input(config, nullptr);
    const pipeline::PipelineResult written = pipeline::run_pipeline(input, config, nullptr);
    REQUIRE_FALSE(written.assemblies.empty());
    REQUIRE(written.assemblies.front().significance);
    REQUIRE_FALSE(written.events.empty());
    REQUIRE_FALSE(written.changes.empty());
    REQUIRE_FALSE(written.episodes.episodes.empty());
    const test::TempDir dir;
    pipeline::write_results(dir.file("out"), input, config, written, nullptr);

    const pipeline::SavedRun run = pipeline::read_results(dir.file("out/results.h5"));
    CHECK(run.input == input.source);
    CHECK(run.input_checksum == input.checksum);
    CHECK(nlohmann::json::parse(run.config_json)["simulate"]["scenario"] == "demo");
    CHECK(run.created_by.starts_with("spikeminer "));
    CHECK(run.time_base.ticks_per_second == input.recording.trains.time_base().ticks_per_second);
    CHECK(run.labels == input.recording.trains.neuron_table().labels);

    const pipeline::PipelineResult& read = run.result;
    CHECK(read.windows == written.windows);
    CHECK(read.changes == written.changes);
    CHECK(read.events == written.events);
    REQUIRE(read.assemblies.size() == written.assemblies.size());
    for (std::size_t a = 0; a < written.assemblies.size(); ++a) {
        const pipeline::Assembly& w = written.assemblies[a];
        const pipeline::Assembly& r = read.assemblies[a];
        CHECK(r.track.id == w.track.id);
        CHECK(r.track.windows == w.track.windows);
        CHECK(r.members == w.members);
        CHECK(r.span == w.span);
        CHECK(r.active == w.active);
        CHECK(r.activations == w.activations);
        REQUIRE(r.significance.has_value() == w.significance.has_value());
        if (!w.significance) continue;
        CHECK(r.significance->count == w.significance->count);
        CHECK(r.significance->p == w.significance->p);
        CHECK(r.significance->p_adjusted == w.significance->p_adjusted);
        CHECK(r.significance->surrogate_mean == w.significance->surrogate_mean);
        CHECK(r.significance->surrogate_sd == w.significance->surrogate_sd);
        CHECK(r.significance->surrogates_used == w.significance->surrogates_used);
    }
    REQUIRE(read.episodes.episodes.size() == written.episodes.episodes.size());
    for (std::size_t e = 0; e < written.episodes.episodes.size(); ++e) {
        CHECK(read.episodes.episodes[e].episode == written.episodes.episodes[e].episode);
        CHECK(read.episodes.episodes[e].count == written.episodes.episodes[e].count);
        CHECK(read.episodes.episodes[e].significance.has_value() == written.episodes.episodes[e].significance.has_value());
    }
    REQUIRE(read.episodes.levels.size() == written.episodes.levels.size());
    for (std::size_t l = 0; l < written.episodes.levels.size(); ++l) {
        const mining::LevelReport& w = written.episodes.levels[l];
        const mining::LevelReport& r = read.episodes.levels[l];
        CHECK(r.level == w.level);
        CHECK(r.candidates == w.candidates);
        CHECK(r.frequent == w.frequent);
        CHECK(r.threshold == w.threshold);
        CHECK(r.seconds == w.seconds);
    }
}

TEST_CASE("results file: a run that found no assemblies reads back with empty tables", "[results-file]") {
    pipeline::RunConfig config;
    config.simulate = "none";
    config.duration_s = 20;
    config.window_s = 10;
    config.step_s = 5;
    config.backend = "cpu";
    const pipeline::Input input = pipeline::load_input(config, nullptr);
    const pipeline::PipelineResult written = pipeline::run_pipeline(input, config, nullptr);
    REQUIRE(written.assemblies.empty());
    REQUIRE(written.events.empty());
    const test::TempDir dir;
    pipeline::write_results(dir.file("out"), input, config, written, nullptr);
    const pipeline::SavedRun run = pipeline::read_results(dir.file("out/results.h5"));
    CHECK(run.result.windows == written.windows);
    CHECK(run.result.changes == written.changes);
    CHECK(run.result.assemblies.empty());
    CHECK(run.result.events.empty());
}

namespace {

// A small valid results.h5, built table by table so that a test can damage any of them:
// three neurons, two windows with one clique each, one assembly, two episodes.
struct ResultsFixture {
    std::string format = "pipeline-results";
    std::int64_t version = 2;
    std::vector<std::string> labels = {"a", "b", "c"};
    std::map<std::string, std::vector<std::int64_t>> integers = {
        {"/mining/episode_neurons", {0, 0, 1}}, {"/mining/episode_neurons_index", {1, 3}}, {"/mining/counts", {4, 3}},
        {"/mining/level_thresholds", {2, 2}},
        {"/windows/edges", {1, 1}}, {"/windows/inserted", {1, 0}}, {"/windows/erased", {0, 0}}, {"/windows/updated", {0, 1}},
        {"/windows/components", {1, 1}}, {"/windows/largest_component", {2, 2}}, {"/windows/most_central", {0, -1}},
        {"/windows/clique_members", {0, 1, 0, 1}}, {"/windows/clique_members_index", {2, 4}},
        {"/windows/clique_window", {0, 1}}, {"/windows/clique_assembly", {7, 7}},
        {"/edge_changes/window", {0, 1}}, {"/edge_changes/a", {0, 0}}, {"/edge_changes/b", {1, 1}}, {"/edge_changes/kind", {0, 2}},
        {"/assemblies/id", {7}}, {"/assemblies/members", {0, 1}}, {"/assemblies/members_index", {2}},
        {"/assemblies/windows", {0, 1}}, {"/assemblies/windows_index", {2}},
        {"/assemblies/activations", {2, 11}}, {"/assemblies/activations_index", {2}},
        {"/assemblies/active", {2, 12}}, {"/assemblies/active_index", {2}},
        {"/events/window", {0, 1}}, {"/events/assembly", {7, 7}}, {"/events/other", {0, 0}}, {"/events/kind", {0, 5}},
    };
    std::map<std::string, std::vector<std::int64_t>> pairs = {
        {"/mining/episode_gaps", {0, 5}}, {"/mining/levels", {3, 1, 6, 1}},
        {"/windows/span", {0, 10, 5, 15}}, {"/assemblies/span", {2, 12}},
    };
    std::map<std::string, std::vector<double>> doubles = {
        {"/mining/level_seconds", {0.1, 0.2}}, {"/edge_changes/weight", {3.5, 4}},
    };

    void write(const std::string& path) const {
        test::H5Fixture file(path);
        file.string_attribute("/", "spikeminer_format", format);
        file.int_attribute("/", "spikeminer_format_version", version);
        file.int_attribute("/", "ticks_per_second", 1000);
        for (const char* name : {"created_by", "input", "input_checksum", "config_json"}) file.string_attribute("/", name, "x");
        file.strings("/neurons/labels", labels);
        for (const auto& [dataset, values] : integers) file.int64s(dataset, values);
        for (const auto& [dataset, values] : pairs) file.int64_pairs(dataset, values);
        for (const auto& [dataset, values] : doubles) file.doubles(dataset, values);
    }
};

}  // namespace

TEST_CASE("results file: a small file built by hand reads", "[results-file]") {
    const test::TempDir dir;
    const std::string path = dir.file("results.h5");
    ResultsFixture().write(path);
    const pipeline::SavedRun run = pipeline::read_results(path);
    CHECK(run.time_base.ticks_per_second == 1000);
    CHECK(run.labels == std::vector<std::string>{"a", "b", "c"});
    const pipeline::PipelineResult& r = run.result;
    REQUIRE(r.windows.size() == 2);
    CHECK(r.windows[0].most_central == NeuronId{0});
    CHECK_FALSE(r.windows[1].most_central);
    CHECK(r.windows[1].cliques == std::vector<std::vector<NeuronId>>{{0, 1}});
    CHECK(r.windows[1].assemblies == std::vector<std::uint32_t>{7});
    REQUIRE(r.assemblies.size() == 1);
    CHECK(r.assemblies[0].track.id == 7);
    CHECK(r.assemblies[0].span == TimeSpan{2, 12});
    CHECK(r.assemblies[0].active == std::vector<TimeSpan>{{2, 12}});
    CHECK_FALSE(r.assemblies[0].significance);
    CHECK(r.changes[1] == pipeline::EdgeChange{1, 0, 1, pipeline::EdgeChange::Kind::Updated, 4.0F});
    CHECK(r.events[1] == pipeline::AssemblyEvent{1, pipeline::EventKind::Ends, 7, 0});
    REQUIRE(r.episodes.episodes.size() == 2);
    CHECK(r.episodes.episodes[1].episode.gaps == std::vector<mining::Interval>{{0, 5}});
    CHECK(r.episodes.levels.size() == 2);
}

TEST_CASE("results file: a damaged or foreign file is an Error naming the file and the dataset", "[results-file]") {
    const test::TempDir dir;
    const std::string path = dir.file("results.h5");
    struct Damage {
        const char* what;
        std::function<void(ResultsFixture&)> apply;
        const char* named;  // the dataset or attribute the message must name
        const char* says;   // and part of what it says
    };
    const std::vector<Damage> damages = {
        {"another format", [](ResultsFixture& f) { f.format = "mining-results"; }, "'spikeminer_format'", "'mining-results'"},
        {"a newer version", [](ResultsFixture& f) { f.version = 3; }, "'spikeminer_format_version'", "update spikeminer"},
        {"an older version", [](ResultsFixture& f) { f.version = 1; }, "'spikeminer_format_version'", "reads version 2"},
        {"an active period that ends before it starts", [](ResultsFixture& f) { f.integers["/assemblies/active"] = {12, 2}; },
         "'/assemblies/active'", "out of order or empty"},
        {"half an active period", [](ResultsFixture& f) {
             f.integers["/assemblies/active"] = {2};
             f.integers["/assemblies/active_index"] = {1};
         }, "'/assemblies/active'", "odd number"},
        {"an index stopping short", [](ResultsFixture& f) { f.integers["/assemblies/members_index"] = {1}; },
         "'/assemblies/members_index'", "belong to no entry"},
        {"an index past its data", [](ResultsFixture& f) { f.integers["/windows/clique_members_index"] = {2, 5}; },
         "'/windows/clique_members_index'", "points past its data"},
        {"an index going back", [](ResultsFixture& f) { f.integers["/assemblies/activations_index"] = {-1}; },
         "'/assemblies/activations_index'", "not monotone"},
        {"a member past the neurons", [](ResultsFixture& f) { f.integers["/assemblies/members"] = {0, 3}; },
         "'/assemblies/members'", "is 3, not one of the 3 neurons"},
        {"an episode neuron past the neurons", [](ResultsFixture& f) { f.integers["/mining/episode_neurons"] = {0, 0, 9}; },
         "'/mining/episode_neurons'", "is 9"},
        {"a clique of no assembly", [](ResultsFixture& f) { f.integers["/windows/clique_assembly"] = {7, 8}; },
         "'/windows/clique_assembly'", "is 8, not an id"},
        {"an event past the windows", [](ResultsFixture& f) { f.integers["/events/window"] = {0, 2}; },
         "'/events/window'", "not one of the 2 windows"},
        {"edge changes out of window order", [](ResultsFixture& f) { f.integers["/edge_changes/window"] = {1, 0}; },
         "'/edge_changes/window'", "before the one above it"},
        {"a table of another length", [](ResultsFixture& f) { f.integers["/edge_changes/kind"] = {0}; },
         "'/edge_changes/kind'", "expected 2 (one per edge change)"},
        {"floats for integers", [](ResultsFixture& f) {
             f.integers.erase("/events/kind");
             f.doubles["/events/kind"] = {0, 5};
         }, "'/events/kind'", "expected integers"},
        {"a missing dataset", [](ResultsFixture& f) { f.integers.erase("/windows/edges"); }, "'/windows/edges'", "missing"},
        {"a span table of one column", [](ResultsFixture& f) {
             f.pairs.erase("/windows/span");
             f.integers["/windows/span"] = {0, 10};
         }, "'/windows/span'", "dimensions"},
    };
    for (const Damage& damage : damages) {
        INFO(damage.what);
        ResultsFixture fixture;
        damage.apply(fixture);
        fixture.write(path);
        try {
            pipeline::read_results(path);
            FAIL("read without an error");
        } catch (const Error& e) {
            const std::string message = e.what();
            INFO(message);
            CHECK(message.find(path) != std::string::npos);
            CHECK(message.find(damage.named) != std::string::npos);
            CHECK(message.find(damage.says) != std::string::npos);
        }
    }
}

TEST_CASE("results file: a file that is not HDF5 is an Error naming it", "[results-file]") {
    const test::TempDir dir;
    const std::string path = dir.file("results.h5");
    test::write_file(path, "window,edges\n0,1\n");
    CHECK_THROWS_WITH(pipeline::read_results(path), test::contains(path) && test::contains("not an HDF5 file"));
    CHECK_THROWS_WITH(pipeline::read_results(dir.file("missing.h5")), test::contains("missing.h5"));
}
