// Stages 1 and 2: the input, read or simulated, and its episodes.
#include "spikeminer/app/pipeline/pipeline.hpp"

#include "spikeminer/app/io/spike_format.hpp"
#include "spikeminer/app/pipeline/time_scales.hpp"
#include "spikeminer/core/error.hpp"
#include "spikeminer/simulator/simulate.hpp"

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace spikeminer::pipeline {
namespace {

std::string crc_text(const char* kind, uLong crc) {
    char text[16];
    std::snprintf(text, sizeof text, "%08lx", static_cast<unsigned long>(crc));
    return std::string(kind) + text;
}

// "crc32:xxxxxxxx" of the recording's bytes (a sorter's folder: its files read, in order).
std::string checksum(const std::string& path, Progress* progress) {
    std::vector<char> block(std::size_t{1} << 20);
    uLong crc = crc32(0L, Z_NULL, 0);
    for (const std::string& part : io::recording_files(path)) {
        std::ifstream file(part, std::ios::binary);
        if (!file) throw Error(part + ": cannot be opened to take its checksum");
        while (file) {
            file.read(block.data(), static_cast<std::streamsize>(block.size()));
            crc = crc32(crc, reinterpret_cast<const Bytef*>(block.data()), static_cast<uInt>(file.gcount()));
            if (progress != nullptr) progress->check_cancelled();
        }
    }
    return crc_text("crc32:", crc);
}

// "crc32-spikes:xxxxxxxx" of a simulation's spikes (times, then neurons, in stream order):
// a run on it is opened again only on the same spikes, whatever the scenarios become.
std::string spikes_checksum(const SpikeTrains& trains) {
    uLong crc = crc32(0L, Z_NULL, 0);
    const auto add = [&crc](const auto values) {
        const auto* bytes = reinterpret_cast<const Bytef*>(values.data());
        std::size_t left = values.size_bytes();
        for (; left > 0;) {  // crc32 takes at most 4 GiB a call
            const auto step = static_cast<uInt>(std::min<std::size_t>(left, std::size_t{1} << 30));
            crc = crc32(crc, bytes, step);
            bytes += step;
            left -= step;
        }
    };
    add(trains.times());
    add(trains.neurons());
    return crc_text("crc32-spikes:", crc);
}

// "auto": twice what two neurons at the 90th percentile of the firing rates give by chance
// in the widest interval over the whole recording, at least 10. The mean rate would let
// through every pair of the fast tenth of the neurons (the members of chains and
// assemblies among them), and their joins would swamp the levels above. One threshold
// for all pairs stays a compromise: a pair's own chance count is the significance test's.
std::uint64_t automatic_count(const SpikeTrains& trains, const std::vector<mining::Interval>& intervals) {
    const double seconds = trains.time_base().to_seconds(trains.span().length());
    std::vector<double> rates;
    for (NeuronId n = 0; n < trains.num_neurons(); ++n) {
        if (trains.spike_count(n) > 0) rates.push_back(static_cast<double>(trains.spike_count(n)) / seconds);
    }
    if (rates.empty() || !(seconds > 0)) return 10;
    const auto p90 = rates.begin() + static_cast<std::ptrdiff_t>((rates.size() - 1) * 9 / 10);
    std::nth_element(rates.begin(), p90, rates.end());
    Tick widest = 0;
    for (const mining::Interval& i : intervals) widest = std::max(widest, i.hi - i.lo);
    const double chance = *p90 * *p90 * trains.time_base().to_seconds(widest) * seconds;
    return std::max<std::uint64_t>(10, static_cast<std::uint64_t>(std::ceil(2 * chance)));
}

std::vector<std::uint64_t> min_counts(const std::string& text, const SpikeTrains& trains, const std::vector<mining::Interval>& intervals,
                                      bool tested) {
    if (text == "auto") return {tested ? kAutoFloor : automatic_count(trains, intervals)};
    std::vector<std::uint64_t> counts;
    std::stringstream items(text);
    std::string item;
    while (std::getline(items, item, ',')) {
        try {
            std::size_t used = 0;
            const long long value = std::stoll(item, &used);
            if (used != item.size() || value < 1) throw std::invalid_argument(item);
            counts.push_back(static_cast<std::uint64_t>(value));
        } catch (const std::exception&) {
            throw UsageError("mining min count '" + text + "': give auto, a count of 1 or more, or one per level");
        }
    }
    if (counts.empty()) throw UsageError("mining min count: give auto, a count, or one per level");
    return counts;
}

}  // namespace

Input load_input(const RunConfig& config, Progress* progress) {
    Input input;
    if (!config.simulate.empty()) {
        simulator::NetworkConfig network = simulator::scenario(config.simulate);
        network.seed = config.seed;
        if (config.duration_s) simulator::set_duration(network, *config.duration_s);
        simulator::Simulation simulation = simulator::simulate(network, progress);
        simulation.truth.config_json = simulator::to_json(network);
        simulation.trains.set_metadata("simulator.scenario", config.simulate);
        input.source = "simulated scenario " + config.simulate + ", seed " + std::to_string(config.seed);
        input.checksum = spikes_checksum(simulation.trains);
        input.recording = {std::move(simulation.trains), std::move(simulation.truth)};
        return input;
    }
    input.recording = io::read_recording(config.input, io::read_options(config.format, config.tick, config.duplicates, progress, config.units));
    input.source = std::filesystem::path(config.input).filename().string();
    input.checksum = checksum(config.input, progress);
    return input;
}

Input input_from_trains(SpikeTrains trains, std::string source) {
    Input input;
    input.source = std::move(source);
    input.checksum = spikes_checksum(trains);
    input.recording.trains = std::move(trains);
    return input;
}

mining::MiningOptions mining_options(const SpikeTrains& trains, const RunConfig& given, Progress* progress) {
    RunConfig config = given;
    (void)resolve_time_scales(config, trains);
    mining::MiningOptions options;
    const TimeBase& tb = trains.time_base();
    options.intervals = mining::parse_intervals(config.mining_intervals_ms, tb, "ms");
    if (config.mining_q > 0) {
        const std::vector<mining::Interval> baseline = mining::parse_intervals(config.baseline_ms, tb, "ms");
        if (baseline.size() != 1) throw UsageError("baseline '" + config.baseline_ms + "': give one lag range lo-hi");
        options.chance = mining::ChanceTest{baseline.front(), mining::Correction::BenjaminiHochberg, config.mining_q};
    }
    options.min_counts = min_counts(config.mining_min_count, trains, options.intervals, options.chance.has_value());
    options.max_level = config.max_level;
    options.count.backend = parse_backend(config.backend);
    options.count.threads = config.threads;
    options.count.devices = config.devices;
    options.count.memory_budget = memory_budget_bytes(config);
    options.count.progress = progress;
    options.significance = significance_options(config, tb);
    return options;
}

mining::MiningResult mine_episodes(const SpikeTrains& trains, const RunConfig& config, Progress* progress) {
    return mining::mine(trains, mining_options(trains, config, progress));
}

}  // namespace spikeminer::pipeline
