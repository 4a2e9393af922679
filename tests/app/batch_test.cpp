// Batch runs: the manifest's settings in order (defaults, shared, the recording's own, the
// command line), its paths from its own folder, and what it refuses; a batch writes each
// recording's results and a summary, goes on past a recording that fails, resumes without
// running what is done, and leaves no summary when cancelled.
#include "catch.hpp"

#include "app_test_helpers.hpp"
#include "test_paths.hpp"

#include "spikeminer/app/pipeline/batch.hpp"
#include "spikeminer/core/error.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

using namespace spikeminer;
namespace fs = std::filesystem;

namespace {

std::string write_manifest(const test::TempDir& dir, const std::string& text) {
    const std::string path = dir.file("manifest.json");
    std::ofstream(path) << text;
    return path;
}

// Two short simulations and a file that does not exist.
constexpr const char* kManifest = R"({
  "recordings": [{"simulate": {"scenario": "demo", "duration_s": 20}, "name": "a"},
                 {"simulate": {"scenario": "demo", "duration_s": 20, "seed": 2}, "name": "b", "cofiring": {"q": 0.05}},
                 "missing.h5"],
  "cofiring": {"window_s": 10, "step_s": 5},
  "mining": {"min_count": "100"},
  "backend": "cpu"})";

}  // namespace

TEST_CASE("batch manifest: settings in order, paths from the manifest's folder, names", "[pipeline][batch]") {
    const test::TempDir dir;
    const std::string path = write_manifest(dir, kManifest);
    pipeline::RunConfig base;
    base.q = 0.2;
    base.window_s = 30;
    const auto entries = pipeline::read_manifest(path, base, [](pipeline::RunConfig& c) { c.max_level = 3; });
    REQUIRE(entries.size() == 3);
    CHECK(entries[0].name == "a");
    CHECK(entries[0].config.simulate == "demo");
    CHECK(entries[0].config.window_s == 10);  // shared beats the base
    CHECK(entries[0].config.q == 0.2);        // the base where nothing else says
    CHECK(entries[1].config.q == 0.05);       // the recording's own beats shared
    CHECK(entries[1].config.seed == 2);
    CHECK(entries[2].name == "missing");      // the file's name without its extension
    CHECK(entries[2].config.input == (dir.path() / "missing.h5").string());
    for (const auto& e : entries) CHECK(e.config.max_level == 3);  // the command line's last

    const auto refused = [&](const std::string& text, const std::string& words) {
        INFO(text);
        CHECK_THROWS_WITH(pipeline::read_manifest(write_manifest(dir, text), {}), test::contains(words));
    };
    refused(R"({"recordings": ["x.h5", "y/x.h5"]})", "recording 2: the name 'x' is used twice");
    refused(R"({"recordings": [{"input": "x.h5", "cofiring": {"windw_s": 3}}]})", "recording 1: unknown key 'cofiring.windw_s'");
    refused(R"({"recordings": [{"simulate": {"scenario": "demo"}}]})", "recording 1: give a \"name\"");
    refused(R"({"recordings": [{"input": "x.h5", "name": "../up"}]})", "cannot name a results folder");
    refused(R"({"recordings": [{"input": "x.h5", "name": "batch-summary"}]})", "cannot name a results folder");
    refused(R"({"recordings": [{"input": "x.h5", "cofiring": {"q": 0}}]})", "recording 1: q must be above 0");
    refused(R"({"recordings": [], "input": "x.h5"})", "belong to each recording");
    refused(R"({"recordings": []})", "lists no recording");
    refused(R"({"recordings": "x.h5"})", "a manifest is a JSON object with \"recordings\"");
    refused(R"({"recordings": [3]})", "a recording is a path or an object");
    refused("[1, 2", "not a JSON manifest");
}

TEST_CASE("batch run: results per recording, a failure reported, a resumed run runs only what is left", "[pipeline][batch]") {
    const test::TempDir dir;
    const std::string manifest = write_manifest(dir, kManifest);
    const auto entries = pipeline::read_manifest(manifest, {});
    const std::string out = dir.file("out");
    std::vector<std::string> heard;
    const auto outcomes = pipeline::run_batch(entries, out, manifest, nullptr, 10, [&](const auto& o) { heard.push_back(o.name); });
    REQUIRE(outcomes.size() == 3);
    CHECK(heard == std::vector<std::string>{"a", "b", "missing"});
    CHECK(outcomes[0].status == pipeline::BatchOutcome::Status::Done);
    CHECK(outcomes[1].status == pipeline::BatchOutcome::Status::Done);
    CHECK(outcomes[2].status == pipeline::BatchOutcome::Status::Failed);
    CHECK_THAT(outcomes[2].error, test::contains("missing.h5"));
    CHECK(outcomes[0].neurons == 100);
    CHECK(outcomes[0].windows > 0);
    CHECK(fs::is_regular_file(fs::path(out) / "a" / "results.h5"));
    CHECK(fs::is_regular_file(fs::path(out) / "b" / "summary.json"));
    CHECK_FALSE(fs::exists(fs::path(out) / "missing"));
    std::ifstream summary(fs::path(out) / "batch-summary.json");
    const auto json = nlohmann::json::parse(summary);
    REQUIRE(json["recordings"].size() == 3);
    CHECK(json["recordings"][1]["status"] == "done");
    CHECK(json["recordings"][1]["spikes"] == outcomes[1].spikes);
    CHECK(json["recordings"][2]["status"] == "failed");
    std::ifstream csv(fs::path(out) / "batch-summary.csv");
    std::string header;
    std::getline(csv, header);
    CHECK(header == "name,input,status,seconds,neurons,spikes,windows,assemblies,error");

    // Again: a and b are not run (their folders stay as they were), the missing file fails again.
    const auto written = fs::last_write_time(fs::path(out) / "a" / "results.h5");
    const auto again = pipeline::run_batch(entries, out, manifest, nullptr);
    CHECK(again[0].status == pipeline::BatchOutcome::Status::DoneEarlier);
    CHECK(again[0].spikes == outcomes[0].spikes);
    CHECK(again[0].windows == outcomes[0].windows);
    CHECK(again[1].status == pipeline::BatchOutcome::Status::DoneEarlier);
    CHECK(again[2].status == pipeline::BatchOutcome::Status::Failed);
    CHECK(fs::last_write_time(fs::path(out) / "a" / "results.h5") == written);
}

TEST_CASE("batch run: Cancel stops it with no summary and no partial folder", "[pipeline][batch]") {
    const test::TempDir dir;
    const std::string manifest = write_manifest(dir, kManifest);
    const auto entries = pipeline::read_manifest(manifest, {});
    CancelToken cancel;
    cancel.request();
    Progress progress([](const std::string&, std::uint64_t, std::uint64_t) {}, &cancel);
    const std::string out = dir.file("out");
    CHECK_THROWS_AS(pipeline::run_batch(entries, out, manifest, &progress), Cancelled);
    CHECK_FALSE(fs::exists(fs::path(out) / "batch-summary.csv"));
    CHECK_FALSE(fs::exists(fs::path(out) / "a"));
    CHECK(fs::is_empty(out));
}
