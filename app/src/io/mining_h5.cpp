// Mining results in HDF5 (spikeminer format version 1):
//   /                       attributes: spikeminer_format = "mining-results",
//                           spikeminer_format_version = 1, ticks_per_second
//   /neurons/labels         string [N]  labels of the recording's neurons
//   /mining/episode_neurons uint32 [], episode_neurons_index int64 [E] (cumulative ends)
//   /mining/episode_gaps    int64 [gaps, 2] (lo, hi] in ticks, in episode order
//   /mining/counts          int64 [E]
//   /mining/levels          int64 [levels, 2] (candidates, frequent); level_thresholds
//                           int64 [levels]; level_seconds float64 [levels]
//   /mining/significance    float64 [E, 5] (p, p_adjusted, surrogate mean, surrogate sd,
//                           surrogates used; NaN for an untested episode), only when the
//                           episodes were tested against surrogates
//   /mining/chance          float64 [E, 6] (pairs, reversed pairs, baseline pairs, expected
//                           pairs, p, p_adjusted; NaN for an untested episode), only when
//                           the episodes were tested against chance
#include "hdf5_isolated.hpp"
#include "hdf5_read.hpp"
#include "hdf5_write.hpp"
#include "mining_h5.hpp"
#include "significance_fields.hpp"

#include "spikeminer/core/error.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace spikeminer::io::detail {
namespace {
constexpr std::int64_t kVersion = 1;
}

void write_mining_h5(const std::string& path, const std::string& name, const SpikeTrains& trains,
                     const mining::MiningResult& result) {
    H5Writer file(path, name);
    file.set_attribute("/", "spikeminer_format", std::string("mining-results"));
    file.set_attribute("/", "spikeminer_format_version", kVersion);
    file.set_attribute("/", "ticks_per_second", trains.time_base().ticks_per_second);
    write_mining_group(file, trains, result);
    file.close();
}

void write_mining_group(H5Writer& file, const SpikeTrains& trains, const mining::MiningResult& result) {
    file.create_group("/neurons");
    file.write_strings("/neurons/labels", trains.neuron_table().labels);
    file.create_group("/mining");
    std::vector<std::uint32_t> neurons;
    std::vector<std::int64_t> ends;
    std::vector<std::int64_t> gaps;
    std::vector<std::int64_t> counts;
    for (const auto& found : result.episodes) {
        neurons.insert(neurons.end(), found.episode.neurons.begin(), found.episode.neurons.end());
        ends.push_back(static_cast<std::int64_t>(neurons.size()));
        for (const auto& gap : found.episode.gaps) {
            gaps.push_back(gap.lo);
            gaps.push_back(gap.hi);
        }
        counts.push_back(static_cast<std::int64_t>(found.count));
    }
    file.write("/mining/episode_neurons", std::span<const std::uint32_t>(neurons));
    file.write("/mining/episode_neurons_index", std::span<const std::int64_t>(ends));
    file.write_pairs("/mining/episode_gaps", gaps);
    file.write("/mining/counts", std::span<const std::int64_t>(counts));
    if (std::any_of(result.episodes.begin(), result.episodes.end(), [](const auto& e) { return e.significance.has_value(); })) {
        std::vector<double> rows;
        for (const auto& found : result.episodes) {
            const auto row = significance_row(found.significance);
            rows.insert(rows.end(), row.begin(), row.end());
        }
        file.write_rows("/mining/significance", rows, result.episodes.size());
    }
    if (std::any_of(result.episodes.begin(), result.episodes.end(), [](const auto& e) { return e.chance.has_value(); })) {
        std::vector<double> rows;
        for (const auto& found : result.episodes) {
            const auto row = chance_row(found.chance);
            rows.insert(rows.end(), row.begin(), row.end());
        }
        file.write_rows("/mining/chance", rows, result.episodes.size());
    }
    std::vector<std::int64_t> levels;
    std::vector<std::int64_t> thresholds;
    std::vector<double> seconds;
    for (const auto& level : result.levels) {
        levels.push_back(static_cast<std::int64_t>(level.candidates));
        levels.push_back(static_cast<std::int64_t>(level.frequent));
        thresholds.push_back(static_cast<std::int64_t>(level.threshold));
        seconds.push_back(level.seconds);
    }
    file.write_pairs("/mining/levels", levels);
    file.write("/mining/level_thresholds", std::span<const std::int64_t>(thresholds));
    file.write("/mining/level_seconds", std::span<const double>(seconds));
}

void send_mining_group(const H5Reader& file, Writer& out) {
    const auto counts = file.read_integers("/mining/counts");
    std::vector<double> significance;
    if (file.exists("/mining/significance")) {
        std::size_t columns = 0;
        significance = file.read_rows("/mining/significance", counts.size(), columns);
        if (columns != 5) throw Error(file.where("/mining/significance") + " has " + std::to_string(columns) + " columns, expected 5");
    }
    std::vector<double> chance;
    if (file.exists("/mining/chance")) {
        std::size_t columns = 0;
        chance = file.read_rows("/mining/chance", counts.size(), columns);
        if (columns != 6) throw Error(file.where("/mining/chance") + " has " + std::to_string(columns) + " columns, expected 6");
    }
    out.values(file.read_integers("/mining/episode_neurons"));
    out.values(file.read_integers("/mining/episode_neurons_index"));
    out.values(file.read_integer_pairs("/mining/episode_gaps"));
    out.values(counts);
    out.values(file.read_integer_pairs("/mining/levels"));
    out.values(file.read_integers("/mining/level_thresholds"));
    out.values(significance);
    out.values(chance);
    out.values(file.read_numbers("/mining/level_seconds"));
}

mining::MiningResult receive_mining_group(Reader& in, const std::string& path, std::size_t num_neurons) {
    const auto neurons = in.values<std::int64_t>();
    const auto ends = in.values<std::int64_t>();
    const auto gaps = in.values<std::int64_t>();
    const auto counts = in.values<std::int64_t>();
    const auto levels = in.values<std::int64_t>();
    const auto thresholds = in.values<std::int64_t>();
    const auto significance = in.values<double>();
    const auto chance = in.values<double>();
    const auto seconds = in.values<double>();
    const auto where = [&](const char* dataset) { return dataset_where(path, dataset); };
    if (counts.size() != ends.size()) throw Error(where("/mining/counts") + " does not have one count per episode");
    mining::MiningResult result;
    std::int64_t start = 0;
    std::size_t gap = 0;
    for (std::size_t e = 0; e < ends.size(); ++e) {
        if (ends[e] <= start || static_cast<std::size_t>(ends[e]) > neurons.size()) {
            throw Error(where("/mining/episode_neurons_index") + " is not increasing or points past its data");
        }
        if (counts[e] < 0) throw Error(where("/mining/counts") + " element " + std::to_string(e) + " is negative");
        mining::FrequentEpisode found;
        for (auto i = static_cast<std::size_t>(start); i < static_cast<std::size_t>(ends[e]); ++i) {
            if (neurons[i] < 0 || static_cast<std::uint64_t>(neurons[i]) >= num_neurons) {
                throw Error(where("/mining/episode_neurons") + " element " + std::to_string(i) + " is " + std::to_string(neurons[i]) +
                            ", not one of the " + std::to_string(num_neurons) + " neurons");
            }
            found.episode.neurons.push_back(static_cast<NeuronId>(neurons[i]));
        }
        for (std::size_t k = 1; k < found.episode.neurons.size(); ++k, ++gap) {
            if (2 * gap + 1 >= gaps.size()) throw Error(where("/mining/episode_gaps") + " has too few rows");
            const mining::Interval interval{gaps[2 * gap], gaps[2 * gap + 1]};
            if (interval.lo < 0 || interval.hi <= interval.lo) {
                throw Error(where("/mining/episode_gaps") + " row " + std::to_string(gap) + " is not an interval (lo, hi] with 0 <= lo < hi");
            }
            found.episode.gaps.push_back(interval);
        }
        found.count = static_cast<std::uint64_t>(counts[e]);
        if (!significance.empty() && !std::isnan(significance[5 * e])) {
            const double* row = &significance[5 * e];
            if (!(row[4] >= 0 && row[4] <= 1e15)) {
                throw Error(where("/mining/significance") + " row " + std::to_string(e) + ": the surrogates used are not a count");
            }
            found.significance = mining::SurrogateSignificance{found.count, row[2], row[3], static_cast<std::size_t>(row[4]), 0, row[0], row[1], true};
        }
        if (!chance.empty()) found.chance = chance_from_row(&chance[6 * e], where("/mining/chance") + " row " + std::to_string(e));
        result.episodes.push_back(std::move(found));
        start = ends[e];
    }
    if (static_cast<std::size_t>(start) != neurons.size()) {
        throw Error(where("/mining/episode_neurons_index") + " leaves neurons that belong to no episode");
    }
    if (2 * gap != gaps.size()) throw Error(where("/mining/episode_gaps") + " has more rows than the episodes have gaps");
    if (thresholds.size() * 2 != levels.size() || seconds.size() != thresholds.size()) {
        throw Error(where("/mining/levels") + " does not match the level thresholds and times");
    }
    for (std::size_t l = 0; l < thresholds.size(); ++l) {
        if (levels[2 * l] < 0 || levels[2 * l + 1] < 0 || thresholds[l] < 0) {
            throw Error(where("/mining/levels") + " level " + std::to_string(l + 1) + " holds a negative count");
        }
        mining::LevelReport level;
        level.level = l + 1;
        level.candidates = static_cast<std::size_t>(levels[2 * l]);
        level.frequent = static_cast<std::size_t>(levels[2 * l + 1]);
        level.threshold = static_cast<std::uint64_t>(thresholds[l]);
        level.seconds = seconds[l];
        result.levels.push_back(level);
    }
    return result;
}

mining::MiningResult read_mining_h5(const std::string& path) {
    mining::MiningResult result;
    run_isolated(
        path,
        [&](Writer& out) {
            const H5Reader file(path);
            if (file.string_attribute("/", "spikeminer_format") != "mining-results") {
                throw Error(path + ": not a spikeminer mining-results file (root attribute spikeminer_format)");
            }
            const auto version = file.integer_attribute("/", "spikeminer_format_version");
            if (!version || *version != kVersion) throw Error(path + ": mining-results format version is not 1");
            send_mining_group(file, out);
        },
        // Its /neurons/labels is not read: the ids are bounded by what a NeuronId holds.
        [&](Reader& in) { result = receive_mining_group(in, path, std::size_t{std::numeric_limits<NeuronId>::max()} + 1); }, nullptr);
    return result;
}

}  // namespace spikeminer::io::detail
