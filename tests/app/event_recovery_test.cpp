// The recovery's reading of a simulation's ground truth: an assembly that grows or shrinks is
// one assembly through the change; a split, a merge or an on and off period is not.
#include "catch.hpp"

#include "pipeline/event_recovery.hpp"

#include "spikeminer/simulator/simulate.hpp"

using namespace spikeminer;

TEST_CASE("recovery: a stretch that grows or shrinks into the next is one assembly's span", "[assemblies]") {
    simulator::NetworkConfig config = simulator::scenario("dynamics");
    simulator::set_duration(config, 20);  // the changes at 10 s
    const simulator::Simulation simulation = simulator::simulate(config);
    const TimeBase& tb = simulation.trains.time_base();
    const Tick slack = tb.from_seconds(1);
    const TimeSpan before{0, tb.from_seconds(10)}, after{tb.from_seconds(10), tb.from_seconds(20)}, whole{0, tb.from_seconds(20)};
    const auto members = [](NeuronId first, NeuronId last) {
        std::vector<NeuronId> out;
        for (NeuronId n = first; n <= last; ++n) out.push_back(n);
        return out;
    };
    CHECK(pipeline::detail::continued_span(simulation.truth, before, members(0, 5), slack) == whole);   // grows
    CHECK(pipeline::detail::continued_span(simulation.truth, after, members(0, 6), slack) == whole);
    CHECK(pipeline::detail::continued_span(simulation.truth, before, members(40, 46), slack) == whole);  // shrinks
    CHECK(pipeline::detail::continued_span(simulation.truth, before, members(10, 19), slack) == before);  // splits
    CHECK(pipeline::detail::continued_span(simulation.truth, after, members(10, 14), slack) == after);
    CHECK(pipeline::detail::continued_span(simulation.truth, before, members(20, 24), slack) == before);  // merges
    CHECK(pipeline::detail::continued_span(simulation.truth, after, members(20, 29), slack) == after);
}
