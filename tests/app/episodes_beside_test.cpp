// The episodes mined on a thread beside the co-firing windows (where the GPU does both):
// the same episodes as mined in turn, the mining's failure passed on, and a Cancel (given
// to take()) stops the wait and the thread.
#include "catch.hpp"

#include "pipeline/episodes_beside.hpp"

#include "spikeminer/core/device_threads.hpp"
#include "spikeminer/core/error.hpp"

using namespace spikeminer;

namespace {

struct Demo {
    pipeline::RunConfig config;
    pipeline::Input input;

    Demo() {
        config.simulate = "demo";
        config.backend = "cpu";
        input = pipeline::load_input(config, nullptr);
    }
};

const Demo& demo() {
    static const Demo d;
    return d;
}

}  // namespace

TEST_CASE("episodes beside the windows: the episodes mined in turn", "[pipeline]") {
    const Demo& d = demo();
    const mining::MiningResult want = pipeline::mine_episodes(d.input.recording.trains, d.config, nullptr);
    REQUIRE(!want.episodes.empty());
    pipeline::EpisodesBeside beside(d.input.recording.trains, d.config, kNoDevice);
    double seconds = -1;
    const mining::MiningResult got = beside.take(nullptr, seconds);
    CHECK(seconds >= 0);
    REQUIRE(got.episodes.size() == want.episodes.size());
    for (std::size_t e = 0; e < want.episodes.size(); ++e) {
        CHECK(got.episodes[e].episode == want.episodes[e].episode);
        CHECK(got.episodes[e].count == want.episodes[e].count);
    }
    REQUIRE(got.levels.size() == want.levels.size());
    for (std::size_t l = 0; l < want.levels.size(); ++l) CHECK(got.levels[l].frequent == want.levels[l].frequent);
}

TEST_CASE("episodes beside the windows: what the mining throws comes out of take()", "[pipeline]") {
    const Demo& d = demo();
    pipeline::RunConfig config = d.config;
    config.mining_min_count = "many";
    pipeline::EpisodesBeside beside(d.input.recording.trains, config, kNoDevice);
    double seconds = 0;
    CHECK_THROWS_AS(beside.take(nullptr, seconds), UsageError);
}

TEST_CASE("episodes beside the windows: a Cancel while waiting stops the wait and the mining", "[pipeline]") {
    const Demo& d = demo();
    CancelToken cancel;
    Progress progress({}, &cancel);
    cancel.request();
    pipeline::EpisodesBeside beside(d.input.recording.trains, d.config, kNoDevice);
    double seconds = 0;
    CHECK_THROWS_AS(beside.take(&progress, seconds), Cancelled);
}
