// `spikeminer info FILE`: what a recording holds (or a run's results.h5, read back whole);
// `--devices`: what GPUs can be used.
#include "commands.hpp"
#include "../io/json_text.hpp"
#include "read_arguments.hpp"
#include "terminal_progress.hpp"

#include "spikeminer/app/io/spike_format.hpp"
#include "spikeminer/app/pipeline/results_file.hpp"
#include "spikeminer/app/recording_summary.hpp"
#include "spikeminer/core/device_query.hpp"
#include "spikeminer/core/error.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <memory>

namespace spikeminer::cli {
namespace {

struct InfoArguments {
    std::string file;
    ReadArguments read;
    bool json = false;
    bool per_neuron = false;
    bool devices = false;
    bool self_test = false;
};

nlohmann::json devices_json(const DeviceReport& report, const std::vector<DeviceSelfTest>& tests) {
    nlohmann::json out{{"cuda_compiled", report.cuda_compiled}, {"status", report.status}, {"devices", nlohmann::json::array()}};
    for (std::size_t i = 0; i < report.devices.size(); ++i) {
        const DeviceInfo& d = report.devices[i];
        nlohmann::json device{{"index", d.index},
                              {"name", d.name},
                              {"total_memory_bytes", d.total_memory},
                              {"free_memory_bytes", d.free_memory},
                              {"multiprocessors", d.multiprocessors},
                              {"compute_capability", std::to_string(d.compute_major) + "." + std::to_string(d.compute_minor)}};
        if (i < tests.size()) device["self_test"] = {{"passed", tests[i].passed}, {"detail", tests[i].detail}};
        out["devices"].push_back(device);
    }
    return out;
}

void print_devices(const DeviceReport& report, const std::vector<DeviceSelfTest>& tests) {
    if (report.devices.empty()) {
        std::printf("CUDA devices: none (%s)\n", report.status.c_str());
        return;
    }
    std::printf("CUDA devices: %zu\n", report.devices.size());
    for (std::size_t i = 0; i < report.devices.size(); ++i) {
        const DeviceInfo& d = report.devices[i];
        std::printf("  [%d] %s, compute %d.%d, %d multiprocessors, %.1f GiB (%.1f GiB free)\n", d.index, d.name.c_str(),
                    d.compute_major, d.compute_minor, d.multiprocessors,
                    static_cast<double>(d.total_memory) / (1 << 30), static_cast<double>(d.free_memory) / (1 << 30));
        if (i < tests.size()) {
            std::printf("      self-test %s: %s\n", tests[i].passed ? "passed" : "FAILED", tests[i].detail.c_str());
        }
    }
}

nlohmann::json recording_json(const std::string& file, const SpikeTrains& trains, const RecordingSummary& s,
                              bool per_neuron) {
    nlohmann::json out{{"file", file},
                       {"format", trains.metadata().at("source.format")},
                       {"tick", s.tick},
                       {"ticks_per_second", s.ticks_per_second},
                       {"neurons", s.neurons},
                       {"active_neurons", s.active_neurons},
                       {"spikes", s.spikes},
                       {"start_s", s.start_s},
                       {"end_s", s.end_s},
                       {"duration_s", s.duration_s},
                       {"mean_rate_hz", s.mean_rate_hz},
                       {"min_rate_hz", s.min_rate_hz},
                       {"max_rate_hz", s.max_rate_hz},
                       {"duplicates", s.duplicates},
                       {"sorted_on_load", s.sorted_on_load},
                       {"metadata", trains.metadata()}};
    if (per_neuron) {
        out["per_neuron"] = nlohmann::json::array();
        for (const auto& n : s.per_neuron) {
            out["per_neuron"].push_back({{"label", n.label}, {"spikes", n.spikes}, {"rate_hz", n.rate_hz}});
        }
    }
    return out;
}

void print_recording(const std::string& file, const SpikeTrains& trains, const RecordingSummary& s, bool per_neuron) {
    std::printf("file        %s\n", file.c_str());
    std::printf("format      %s\n", trains.metadata().at("source.format").c_str());
    std::printf("tick        %s\n", s.tick.c_str());
    std::printf("neurons     %zu (%zu with spikes)\n", s.neurons, s.active_neurons);
    if (s.neurons > 0) {
        std::printf("labels      %s .. %s\n", trains.label(0).c_str(), trains.label(static_cast<NeuronId>(s.neurons - 1)).c_str());
    }
    std::printf("spikes      %zu\n", s.spikes);
    std::printf("span        %.6g s .. %.6g s (%.6g s)\n", s.start_s, s.end_s, s.duration_s);
    std::printf("rate        %.4g Hz mean per neuron (min %.4g, max %.4g)\n", s.mean_rate_hz, s.min_rate_hz, s.max_rate_hz);
    std::printf("duplicates  %zu (same neuron, same tick)\n", s.duplicates);
    if (s.sorted_on_load) std::printf("note        the file was not in time order; spikes were sorted on load\n");
    for (const auto& [key, value] : trains.metadata()) {
        if (!key.starts_with("source.") && !value.empty()) std::printf("%-11s %s\n", key.c_str(), value.c_str());
    }
    if (per_neuron) {
        std::printf("\n%-12s %10s %10s\n", "neuron", "spikes", "rate (Hz)");
        for (const auto& n : s.per_neuron) std::printf("%-12s %10zu %10.4g\n", n.label.c_str(), n.spikes, n.rate_hz);
    }
}

// A pipeline run's results.h5, read back whole (read_results checks every table).
nlohmann::json results_json(const std::string& file, const pipeline::SavedRun& saved) {
    const pipeline::PipelineResult& r = saved.result;
    return {{"file", file},
            {"format", "pipeline-results"},
            {"input", saved.input},
            {"input_checksum", saved.input_checksum},
            {"created_by", saved.created_by},
            {"neurons", saved.labels.size()},
            {"episodes", r.episodes.episodes.size()},
            {"windows", r.windows.size()},
            {"edge_changes", r.changes.size()},
            {"assemblies", r.assemblies.size()},
            {"events", r.events.size()}};
}

void run_info(const InfoArguments& args) {
    if (args.file.empty() && !args.devices) throw UsageError("info: give a FILE, or --devices");
    nlohmann::json json_out;
    if (args.devices) {
        const DeviceReport report = query_devices();
        std::vector<DeviceSelfTest> tests;
        if (args.self_test) {
            for (const DeviceInfo& d : report.devices) tests.push_back(run_device_self_test(d.index, 1 << 24));
        }
        if (args.json) {
            json_out["devices"] = devices_json(report, tests);
        } else {
            print_devices(report, tests);
        }
        for (const auto& test : tests) {
            if (!test.passed) throw Error("device self-test failed: " + test.detail);
        }
    }
    if (!args.file.empty() && io::spikeminer_file_kind(args.file) == "pipeline-results") {
        const nlohmann::json saved = results_json(args.file, pipeline::read_results(args.file));
        if (args.json) {
            json_out["results"] = saved;
        } else {
            for (const auto& [key, value] : saved.items()) {
                std::printf("%-15s %s\n", key.c_str(), value.is_string() ? value.get<std::string>().c_str() : value.dump().c_str());
            }
        }
    } else if (!args.file.empty()) {
        TerminalProgress terminal;
        const SpikeTrains trains = io::read_spikes(args.file, args.read.options(&terminal.progress()));
        const RecordingSummary summary = summarize(trains);
        if (args.json) {
            json_out["recording"] = recording_json(args.file, trains, summary, args.per_neuron);
        } else {
            if (args.devices) std::printf("\n");
            print_recording(args.file, trains, summary, args.per_neuron);
        }
    }
    if (args.json) std::cout << io::json_text(json_out, 2) << "\n";
}

}  // namespace

void add_info_command(CLI::App& app) {
    auto args = std::make_shared<InfoArguments>();
    CLI::App* command = app.add_subcommand("info", "Show what a spike file holds (neurons, spikes, span, rates), "
                                                   "and with --devices the CUDA devices this build can use");
    command->add_option("FILE", args->file, "spike file: CSV, text, NWB, spikeminer HDF5 or waverepo HDF5; or the results.h5 of a run");
    args->read.add_to(*command);
    command->add_flag("--json", args->json, "print JSON instead of text");
    command->add_flag("--neurons", args->per_neuron, "also list every neuron with its spike count and rate");
    CLI::Option* devices = command->add_flag("--devices", args->devices, "list the CUDA devices (says none when there are none)");
    command->add_flag("--self-test", args->self_test, "with --devices: run a small CUB kernel on each device and check it")->needs(devices);
    command->callback([args] { run_info(*args); });
}

}  // namespace spikeminer::cli
