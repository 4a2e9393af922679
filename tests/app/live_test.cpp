// The live session's parts against the finished recording's: windows decided as their
// spikes come equal those counted over the whole recording (any arrival order within the
// lateness, any step, a coarser stride); spikes later than the lateness are left out and
// counted; activations told spike by spike are those the finished recording's activation
// times give; text sources read lines as they are completed, with the tick and units the
// writer declared, and name the line of a malformed spike; a whole session's final results
// equal the pipeline's on the same spikes.
#include "catch.hpp"

#include "app_test_helpers.hpp"
#include "test_paths.hpp"

#include "live/live_activations.hpp"
#include "live/live_recording.hpp"
#include "live/live_windows.hpp"

#include "spikeminer/app/live/live_session.hpp"
#include "spikeminer/app/pipeline/assembly_activity.hpp"
#include "spikeminer/app/pipeline/pipeline.hpp"
#include "spikeminer/app/pipeline/results.hpp"
#include "spikeminer/app/pipeline/time_scales.hpp"
#include "spikeminer/core/error.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

using namespace spikeminer;

namespace {

// A minute of the demo scenario (seed 3) and the settings run would resolve for it.
struct Minute {
    pipeline::RunConfig config;
    pipeline::Input input;
    Minute() {
        config.simulate = "demo";
        config.seed = 3;
        config.duration_s = 60;
        config.backend = "cpu";
        input = pipeline::load_input(config, nullptr);
    }
};

const Minute& minute() {
    static const Minute m;
    return m;
}

// The spikes in an arrival order: chunks of about `chunk` spikes, each shuffled within
// blocks of `jitter` ticks (so that no spike comes more than `jitter` after a later one).
std::vector<std::vector<Spike>> arrivals(const SpikeTrains& trains, std::size_t chunk, Tick jitter, std::mt19937& random) {
    std::vector<Spike> all;
    for (std::size_t i = 0; i < trains.num_spikes(); ++i) all.push_back({trains.times()[i], trains.neurons()[i]});
    if (jitter > 0) {
        auto begin = all.begin();
        while (begin != all.end()) {
            const Tick block = begin->time / jitter;
            auto end = std::find_if(begin, all.end(), [&](const Spike& s) { return s.time / jitter != block; });
            std::shuffle(begin, end, random);
            begin = end;
        }
    }
    std::vector<std::vector<Spike>> out;
    for (std::size_t i = 0; i < all.size(); i += chunk) {
        out.emplace_back(all.begin() + static_cast<std::ptrdiff_t>(i), all.begin() + static_cast<std::ptrdiff_t>(std::min(all.size(), i + chunk)));
    }
    return out;
}

// The message of the Error `work` throws (a failed check when it throws none).
template <typename Work>
std::string error_of(Work work) {
    try {
        work();
    } catch (const Error& e) {
        return e.what();
    }
    FAIL("no error");
    return {};
}

}  // namespace

TEST_CASE("live: windows decided as their spikes come equal the finished recording's", "[live]") {
    const SpikeTrains& trains = minute().input.recording.trains;
    const auto [window_s, step_s, intervals, stride, chunk] = GENERATE(std::make_tuple(10.0, 1.0, std::string(), 1, 3000),
                                                                        std::make_tuple(6.0, 2.0, std::string("0-3,3-8"), 1, 777),
                                                                        std::make_tuple(5.0, 5.0, std::string(), 1, 20000),
                                                                        std::make_tuple(8.0, 1.0, std::string(), 3, 1500));
    pipeline::RunConfig config = minute().config;
    config.window_s = window_s;
    config.step_s = step_s;
    config.intervals_ms = intervals;
    (void)pipeline::resolve_time_scales(config, trains);
    const mining::CofiringOptions options = pipeline::cofiring_options(config, trains);
    mining::CofiringWindows whole(trains, options);

    const Tick lateness = trains.time_base().from_seconds(0.05);
    std::mt19937 random(11);
    live::LiveRecording recording(lateness);
    live::LiveWindows windows(options, config);
    std::vector<std::size_t> decided;
    const auto parts = arrivals(trains, static_cast<std::size_t>(chunk), lateness, random);
    for (std::size_t p = 0; p < parts.size(); ++p) {
        std::vector<Spike> part = parts[p];
        recording.add(part);
        const Tick settled = recording.settle(p + 1 == parts.size());
        if (const auto batch = windows.take(recording, settled, static_cast<std::size_t>(stride), trains.neuron_table().labels, trains.time_base())) {
            for (const live::DecidedWindow& d : windows.count(*batch)) decided.push_back(d.window.index);
        }
    }
    CHECK(recording.late() == 0);
    CHECK(recording.size() == trains.num_spikes());
    REQUIRE(decided.size() >= (whole.size() - 1) / static_cast<std::size_t>(stride));
    std::size_t edges = 0;
    for (const std::size_t w : decided) {
        mining::CofiringWindow expected;
        whole.skip_to(w);
        REQUIRE(whole.next(expected));
        const std::optional<live::DecidedWindow> got = windows.at(w);
        REQUIRE(got);
        INFO("window " << w);
        CHECK(got->window.span == expected.span);
        CHECK(got->window.tests == expected.tests);
        CHECK(got->window.edges == expected.edges);
        edges += expected.edges.size();
    }
    CHECK(edges > 0);  // the windows hold co-firing to compare
}

TEST_CASE("live: earlier spikes within the lateness are put in order, later ones are left out and counted", "[live]") {
    live::LiveRecording recording(10);
    std::vector<Spike> first{{100, 0}, {95, 1}, {120, 2}};
    recording.add(first);
    CHECK(recording.settle(false) == 110);  // the latest, 120, less the lateness
    CHECK(recording.size() == 2);
    std::vector<Spike> second{{105, 3}, {112, 0}, {130, 1}};
    recording.add(second);  // 105 comes after 110 was settled: late
    CHECK(second.size() == 2);
    CHECK(recording.settle(false) == 120);
    CHECK(recording.late() == 1);
    CHECK(recording.settle(true) == 131);
    const SpikeTrains part = recording.part(0, 200, 95, {"a", "b", "c", "d"}, TimeBase{});
    CHECK(std::vector<Tick>(part.times().begin(), part.times().end()) == std::vector<Tick>{95, 100, 112, 120, 130});
    CHECK(recording.grid() == 1);  // steps 5, 12, 8, 10
    live::LiveRecording coarse(0);
    std::vector<Spike> on_grid{{30, 0}, {90, 1}, {120, 0}, {120, 1}};
    coarse.add(on_grid);
    coarse.settle(true);
    CHECK(coarse.grid() == 30);
}

TEST_CASE("live: activations told spike by spike are the finished recording's activation times", "[live]") {
    std::mt19937 random(5);
    const std::vector<NeuronId> members{0, 1, 2, 3, 4};
    const Tick within = 20;
    std::vector<std::pair<NeuronId, Tick>> spikes;
    std::vector<Tick> planted;
    for (Tick t = 1000; t < 200000; t += 1000 + static_cast<Tick>(random() % 500)) {
        // 3 to 5 members within `within` (a quorum), or 2 (none), then noise far from it.
        std::vector<NeuronId> group = members;
        std::shuffle(group.begin(), group.end(), random);
        const std::size_t firing = 2 + random() % 4;
        for (std::size_t k = 0; k < firing; ++k) spikes.emplace_back(group[k], t + (k == 0 ? 0 : static_cast<Tick>(random() % within)));
        if (firing >= 3) planted.push_back(t);
        spikes.emplace_back(static_cast<NeuronId>(random() % 5), t + 400);
        spikes.emplace_back(5, t + static_cast<Tick>(random() % 900));  // not a member
    }
    const SpikeTrains trains = test::make_trains({"0", "1", "2", "3", "4", "5"}, spikes);
    const std::vector<Tick> expected = pipeline::activation_times(trains, members, trains.span(), within);
    CHECK(expected == planted);

    live::LiveActivations watcher;
    watcher.watch({{7, members}}, within);
    std::vector<live::LiveActivation> told;
    for (std::size_t i = 0; i < trains.num_spikes(); i += 3) {  // a few spikes at a time
        std::vector<Spike> some;
        for (std::size_t j = i; j < std::min(trains.num_spikes(), i + 3); ++j) some.push_back({trains.times()[j], trains.neurons()[j]});
        watcher.feed(some, told);
    }
    std::vector<Tick> times;
    for (const live::LiveActivation& a : told) {
        CHECK(a.assembly == 7);
        CHECK(a.firing >= 3);
        CHECK(a.completed - a.time <= within);
        times.push_back(a.time);
    }
    CHECK(times == expected);
}

TEST_CASE("live sources: a followed file's lines as they are completed, with the writer's tick and units", "[live]") {
    const test::TempDir dir;
    const std::string path = dir.file("growing.csv");
    test::write_file(path, "# spikeminer spike trains; ticks_per_second=30000\n# neuron: 9\nunit,time_s\n7,0.5\n3,0.6");
    const auto source = live::open_source(path, std::nullopt);
    std::vector<Spike> got;
    CHECK(source->poll(std::chrono::milliseconds(50), got));
    REQUIRE(got.size() == 1);  // "3,0.6" waits for its end of line
    CHECK(source->time_base().ticks_per_second == 30000);
    CHECK(got[0].time == 15000);
    {
        std::ofstream more(path, std::ios::app);
        more << "5\n11,1.0\n";
    }
    CHECK(source->poll(std::chrono::milliseconds(50), got));
    REQUIRE(got.size() == 3);
    CHECK(got[1].time == 19500);  // 0.65 s
    CHECK(source->labels().labels() == std::vector<std::string>{"9", "7", "3", "11"});
    {
        std::ofstream bad(path, std::ios::app);
        bad << "12,soon\n";
    }
    const std::string message = error_of([&] { source->poll(std::chrono::milliseconds(50), got); });
    CHECK(message.find(path + " line 7") != std::string::npos);
    CHECK(message.find("soon") != std::string::npos);
    CHECK_THROWS_AS(live::open_source(dir.file("missing.csv"), std::nullopt), UsageError);
}

TEST_CASE("live sources: a followed file that shrinks is refused", "[live]") {
    const test::TempDir dir;
    const std::string path = dir.file("growing.csv");
    test::write_file(path, "unit,time_s\n1,0.1\n2,0.2\n");
    const auto source = live::open_source(path, std::nullopt);
    std::vector<Spike> got;
    source->poll(std::chrono::milliseconds(10), got);
    test::write_file(path, "unit,time_s\n");
    CHECK(error_of([&] { source->poll(std::chrono::milliseconds(10), got); }).find("shrank") != std::string::npos);
}

namespace {

// The minute's spikes as a source would bring them, a chunk a poll, in order within
// blocks of the lateness.
class ReplayedSource final : public live::LiveSource {
public:
    ReplayedSource(const SpikeTrains& trains, Tick jitter) : live::LiveSource("replayed minute", std::nullopt), trains_(trains) {
        std::mt19937 random(2);
        parts_ = arrivals(trains, 2500, jitter, random);
    }
    bool poll(std::chrono::milliseconds /*wait*/, std::vector<Spike>& out) override {
        if (next_ == parts_.size()) return false;
        for (const Spike& s : parts_[next_]) add(static_cast<std::uint32_t>(std::stoul(trains_.label(s.neuron))), trains_.time_base().to_seconds(s.time), out, "");
        return ++next_ < parts_.size();
    }

private:
    const SpikeTrains& trains_;
    std::vector<std::vector<Spike>> parts_;
    std::size_t next_ = 0;
};

}  // namespace

TEST_CASE("live: a session's final results are the pipeline's on the same spikes, its settings kept", "[live]") {
    const test::TempDir dir;
    const pipeline::Input& input = minute().input;
    ReplayedSource source(input.recording.trains, input.recording.trains.time_base().from_seconds(0.05));
    live::LiveOptions options;
    options.config.backend = "cpu";
    options.output = dir.file("live");
    options.lateness_s = 0.1;
    options.refresh_s = 20;
    const CancelToken never;
    std::vector<std::string> said;
    const live::LiveReport report = live::run_live(source, options, never, nullptr, [&](const std::string& line) { said.push_back(line); });
    CHECK(report.ended == "the source ended");
    CHECK(report.spikes == input.recording.trains.num_spikes());
    CHECK(report.late == 0);
    CHECK(report.assemblies > 0);
    // How many windows are decided live, and how many searches run, depends on how fast
    // the counting thread keeps up with this source (which does not wait): the rest is
    // decided at the end, with the same results.

    pipeline::RunConfig config;
    pipeline::apply_json(config, test::read_file(dir.file("live/settings.json")), "settings.json");
    config.input = "the minute";
    config.backend = "cpu";
    // A stream states no span: the recording is taken from its first spike to its last,
    // as a reader takes a file of spikes alone (the simulation states its length).
    pipeline::Input spikes_alone = input;
    const auto times = spikes_alone.recording.trains.times();
    spikes_alone.recording.trains.set_span({times.front(), times.back() + 1});
    const pipeline::PipelineResult expected = pipeline::run_pipeline(spikes_alone, config, nullptr);
    pipeline::write_results(dir.file("run"), spikes_alone, config, expected, nullptr);
    for (const char* file : {"assemblies.csv", "windows.csv", "episodes.csv"}) {
        INFO(file);
        CHECK(test::read_file(dir.file(std::string("live/final/") + file)) == test::read_file(dir.file(std::string("run/") + file)));
    }
    // The live tables: a row a decided window, the latest assemblies, the activations told.
    std::istringstream rows(test::read_file(dir.file("live/live-windows.csv")));
    std::string line;
    std::size_t count = 0;
    while (std::getline(rows, line)) ++count;
    CHECK(count == report.windows + 1);
    CHECK(std::filesystem::exists(dir.file("live/assemblies.csv")) == (report.refreshes > 0));
    CHECK(test::read_file(dir.file("live/status.json")).find("final results in final/") != std::string::npos);
}

TEST_CASE("live: settings it cannot run are refused before any spike", "[live]") {
    const test::TempDir dir;
    live::LiveOptions options;
    options.output = dir.file("out");
    options.config.edge_test = "surrogate";
    CHECK_THROWS_AS(live::validate(options), UsageError);
    options.config.edge_test = "analytic";
    options.lateness_s = -1;
    CHECK_THROWS_AS(live::validate(options), UsageError);
    options.lateness_s = 0.1;
    options.refresh_s = 0;
    CHECK_THROWS_AS(live::validate(options), UsageError);
    options.refresh_s = 60;
    std::filesystem::create_directories(dir.file("out"));
    test::write_file(dir.file("out/x"), "");
    CHECK_THROWS_AS(live::validate(options), UsageError);  // not empty
}
