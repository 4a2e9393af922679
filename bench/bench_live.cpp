// bench_live: `spikeminer live` on a simulated recording replayed over ZeroMQ at N times real
// time, in one process: a sender thread publishes the spikes as they fall due (binary
// messages of at most 1 ms of recording), the live session subscribes and publishes its
// results, and a listener times each message against the sending of the spike that let it
// be told. Prints a Markdown table (bench/RESULTS.md, "Live"):
//   - window: from the arrival of the first spike past the window's end plus the lateness
//     (the spike that lets it be decided) to its message received;
//   - activation: from the arrival of the spike that completed it to its message received;
// and whether the session's final results equal the pipeline's on the same spikes with
// the session's settings (assemblies.csv and windows.csv byte for byte).
#include "spikeminer/app/live/live_session.hpp"
#include "spikeminer/app/pipeline/pipeline.hpp"
#include "spikeminer/app/pipeline/results.hpp"
#include "spikeminer/core/device_query.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <zmq.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include <unistd.h>

using namespace spikeminer;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

struct Sent {
    Tick last = 0;  // the latest spike time in the message
    Clock::time_point at;
};

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

double percentile(std::vector<double> values, double p) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    return values[std::min(values.size() - 1, static_cast<std::size_t>(p * static_cast<double>(values.size())))];
}

// A ZeroMQ socket of the bench's own (sender and listener).
struct Socket {
    void* context = zmq_ctx_new();
    void* socket;
    explicit Socket(int type) : socket(zmq_socket(context, type)) {
        const int unlimited = 0;
        zmq_setsockopt(socket, ZMQ_SNDHWM, &unlimited, sizeof unlimited);
        zmq_setsockopt(socket, ZMQ_RCVHWM, &unlimited, sizeof unlimited);
    }
    ~Socket() {
        const int no_linger = 0;
        zmq_setsockopt(socket, ZMQ_LINGER, &no_linger, sizeof no_linger);
        zmq_close(socket);
        zmq_ctx_term(context);
    }
    std::string bind_any() {
        zmq_bind(socket, "tcp://127.0.0.1:*");
        char endpoint[256];
        std::size_t size = sizeof endpoint;
        zmq_getsockopt(socket, ZMQ_LAST_ENDPOINT, endpoint, &size);
        return endpoint;
    }
};

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"bench_live: spikeminer live on a recording replayed over ZeroMQ faster than real time"};
    std::string scenario = "large";
    double minutes = 2;
    double speed = 10;
    double lateness = 0.1;
    double refresh = 30;
    std::string backend = "auto";
    std::uint64_t seed = 1;
    app.add_option("--scenario", scenario, "the simulated scenario (default large: 1,000 neurons)");
    app.add_option("--minutes", minutes, "minutes of recording (default 2)");
    app.add_option("--speed", speed, "times real time (default 10)");
    app.add_option("--lateness", lateness, "the session's --lateness, s (default 0.1)");
    app.add_option("--refresh", refresh, "the session's --refresh, s (default 30)");
    app.add_option("--backend", backend, "auto, cpu or gpu");
    app.add_option("--seed", seed, "the simulation's seed (default 1)");
    CLI11_PARSE(app, argc, argv);

    pipeline::RunConfig simulated;
    simulated.simulate = scenario;
    simulated.seed = seed;
    simulated.duration_s = minutes * 60;
    const pipeline::Input input = pipeline::load_input(simulated, nullptr);
    const SpikeTrains& trains = input.recording.trains;
    const TimeBase& tb = trains.time_base();

    const fs::path dir = fs::temp_directory_path() / ("bench_live." + std::to_string(::getpid()));
    fs::create_directories(dir);
    Socket sender(ZMQ_PUB);
    const std::string source_endpoint = sender.bind_any();
    Socket listener(ZMQ_SUB);
    const std::string publish = "tcp://127.0.0.1:" + std::to_string(45000 + ::getpid() % 10000);
    zmq_setsockopt(listener.socket, ZMQ_SUBSCRIBE, "", 0);
    zmq_connect(listener.socket, publish.c_str());

    live::LiveOptions options;
    options.config.backend = backend;
    options.output = (dir / "live").string();
    options.publish = publish;
    options.lateness_s = lateness;
    options.refresh_s = refresh;
    const std::unique_ptr<live::LiveSource> source = live::open_source(source_endpoint, std::nullopt);
    const CancelToken never;
    live::LiveReport report;
    std::thread session([&] {
        report = live::run_live(*source, options, never, nullptr, [](const std::string& line) { std::fprintf(stderr, "live: %s\n", line.c_str()); });
    });

    // The listener: each message's arrival.
    std::mutex lock;
    std::vector<std::pair<double, Clock::time_point>> windows_told;      // end_s
    std::vector<std::pair<double, Clock::time_point>> activations_told;  // completed_s
    std::thread listening([&] {
        for (;;) {
            zmq_msg_t message;
            zmq_msg_init(&message);
            if (zmq_msg_recv(&message, listener.socket, 0) < 0) break;
            const auto at = Clock::now();
            const std::string text(static_cast<const char*>(zmq_msg_data(&message)), zmq_msg_size(&message));
            zmq_msg_close(&message);
            const auto space = text.find(' ');
            const std::string topic = text.substr(0, space);
            if (topic == "end") break;
            const nlohmann::json body = nlohmann::json::parse(text.substr(space + 1));
            const std::lock_guard<std::mutex> guard(lock);
            if (topic == "window") windows_told.emplace_back(body["end_s"].get<double>(), at);
            if (topic == "activation") activations_told.emplace_back(body["completed_s"].get<double>(), at);
        }
    });

    // The sender: binary messages of the spikes due, at most 1 ms of recording each.
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // subscribers connect first
    std::vector<Sent> sent;
    const auto times = trains.times();
    const auto neurons = trains.neurons();
    const Tick first = times.empty() ? 0 : times.front();
    const Tick batch = tb.from_seconds(0.001);
    const auto start = Clock::now();
    std::string message;
    for (std::size_t i = 0; i < times.size();) {
        const auto due = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(tb.to_seconds(times[i] - first) / speed));
        std::this_thread::sleep_until(due);
        const double reached_s = std::chrono::duration<double>(Clock::now() - start).count() * speed;
        const Tick reached = std::min(first + tb.from_seconds(reached_s), times[i] + batch);
        message.assign(live::kBinaryTag);
        std::size_t j = i;
        for (; j < times.size() && (j == i || times[j] <= reached); ++j) {
            const std::uint32_t unit = static_cast<std::uint32_t>(std::stoul(trains.label(neurons[j])));
            const double seconds = tb.to_seconds(times[j]);
            char record[12];
            std::memcpy(record, &unit, 4);
            std::memcpy(record + 4, &seconds, 8);
            message.append(record, 12);
        }
        zmq_send(sender.socket, message.data(), message.size(), 0);
        sent.push_back({times[j - 1], Clock::now()});
        i = j;
    }
    const double replay_s = std::chrono::duration<double>(Clock::now() - start).count();
    zmq_send(sender.socket, "end", 3, 0);
    session.join();
    listening.join();

    // Each message against the sending of the spike that let it be told.
    const auto sent_at = [&](Tick t) {
        const auto it = std::lower_bound(sent.begin(), sent.end(), t, [](const Sent& s, Tick v) { return s.last < v; });
        return it == sent.end() ? sent.back().at : it->at;
    };
    std::vector<double> window_ms;
    std::vector<std::size_t> slow;  // windows told more than 50 ms after their last spike
    std::vector<double> activation_ms;
    const Tick late = tb.from_seconds(lateness);
    const Tick last_spike = times.empty() ? 0 : times.back();
    for (const auto& [end_s, at] : windows_told) {
        const Tick needed = tb.from_seconds(end_s) + late;
        if (needed > last_spike) continue;  // decided at the stream's end
        window_ms.push_back(std::chrono::duration<double, std::milli>(at - sent_at(needed)).count());
        if (window_ms.back() > 50) slow.push_back(window_ms.size() - 1);
    }
    for (const auto& [completed_s, at] : activations_told) {
        activation_ms.push_back(std::chrono::duration<double, std::milli>(at - sent_at(tb.from_seconds(completed_s))).count());
    }

    // The final results against the pipeline's on the same spikes, with the session's settings.
    pipeline::RunConfig config;
    pipeline::apply_json(config, read_file(dir / "live" / "settings.json"), "settings.json");
    config.input = "bench";
    pipeline::Input spikes_alone = input;
    if (!times.empty()) spikes_alone.recording.trains.set_span({times.front(), times.back() + 1});
    const pipeline::PipelineResult expected = pipeline::run_pipeline(spikes_alone, config, nullptr);
    pipeline::write_results((dir / "run").string(), spikes_alone, config, expected, nullptr);
    bool same = true;
    for (const char* file : {"assemblies.csv", "windows.csv", "episodes.csv"}) {
        same = same && read_file(dir / "live" / "final" / file) == read_file(dir / "run" / file);
    }

    const DeviceReport devices = query_devices();
    std::printf("| scenario | minutes | neurons | spikes/s | speed | replay s | windows told (behind: at the end) | window ms median / p95 / max | "
                "activations | activation ms median / p95 / max | searches | assemblies | final = run | device |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---|---|---:|---|---:|---:|---|---|\n");
    std::printf("| %s | %g | %zu | %.0f | %g | %.1f | %zu (%zu) | %.1f / %.1f / %.1f | %zu | %.1f / %.1f / %.1f | %zu | %zu | %s | %s |\n",
                scenario.c_str(), minutes, trains.num_neurons(), static_cast<double>(trains.num_spikes()) / (minutes * 60), speed, replay_s,
                windows_told.size(), report.skipped, percentile(window_ms, 0.5), percentile(window_ms, 0.95), percentile(window_ms, 1.0),
                activations_told.size(), percentile(activation_ms, 0.5), percentile(activation_ms, 0.95), percentile(activation_ms, 1.0),
                report.refreshes, report.assemblies, same ? "yes" : "NO", devices.devices.empty() ? "none" : devices.devices.front().name.c_str());
    std::string slow_text;
    for (std::size_t i = 0; i < std::min<std::size_t>(slow.size(), 12); ++i) {
        char cell[48];
        std::snprintf(cell, sizeof cell, "%s%zu (%.0f ms)", i == 0 ? "" : ", ", slow[i], window_ms[slow[i]]);
        slow_text += cell;
    }
    std::printf("\nwindows told more than 50 ms after their last spike: %zu of %zu%s%s\n", slow.size(), window_ms.size(),
                slow.empty() ? "" : ": ", slow_text.c_str());
    std::error_code ignored;
    fs::remove_all(dir, ignored);
    return same ? 0 : 1;
}
