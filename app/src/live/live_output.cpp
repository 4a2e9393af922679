// See live_output.hpp.
#include "live_output.hpp"

#include "../io/json_text.hpp"

#include "spikeminer/app/io/atomic_output.hpp"
#include "spikeminer/app/pipeline/results.hpp"
#include "spikeminer/core/error.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <unistd.h>

namespace spikeminer::live {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

double seconds(Tick t, const TimeBase& tb) { return tb.to_seconds(t); }

json label_list(const std::vector<NeuronId>& neurons, const std::vector<std::string>& labels) {
    json out = json::array();
    for (const NeuronId n : neurons) out.push_back(labels[n]);
    return out;
}

std::string joined(const std::vector<NeuronId>& neurons, const std::vector<std::string>& labels) {
    std::string out;
    for (const NeuronId n : neurons) out += (out.empty() ? "" : " ") + labels[n];
    return out;
}

int open_table(const std::string& path, const char* header) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0666);
    if (fd < 0) throw Error(path + ": cannot be written: " + std::strerror(errno));
    const std::string line = std::string(header) + "\n";
    if (::write(fd, line.data(), line.size()) != static_cast<ssize_t>(line.size())) {
        ::close(fd);
        throw Error(path + ": cannot be written: " + std::strerror(errno));
    }
    return fd;
}

}  // namespace

LiveOutput::LiveOutput(const std::string& dir, const std::string& publish) : dir_(dir) {
    if (!publish.empty()) {  // first: a port in use leaves no folder behind
        pub_ = std::make_unique<ZmqSocket>(ZmqSocket::Kind::Pub);
        pub_->bind(publish);
    }
    std::error_code error;
    fs::create_directories(dir, error);
    if (error) throw Error(dir + ": cannot make the folder: " + error.message());
    windows_ = open_table((fs::path(dir) / "live-windows.csv").string(), "window,start_s,end_s,edges,cliques,wait_ms");
    try {
        activations_ = open_table((fs::path(dir) / "activations.csv").string(), "assembly,time_s,completed_s,firing,members,wait_ms");
    } catch (const Error&) {
        ::close(windows_);
        throw;
    }
}

LiveOutput::~LiveOutput() {
    ::close(windows_);
    ::close(activations_);
}

void LiveOutput::append(int fd, const std::string& rows, const char* name) const {
    if (rows.empty()) return;
    const ssize_t written = ::write(fd, rows.data(), rows.size());
    if (written != static_cast<ssize_t>(rows.size())) {
        throw Error((fs::path(dir_) / name).string() + ": cannot be written: " +
                    (written < 0 ? std::strerror(errno) : "the disk took only part of a write (full?)"));
    }
}

void LiveOutput::publish(const std::string& topic, const std::string& json_text) {
    if (!pub_) return;
    const std::lock_guard<std::mutex> guard(publishing_);
    pub_->send(topic + " " + json_text);
}

void LiveOutput::settings(const std::string& json_text) {
    io::write_atomically((fs::path(dir_) / "settings.json").string(), [&](std::ostream& out) { out << json_text << '\n'; });
}

void LiveOutput::windows(const std::vector<DecidedWindow>& decided, const std::vector<std::string>& labels, const TimeBase& time_base,
                         double wait_ms) {
    std::string rows;
    for (const DecidedWindow& d : decided) {
        const std::size_t w = d.window.index;
        const std::size_t edges = mining::joined_pairs(d.window).size();
        std::string cliques;
        json clique_list = json::array();
        for (const auto& c : d.cliques) {
            cliques += (cliques.empty() ? "" : "|") + joined(c, labels);
            clique_list.push_back(label_list(c, labels));
        }
        char line[160];
        std::snprintf(line, sizeof line, "%zu,%.6f,%.6f,%zu,", w, seconds(d.window.span.start, time_base), seconds(d.window.span.end, time_base),
                      edges);
        char wait[32];
        std::snprintf(wait, sizeof wait, ",%.3f\n", wait_ms);
        rows += line + cliques + wait;
        publish("window", io::json_text(json{{"index", w},
                                              {"start_s", seconds(d.window.span.start, time_base)},
                                              {"end_s", seconds(d.window.span.end, time_base)},
                                              {"edges", edges},
                                              {"cliques", clique_list},
                                              {"wait_ms", wait_ms}},
                                         -1));
    }
    append(windows_, rows, "live-windows.csv");
}

void LiveOutput::activations(const std::vector<LiveActivation>& found, const std::vector<std::vector<std::string>>& members,
                             const TimeBase& time_base, double wait_ms) {
    std::string rows;
    for (const LiveActivation& a : found) {
        std::string names;
        for (const std::string& m : members[a.assembly]) names += (names.empty() ? "" : " ") + m;
        char line[200];
        std::snprintf(line, sizeof line, "%u,%.6f,%.6f,%u,", a.assembly, seconds(a.time, time_base), seconds(a.completed, time_base), a.firing);
        char wait[32];
        std::snprintf(wait, sizeof wait, ",%.3f\n", wait_ms);
        rows += line + names + wait;
        publish("activation", io::json_text(json{{"assembly", a.assembly},
                                                  {"members", members[a.assembly]},
                                                  {"time_s", seconds(a.time, time_base)},
                                                  {"completed_s", seconds(a.completed, time_base)},
                                                  {"firing", a.firing},
                                                  {"wait_ms", wait_ms}},
                                             -1));
    }
    append(activations_, rows, "activations.csv");
}

void LiveOutput::assemblies(const SpikeTrains& trains, const pipeline::PipelineResult& result) {
    pipeline::write_result_tables(dir_, trains, result);
    const TimeBase& tb = trains.time_base();
    json list = json::array();
    for (const pipeline::Assembly& a : result.assemblies) {
        list.push_back(json{{"id", a.track.id},
                            {"members", label_list(a.members, trains.neuron_table().labels)},
                            {"start_s", seconds(a.span.start, tb)},
                            {"end_s", seconds(a.span.end, tb)},
                            {"activations", a.activations.size()}});
    }
    publish("assemblies", io::json_text(json{{"until_s", seconds(trains.span().end, tb)}, {"assemblies", list}}, -1));
}

void LiveOutput::status(const LiveStatus& s) {
    const json status{{"source", s.source},         {"state", s.state},
                      {"spikes", s.spikes},         {"units", s.units},
                      {"late_spikes", s.late},      {"received_s", s.received_s},
                      {"decided_s", s.decided_s},   {"windows", s.windows},
                      {"windows_skipped", s.skipped}, {"stride", s.stride},
                      {"activations", s.activations}, {"refreshes", s.refreshes},
                      {"refreshed_s", s.refreshed_s}, {"notes", s.notes}};
    io::write_atomically((fs::path(dir_) / "status.json").string(), [&](std::ostream& out) { out << io::json_text(status, 1) << '\n'; });
}

void LiveOutput::end(const std::string& reason) { publish("end", io::json_text(json{{"reason", reason}}, -1)); }

}  // namespace spikeminer::live
