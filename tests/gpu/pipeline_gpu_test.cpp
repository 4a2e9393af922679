// The pipeline on the GPU (episodes, co-firing, GPMA+ with its analytics, cliques) equals
// the CPU's on the demo simulation, window by window.
#include "catch.hpp"

#include "spikeminer/app/pipeline/pipeline.hpp"

#include <tuple>

using namespace spikeminer;

TEST_CASE("GPU pipeline: the demo gives the CPU's windows, assemblies and events", "[gpu][pipeline]") {
    pipeline::RunConfig config;
    config.simulate = "demo";
    config.window_s = 30;
    config.step_s = 5;
    config.mining_min_count = "400";
    const pipeline::Input input = pipeline::load_input(config, nullptr);
    config.backend = "cpu";
    const pipeline::PipelineResult cpu = pipeline::run_pipeline(input, config, nullptr);
    config.backend = "gpu";
    const pipeline::PipelineResult gpu = pipeline::run_pipeline(input, config, nullptr);
    REQUIRE(gpu.windows.size() == cpu.windows.size());
    for (std::size_t w = 0; w < cpu.windows.size(); ++w) {
        INFO("window " << w);
        const pipeline::WindowSummary& g = gpu.windows[w];
        const pipeline::WindowSummary& c = cpu.windows[w];
        CHECK(std::tie(g.edges, g.inserted, g.erased, g.updated) == std::tie(c.edges, c.inserted, c.erased, c.updated));
        CHECK(std::tie(g.components, g.largest_component) == std::tie(c.components, c.largest_component));
        CHECK(g.most_central == c.most_central);
        CHECK(g.cliques == c.cliques);
        CHECK(g.assemblies == c.assemblies);
    }
    CHECK(gpu.changes == cpu.changes);
    CHECK(gpu.assemblies == cpu.assemblies);
    CHECK(gpu.events == cpu.events);
    REQUIRE(gpu.episodes.episodes.size() == cpu.episodes.episodes.size());
    for (std::size_t e = 0; e < cpu.episodes.episodes.size(); ++e) {
        CHECK(gpu.episodes.episodes[e].episode == cpu.episodes.episodes[e].episode);
        CHECK(gpu.episodes.episodes[e].count == cpu.episodes.episodes[e].count);
    }
    bool on_gpu = false;
    for (const auto& stage : gpu.stages) on_gpu = on_gpu || stage.backend.find("GPU") != std::string::npos;
    CHECK(on_gpu);
}
