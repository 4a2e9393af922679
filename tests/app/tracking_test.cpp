// Assemblies through time on hand-made sequences of cliques: each kind of event, the
// same id through a gap, fragments of one group kept together.
#include "catch.hpp"

#include "spikeminer/app/pipeline/tracking.hpp"

#include <algorithm>

using namespace spikeminer;
using pipeline::AssemblyEvent;
using pipeline::AssemblyTracker;
using pipeline::EventKind;

namespace {

using Cliques = std::vector<std::vector<NeuronId>>;

AssemblyTracker tracked(const std::vector<Cliques>& windows, pipeline::TrackingOptions options = {}) {
    AssemblyTracker tracker(options);
    for (std::size_t w = 0; w < windows.size(); ++w) tracker.add_window(w, windows[w]);
    tracker.finish();
    return tracker;
}

}  // namespace

TEST_CASE("tracking: Jaccard similarity of sorted member lists", "[pipeline][tracking]") {
    CHECK(pipeline::jaccard({1, 2, 3}, {2, 3, 4}) == Approx(0.5));
    CHECK(pipeline::jaccard({1, 2}, {1, 2}) == 1.0);
    CHECK(pipeline::jaccard({1, 2}, {3}) == 0.0);
    CHECK(pipeline::jaccard({}, {}) == 0.0);
}

TEST_CASE("tracking: an assembly appears, grows, shrinks and ends, with one id", "[pipeline][tracking]") {
    const AssemblyTracker t = tracked({{{1, 2, 3, 4}}, {{1, 2, 3, 4, 5}}, {{1, 2, 3, 4}}, {}, {}});
    REQUIRE(t.assemblies().size() == 1);
    CHECK(t.assemblies()[0].windows == std::vector<std::size_t>{0, 1, 2});
    CHECK(t.events() == std::vector<AssemblyEvent>{{0, EventKind::Appears, 0, 0}, {1, EventKind::Grows, 0, 0},
                                                   {2, EventKind::Shrinks, 0, 0}, {2, EventKind::Ends, 0, 0}});
    CHECK(t.assemblies()[0].core() == std::vector<NeuronId>{1, 2, 3, 4});
}

TEST_CASE("tracking: an assembly unseen for no longer than the gap goes on", "[pipeline][tracking]") {
    const AssemblyTracker one = tracked({{{1, 2, 3}}, {}, {{1, 2, 3}}}, {0.5, 1});
    REQUIRE(one.assemblies().size() == 1);
    CHECK(one.assemblies()[0].windows == std::vector<std::size_t>{0, 2});
    const AssemblyTracker none = tracked({{{1, 2, 3}}, {}, {{1, 2, 3}}}, {0.5, 0});
    REQUIRE(none.assemblies().size() == 2);
    CHECK(none.events().front() == AssemblyEvent{0, EventKind::Appears, 0, 0});
    CHECK(none.events()[1] == AssemblyEvent{0, EventKind::Ends, 0, 0});
}

TEST_CASE("tracking: a clique with neurons new to an assembly it matches splits from it", "[pipeline][tracking]") {
    // {1..6} goes on; {3..8, 20} also matches it (6 of 9) but brings 7, 8 and 20.
    const AssemblyTracker t = tracked({{{1, 2, 3, 4, 5, 6, 7, 8}}, {{1, 2, 3, 4, 5, 6}, {3, 4, 5, 6, 7, 8, 20}}});
    REQUIRE(t.assemblies().size() == 2);
    CHECK(t.last_ids() == std::vector<std::uint32_t>{0, 1});
    CHECK(std::count(t.events().begin(), t.events().end(), AssemblyEvent{1, EventKind::Splits, 1, 0}) == 1);
    CHECK(t.assemblies()[1].members[0] == std::vector<NeuronId>{3, 4, 5, 6, 7, 8, 20});
    CHECK(std::count(t.events().begin(), t.events().end(), AssemblyEvent{1, EventKind::Shrinks, 0, 0}) == 1);
}

TEST_CASE("tracking: one clique that matches two assemblies merges them", "[pipeline][tracking]") {
    const AssemblyTracker t = tracked({{{1, 2, 3, 4}, {3, 4, 5, 6}}, {{1, 2, 3, 4, 5, 6}}});
    REQUIRE(t.assemblies().size() == 2);
    CHECK(t.last_ids() == std::vector<std::uint32_t>{0});  // the older goes on
    CHECK(std::count(t.events().begin(), t.events().end(), AssemblyEvent{0, EventKind::Merges, 1, 0}) == 1);
    CHECK(t.assemblies()[1].windows == std::vector<std::size_t>{0});
}

TEST_CASE("tracking: cliques cut from one group by a missing edge stay one assembly", "[pipeline][tracking]") {
    // Without the edge 5-6 in window 1 the group {1..6} is two maximal cliques.
    const AssemblyTracker t = tracked({{{1, 2, 3, 4, 5, 6}}, {{1, 2, 3, 4, 5}, {1, 2, 3, 4, 6}}, {{1, 2, 3, 4, 5, 6}}});
    REQUIRE(t.assemblies().size() == 1);
    CHECK(t.assemblies()[0].members[1] == std::vector<NeuronId>{1, 2, 3, 4, 5, 6});
    CHECK(t.events() == std::vector<AssemblyEvent>{{0, EventKind::Appears, 0, 0}, {2, EventKind::Ends, 0, 0}});
}

TEST_CASE("tracking: dissimilar groups are separate assemblies", "[pipeline][tracking]") {
    const AssemblyTracker t = tracked({{{1, 2, 3}}, {{4, 5, 6}}});
    REQUIRE(t.assemblies().size() == 2);
    CHECK(t.events() == std::vector<AssemblyEvent>{{0, EventKind::Appears, 0, 0}, {0, EventKind::Ends, 0, 0}, {1, EventKind::Appears, 1, 0},
                                                   {1, EventKind::Ends, 1, 0}});
}
