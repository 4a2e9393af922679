// The pipeline on the GPU (episodes, co-firing, GPMA+ with its analytics, cliques, the
// surrogate edge test) equals the CPU's on the demo simulation, window by window.
#include "catch.hpp"

#include "spikeminer/app/pipeline/pipeline.hpp"
#include "spikeminer/core/device_query.hpp"

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

using namespace spikeminer;

namespace {

pipeline::RunConfig demo(double window_s, double step_s) {
    pipeline::RunConfig config;
    config.simulate = "demo";
    config.window_s = window_s;
    config.step_s = step_s;
    config.mining_min_count = "400";
    return config;
}

// Run `got` gives `want`'s windows (edges, components, most central neuron, cliques,
// assemblies), edge changes, assemblies, events and episodes.
void check_same_results(const pipeline::PipelineResult& got, const pipeline::PipelineResult& want) {
    REQUIRE(got.windows.size() == want.windows.size());
    for (std::size_t w = 0; w < want.windows.size(); ++w) {
        INFO("window " << w);
        const pipeline::WindowSummary& g = got.windows[w];
        const pipeline::WindowSummary& c = want.windows[w];
        CHECK(std::tie(g.edges, g.inserted, g.erased, g.updated) == std::tie(c.edges, c.inserted, c.erased, c.updated));
        CHECK(std::tie(g.components, g.largest_component) == std::tie(c.components, c.largest_component));
        CHECK(g.most_central == c.most_central);
        CHECK(g.cliques == c.cliques);
        CHECK(g.assemblies == c.assemblies);
    }
    CHECK(got.changes == want.changes);
    CHECK(got.assemblies == want.assemblies);
    CHECK(got.events == want.events);
    REQUIRE(got.episodes.episodes.size() == want.episodes.episodes.size());
    for (std::size_t e = 0; e < want.episodes.episodes.size(); ++e) {
        CHECK(got.episodes.episodes[e].episode == want.episodes.episodes[e].episode);
        CHECK(got.episodes.episodes[e].count == want.episodes.episodes[e].count);
    }
}

}  // namespace

TEST_CASE("GPU pipeline: the demo gives the CPU's windows, assemblies and events", "[gpu][pipeline]") {
    pipeline::RunConfig config = demo(30, 5);
    const pipeline::Input input = pipeline::load_input(config, nullptr);
    config.backend = "cpu";
    const pipeline::PipelineResult cpu = pipeline::run_pipeline(input, config, nullptr);
    config.backend = "gpu";
    const pipeline::PipelineResult gpu = pipeline::run_pipeline(input, config, nullptr);
    check_same_results(gpu, cpu);
    bool on_gpu = false;
    for (const auto& stage : gpu.stages) on_gpu = on_gpu || stage.backend.find("GPU") != std::string::npos;
    CHECK(on_gpu);
}

TEST_CASE("GPU pipeline over devices (device 0 twice, and every visible device) gives one device's results", "[gpu][pipeline][devices]") {
    pipeline::RunConfig config = demo(5, 1);
    config.backend = "gpu";
    const pipeline::Input input = pipeline::load_input(config, nullptr);
    const pipeline::PipelineResult one = pipeline::run_pipeline(input, config, nullptr);
    REQUIRE(one.windows.size() > 200);
    std::vector<int> every;
    for (std::size_t d = 0; d < query_devices().devices.size(); ++d) every.push_back(static_cast<int>(d));
    for (const std::vector<int>& devices : {std::vector<int>{0, 0}, every}) {
        config.devices = devices;
        const pipeline::PipelineResult shared = pipeline::run_pipeline(input, config, nullptr);
        INFO(devices.size() << " devices");
        check_same_results(shared, one);
        const bool noted = std::any_of(shared.notes.begin(), shared.notes.end(), [](const std::string& n) { return n.find("devices") != std::string::npos; });
        CHECK((noted || devices.size() < 2));
    }
}

TEST_CASE("GPU pipeline with the surrogate edge test: the CPU's windows, over the counting threads' chunks", "[gpu][pipeline][significance]") {
    pipeline::RunConfig config = demo(10, 2);
    config.edge_test = "surrogate";
    config.surrogates = 99;
    const pipeline::Input input = pipeline::load_input(config, nullptr);
    config.backend = "cpu";
    const pipeline::PipelineResult cpu = pipeline::run_pipeline(input, config, nullptr);
    REQUIRE(cpu.windows.size() > 100);  // enough windows that the GPU's counting threads share them in chunks
    config.backend = "gpu";
    const pipeline::PipelineResult gpu = pipeline::run_pipeline(input, config, nullptr);
    check_same_results(gpu, cpu);
    // The test dropped some of the analytic test's edges: the comparison is not of the screen alone.
    config.edge_test = "analytic";
    config.surrogates = pipeline::RunConfig{}.surrogates;  // surrogates' settings apply only to a surrogate test
    const pipeline::PipelineResult screened = pipeline::run_pipeline(input, config, nullptr);
    std::size_t kept = 0;
    std::size_t found = 0;
    for (std::size_t w = 0; w < cpu.windows.size(); ++w) {
        kept += cpu.windows[w].edges;
        found += screened.windows[w].edges;
    }
    CHECK(kept > 0);
    CHECK(kept < found);
}
