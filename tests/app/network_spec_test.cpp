// The simulator's command-line specs (network_spec.hpp): chains, links, assemblies and
// modulations parse to exact structures; delays and jitter are converted from ms to whole
// steps; every malformed spec is a UsageError that quotes the spec.
#include "catch.hpp"

#include "spikeminer/app/network_spec.hpp"
#include "spikeminer/core/error.hpp"

#include <string>
#include <vector>

using namespace spikeminer;
using simulator::DelayRange;
using simulator::Modulation;
using spikeminer::test::contains;

TEST_CASE("network spec: a chain with one delay", "[network-spec]") {
    const simulator::Chain chain = parse_chain("0>1>2@0.8:5", 1e-3);
    CHECK(chain.neurons == std::vector<NeuronId>{0, 1, 2});
    CHECK(chain.strengths == std::vector<double>{0.8, 0.8});
    CHECK(chain.delays == std::vector<DelayRange>{{5, 5}, {5, 5}});
    CHECK_FALSE(chain.loopback);
}

TEST_CASE("network spec: a chain with a delay range and loopback has one more link", "[network-spec]") {
    const simulator::Chain chain = parse_chain("0>1>2@0.7:3-6+loop", 1e-3);
    CHECK(chain.neurons == std::vector<NeuronId>{0, 1, 2});
    CHECK(chain.loopback);
    CHECK(chain.strengths == std::vector<double>{0.7, 0.7, 0.7});
    CHECK(chain.delays == std::vector<DelayRange>{{3, 6}, {3, 6}, {3, 6}});
}

TEST_CASE("network spec: a two-neuron chain and large neuron indices", "[network-spec]") {
    const simulator::Chain chain = parse_chain("17>4294967295@0.25:1", 1e-3);
    CHECK(chain.neurons == std::vector<NeuronId>{17, 4294967295u});
    CHECK(chain.strengths == std::vector<double>{0.25});
    CHECK(chain.delays == std::vector<DelayRange>{{1, 1}});
}

TEST_CASE("network spec: the step size converts ms to steps", "[network-spec]") {
    SECTION("half a millisecond doubles the step counts") {
        const simulator::Chain chain = parse_chain("0>1>2@0.8:5", 0.5e-3);
        CHECK(chain.delays == std::vector<DelayRange>{{10, 10}, {10, 10}});
        const simulator::Chain ranged = parse_chain("3>4@0.7:3-6+loop", 0.5e-3);
        CHECK(ranged.delays == std::vector<DelayRange>{{6, 12}, {6, 12}});
        CHECK(parse_link("3>7@0.6:2-5", 0.5e-3).delay == DelayRange{4, 10});
        CHECK(parse_assembly("4,5@0.5:2", 0.5e-3).jitter_steps == 4);
    }
    SECTION("2.5 ms is 5 steps of 0.5 ms") {
        CHECK(parse_chain("0>1@0.5:2.5", 0.5e-3).delays == std::vector<DelayRange>{{5, 5}});
    }
    SECTION("0.3 ms is 3 steps of 0.1 ms despite rounding in binary") {
        CHECK(parse_link("0>1@0.5:0.3-0.7", 0.1e-3).delay == DelayRange{3, 7});
    }
    SECTION("10 ms is 5 steps of 2 ms") {
        CHECK(parse_link("0>1@0.5:10", 2e-3).delay == DelayRange{5, 5});
    }
}

TEST_CASE("network spec: a link", "[network-spec]") {
    const simulator::Link link = parse_link("3>7@0.6:4", 1e-3);
    CHECK(link.from == 3);
    CHECK(link.to == 7);
    CHECK(link.probability == 0.6);
    CHECK(link.delay == DelayRange{4, 4});
    CHECK(parse_link("9>2@0.35:2-5", 1e-3) == simulator::Link{9, 2, 0.35, DelayRange{2, 5}});
}

TEST_CASE("network spec: an assembly with and without participation", "[network-spec]") {
    const simulator::Assembly assembly = parse_assembly("4,5,6@0.5:2", 1e-3);
    CHECK(assembly.members == std::vector<NeuronId>{4, 5, 6});
    CHECK(assembly.activation_rate_hz == 0.5);
    CHECK(assembly.jitter_steps == 2);
    CHECK(assembly.participation == 1.0);

    const simulator::Assembly partial = parse_assembly("10,3@1.5:0:0.9", 1e-3);
    CHECK(partial.members == std::vector<NeuronId>{10, 3});
    CHECK(partial.activation_rate_hz == 1.5);
    CHECK(partial.jitter_steps == 0);
    CHECK(partial.participation == 0.9);

    CHECK(parse_assembly("8@2:1", 1e-3).members == std::vector<NeuronId>{8});
}

TEST_CASE("network spec: modulations", "[network-spec]") {
    SECTION("none") { CHECK(parse_modulation("none") == Modulation{}); }
    SECTION("sine") {
        const Modulation m = parse_modulation("sine:10:0.3");
        CHECK(m.kind == Modulation::Kind::Sine);
        CHECK(m.period_s == 10.0);
        CHECK(m.depth == 0.3);
    }
    SECTION("updown") {
        const Modulation m = parse_modulation("updown:8:0.25:3:0.5");
        CHECK(m.kind == Modulation::Kind::UpDown);
        CHECK(m.period_s == 8.0);
        CHECK(m.up_fraction == 0.25);
        CHECK(m.up_factor == 3.0);
        CHECK(m.down_factor == 0.5);
    }
}

TEST_CASE("network spec: bad chains throw UsageError quoting the spec", "[network-spec]") {
    const std::string spec = GENERATE(as<std::string>{},
                                      "0>1>2",             // no '@'
                                      "0>1>2@0.8",         // one field
                                      "0>1>2@0.8:5:7",     // three fields
                                      "0>1>2@strong:5",    // strength not a number
                                      "0>1>2@0.8:five",    // delay not a number
                                      "0>1>2@0.8:",        // empty delay
                                      "0>1>2@:5",          // empty strength
                                      "0>1@0.8:2.5",       // not whole 1 ms steps
                                      "0>1@0.8:2-3.5",     // range end not whole steps
                                      "0>1@0.8:2-3-4",     // three delay bounds
                                      "0>1@0.8:3-",        // open range
                                      "3@0.8:5",           // one neuron
                                      "3@0.8:5+loop",      // one neuron, looped
                                      "-1>2@0.8:5",        // negative neuron
                                      "x>2@0.8:5",         // neuron not a number
                                      "0>>2@0.8:5",        // empty neuron
                                      "0>1.5@0.8:5",       // fractional neuron
                                      "0>4294967296@0.8:5",// past uint32
                                      "0>1@0.8:5+lop");    // a typo in +loop
    CAPTURE(spec);
    REQUIRE_THROWS_AS(parse_chain(spec, 1e-3), UsageError);
    REQUIRE_THROWS_WITH(parse_chain(spec, 1e-3), contains("'" + spec + "'"));
}

TEST_CASE("network spec: messages say what is wrong", "[network-spec]") {
    REQUIRE_THROWS_WITH(parse_chain("0>1@0.8:2.5", 1e-3), contains("2.5 ms is not a whole number"));
    REQUIRE_THROWS_WITH(parse_chain("x>2@0.8:5", 1e-3), contains("'x' is not a neuron index"));
    REQUIRE_THROWS_WITH(parse_chain("-1>2@0.8:5", 1e-3), contains("'-1' is not a neuron index"));
    REQUIRE_THROWS_WITH(parse_chain("3@0.8:5", 1e-3), contains("at least two neurons"));
    REQUIRE_THROWS_WITH(parse_chain("0>1>2", 1e-3), contains("NEURONS@VALUES"));
    REQUIRE_THROWS_WITH(parse_chain("0>1@0.8:5:7", 1e-3), contains("wrong number of ':' fields"));
    REQUIRE_THROWS_WITH(parse_chain("0>1@abc:5", 1e-3), contains("'abc' is not a number"));
    REQUIRE_THROWS_WITH(parse_modulation("square:10:0.5"), contains("'square:10:0.5'"));
}

TEST_CASE("network spec: bad links throw UsageError quoting the spec", "[network-spec]") {
    const std::string spec = GENERATE(as<std::string>{},
                                      "3>7",          // no '@'
                                      "3>7@0.6",      // one field
                                      "3>7@0.6:4:1",  // three fields
                                      "3@0.6:4",      // one end
                                      "3>7>8@0.6:4",  // three ends
                                      "3>x@0.6:4",    // neuron not a number
                                      "-1>7@0.6:4",   // negative neuron
                                      "3>7@p:4",      // probability not a number
                                      "3>7@0.6:1.5"); // not whole steps
    CAPTURE(spec);
    REQUIRE_THROWS_AS(parse_link(spec, 1e-3), UsageError);
    REQUIRE_THROWS_WITH(parse_link(spec, 1e-3), contains("'" + spec + "'"));
}

TEST_CASE("network spec: bad assemblies throw UsageError quoting the spec", "[network-spec]") {
    const std::string spec = GENERATE(as<std::string>{},
                                      "4,5,6",              // no '@'
                                      "4,5,6@0.5",          // one field
                                      "4,5,6@0.5:2:0.9:1",  // four fields
                                      "4,x,6@0.5:2",        // neuron not a number
                                      "4,-1@0.5:2",         // negative neuron
                                      "4,,6@0.5:2",         // empty member
                                      "4,5@fast:2",         // rate not a number
                                      "4,5@0.5:2.5",        // jitter not whole steps
                                      "4,5@0.5:2:most");    // participation not a number
    CAPTURE(spec);
    REQUIRE_THROWS_AS(parse_assembly(spec, 1e-3), UsageError);
    REQUIRE_THROWS_WITH(parse_assembly(spec, 1e-3), contains("'" + spec + "'"));
}

TEST_CASE("network spec: bad modulations throw UsageError quoting the spec", "[network-spec]") {
    const std::string spec = GENERATE(as<std::string>{},
                                      "square:10:0.5",       // unknown kind
                                      "",                    // nothing
                                      "none:1",              // none takes no fields
                                      "sine:10",             // too few fields
                                      "sine:10:0.3:1",       // too many fields
                                      "sine:ten:0.3",        // period not a number
                                      "updown:10:0.5:2",     // too few fields
                                      "updown:10:0.5:2:x",   // factor not a number
                                      "SINE:10:0.3");        // kinds are lower case
    CAPTURE(spec);
    REQUIRE_THROWS_AS(parse_modulation(spec), UsageError);
    REQUIRE_THROWS_WITH(parse_modulation(spec), contains("'" + spec + "'"));
}

TEST_CASE("network spec: non-finite or overflowing delays and jitter are not whole steps", "[network-spec]") {
    // "nan" and "inf" parse as numbers; they (and 1e300 ms) are no whole number of steps
    // that fits a step count, so they must be refused here, not turned into garbage.
    const std::string ms = GENERATE(as<std::string>{}, "nan", "inf", "1e300");
    CAPTURE(ms);
    const std::string chain = "0>1@0.5:" + ms;
    const std::string link = "0>1@0.5:1-" + ms;
    const std::string assembly = "0,1@0.5:" + ms;
    REQUIRE_THROWS_AS(parse_chain(chain, 1e-3), UsageError);
    REQUIRE_THROWS_WITH(parse_chain(chain, 1e-3), contains("'" + chain + "'"));
    REQUIRE_THROWS_AS(parse_link(link, 1e-3), UsageError);
    REQUIRE_THROWS_AS(parse_assembly(assembly, 1e-3), UsageError);
}
