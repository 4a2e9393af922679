// The pipeline on the GPU (episodes, co-firing, GPMA+ with its analytics, cliques) equals
// the CPU's on the demo simulation, window by window.
#include "catch.hpp"

#include "spikeminer/app/pipeline/pipeline.hpp"
#include "spikeminer/core/device_query.hpp"

#include <algorithm>

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

TEST_CASE("GPU pipeline over devices (device 0 twice, and every visible device) gives one device's results", "[gpu][pipeline][devices]") {
    pipeline::RunConfig config;
    config.simulate = "demo";
    config.window_s = 5;
    config.step_s = 1;
    config.mining_min_count = "400";
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
        REQUIRE(shared.windows.size() == one.windows.size());
        for (std::size_t w = 0; w < one.windows.size(); ++w) {
            INFO("window " << w);
            CHECK(std::tie(shared.windows[w].edges, shared.windows[w].inserted, shared.windows[w].erased) ==
                  std::tie(one.windows[w].edges, one.windows[w].inserted, one.windows[w].erased));
            CHECK(shared.windows[w].cliques == one.windows[w].cliques);
        }
        CHECK(shared.changes == one.changes);
        CHECK(shared.assemblies == one.assemblies);
        CHECK(shared.events == one.events);
        REQUIRE(shared.episodes.episodes.size() == one.episodes.episodes.size());
        for (std::size_t e = 0; e < one.episodes.episodes.size(); ++e) {
            CHECK(shared.episodes.episodes[e].episode == one.episodes.episodes[e].episode);
            CHECK(shared.episodes.episodes[e].count == one.episodes.episodes[e].count);
        }
        const bool noted = std::any_of(shared.notes.begin(), shared.notes.end(), [](const std::string& n) { return n.find("devices") != std::string::npos; });
        CHECK((noted || devices.size() < 2));
    }
}
