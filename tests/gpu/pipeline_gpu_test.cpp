// The pipeline on the GPU (episodes, co-firing, GPMA+ with its analytics, cliques) equals
// the CPU's on the demo simulation, window by window.
#include "catch.hpp"

#include "spikeminer/app/pipeline/pipeline.hpp"

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
        CHECK(gpu.windows[w] == cpu.windows[w]);
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
