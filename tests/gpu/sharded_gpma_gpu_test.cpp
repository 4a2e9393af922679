// GPMA+ cut by source over devices (device 0 standing in for two and three, and every
// visible device): after every random batch the CPU PMA's graph, batch counts and lookups;
// as a window's graph, the CPU's graph and components after every slide.
#include "catch.hpp"

#include "spikeminer/app/sliding_window.hpp"
#include "spikeminer/app/window_graph.hpp"
#include "spikeminer/core/device_query.hpp"
#include "spikeminer/graph/cpu_pma.hpp"
#include "spikeminer/graph/generators.hpp"
#include "spikeminer/graph/gpu_pma.hpp"
#include "spikeminer/graph/sharded_graph.hpp"

#include <random>
#include <string>

using namespace spikeminer;
using graph::EdgeRef;
using graph::EdgeUpdate;
using graph::Vertex;

TEST_CASE("GPMA+ sharded over devices equals the CPU PMA after every random batch", "[gpu][gpma][devices]") {
    std::vector<int> every;
    for (std::size_t d = 0; d < query_devices().devices.size(); ++d) every.push_back(static_cast<int>(d));
    const unsigned scale = 14;
    const Vertex n = Vertex{1} << scale;
    const auto stream = graph::rmat_edges(scale, 400000, 11);
    std::vector<EdgeUpdate> sample;
    for (std::size_t i = 0; i < 20000; ++i) sample.push_back({stream[i].first, stream[i].second, 1.0F});
    for (const std::vector<int>& devices : {std::vector<int>{0, 0}, std::vector<int>{0, 0, 0}, every}) {
        INFO(devices.size() << " devices");
        graph::ShardedGraph<graph::GpuPma> sharded(n, devices, graph::balanced_cuts(n, devices.size(), sample));
        graph::CpuPma one(n);
        std::mt19937_64 random(devices.size());
        std::size_t next = 0;
        for (int round = 0; round < 40 && next < stream.size(); ++round) {
            // Small batches that settle in windows and large ones that rebuild.
            const std::size_t size = round % 4 == 0 ? 50000 : 1 + random() % 2000;
            std::vector<EdgeUpdate> batch;
            for (std::size_t i = 0; i < size && next < stream.size(); ++i, ++next) {
                batch.push_back({stream[next].first, stream[next].second, static_cast<float>(random() % 100)});
            }
            const int kind = round < 8 ? 0 : static_cast<int>(random() % 3);
            graph::BatchResult got;
            graph::BatchResult want;
            if (kind == 0) {
                got = sharded.insert_edges(batch);
                want = one.insert_edges(batch);
            } else if (kind == 1) {
                std::vector<EdgeRef> erase;
                for (std::size_t i = 0; i < size; ++i) {
                    const auto& e = stream[random() % next];
                    erase.push_back({e.first, e.second});
                }
                got = sharded.erase_edges(erase);
                want = one.erase_edges(erase);
            } else {
                for (EdgeUpdate& u : batch) {
                    const auto& e = stream[random() % next];
                    u = {e.first, e.second, static_cast<float>(random() % 100)};
                }
                got = sharded.update_values(batch);
                want = one.update_values(batch);
            }
            INFO("round " << round << ", kind " << kind);
            CHECK(got.applied == want.applied);
            CHECK(got.ignored == want.ignored);
            const graph::WeightedCsr a = sharded.to_csr();
            const graph::WeightedCsr b = one.to_csr();
            REQUIRE(sharded.num_edges() == one.num_edges());
            REQUIRE(a.offsets == b.offsets);
            REQUIRE(a.targets == b.targets);
            REQUIRE(a.values == b.values);
            for (int probe = 0; probe < 10; ++probe) {
                const auto& e = stream[random() % next];
                REQUIRE(sharded.find(e.first, e.second) == one.find(e.first, e.second));
            }
        }
        REQUIRE(one.num_edges() > 100000);
    }
}

TEST_CASE("A window graph shared over devices follows a sliding window as the CPU PMA does", "[gpu][gpma][devices]") {
    const unsigned scale = 12;
    const Vertex n = Vertex{1} << scale;
    const auto edges = graph::rmat_edges(scale, 120000, 4);
    std::vector<io::StreamEdge> stream;
    for (std::size_t i = 0; i < edges.size(); ++i) stream.push_back({edges[i].first, edges[i].second, 1.0F, static_cast<double>(i)});
    app::WindowGraph shared(n, app::GraphStructure::Pma, Backend::Cuda, {0, 0});
    app::WindowGraph cpu(n, app::GraphStructure::Pma, Backend::Cpu);
    CHECK(shared.describe().find("2 GPUs") != std::string::npos);
    app::SlidingWindow a(stream, 40000);
    app::SlidingWindow b(stream, 40000);
    shared.apply(a.fill());
    cpu.apply(b.fill());
    app::WindowBatches step_a;
    app::WindowBatches step_b;
    for (int slide = 0; a.slide(7000, step_a) && b.slide(7000, step_b); ++slide) {
        shared.apply(step_a);
        cpu.apply(step_b);
        INFO("slide " << slide);
        REQUIRE(shared.num_edges() == cpu.num_edges());
        const graph::WeightedCsr x = shared.to_csr();
        const graph::WeightedCsr y = cpu.to_csr();
        REQUIRE(x.offsets == y.offsets);
        REQUIRE(x.targets == y.targets);
        REQUIRE(x.values == y.values);
        CHECK(shared.components() == cpu.components());
    }
}
