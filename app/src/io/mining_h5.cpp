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
#include "hdf5_isolated.hpp"
#include "hdf5_read.hpp"
#include "hdf5_write.hpp"
#include "mining_h5.hpp"
#include "significance_fields.hpp"

#include "spikeminer/core/error.hpp"

#include <algorithm>
#include <cmath>

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

namespace {

// The tables of a mining-results file as stored, checked for shape only.
struct MiningTables {
    std::vector<std::int64_t> neurons, ends, gaps, counts, levels, thresholds;
    std::vector<double> significance, seconds;
};

// Reads the tables in the child process of run_isolated (hdf5_isolated.hpp).
void read_tables(const std::string& path, Writer& out) {
    const H5Reader file(path);
    if (file.string_attribute("/", "spikeminer_format") != "mining-results") {
        throw Error(path + ": not a spikeminer mining-results file (root attribute spikeminer_format)");
    }
    const auto version = file.integer_attribute("/", "spikeminer_format_version");
    if (!version || *version != kVersion) throw Error(path + ": mining-results format version is not 1");
    const auto counts = file.read_integers("/mining/counts");
    std::vector<double> significance;
    if (file.exists("/mining/significance")) {
        std::size_t columns = 0;
        significance = file.read_rows("/mining/significance", counts.size(), columns);
        if (columns != 5) throw Error(file.where("/mining/significance") + " has " + std::to_string(columns) + " columns, expected 5");
    }
    out.values(file.read_integers("/mining/episode_neurons"));
    out.values(file.read_integers("/mining/episode_neurons_index"));
    out.values(file.read_integer_pairs("/mining/episode_gaps"));
    out.values(counts);
    out.values(file.read_integer_pairs("/mining/levels"));
    out.values(file.read_integers("/mining/level_thresholds"));
    out.values(significance);
    out.values(file.read_numbers("/mining/level_seconds"));
}

}  // namespace

mining::MiningResult read_mining_h5(const std::string& path) {
    MiningTables t;
    run_isolated(
        path, [&](Writer& out) { read_tables(path, out); },
        [&](Reader& in) {
            t.neurons = in.values<std::int64_t>();
            t.ends = in.values<std::int64_t>();
            t.gaps = in.values<std::int64_t>();
            t.counts = in.values<std::int64_t>();
            t.levels = in.values<std::int64_t>();
            t.thresholds = in.values<std::int64_t>();
            t.significance = in.values<double>();
            t.seconds = in.values<double>();
        },
        nullptr);
    const auto where = [&](const char* dataset) { return dataset_where(path, dataset); };
    const auto& [neurons, ends, gaps, counts, levels, thresholds, significance, seconds] = t;
    if (counts.size() != ends.size()) throw Error(where("/mining/counts") + " does not have one count per episode");
    mining::MiningResult result;
    std::int64_t start = 0;
    std::size_t gap = 0;
    for (std::size_t e = 0; e < ends.size(); ++e) {
        if (ends[e] <= start || static_cast<std::size_t>(ends[e]) > neurons.size()) {
            throw Error(where("/mining/episode_neurons_index") + " is not increasing or points past its data");
        }
        mining::FrequentEpisode found;
        for (auto i = start; i < ends[e]; ++i) found.episode.neurons.push_back(static_cast<NeuronId>(neurons[static_cast<std::size_t>(i)]));
        for (std::size_t k = 1; k < found.episode.neurons.size(); ++k, ++gap) {
            if (2 * gap + 1 >= gaps.size()) throw Error(where("/mining/episode_gaps") + " has too few rows");
            found.episode.gaps.push_back(mining::Interval{gaps[2 * gap], gaps[2 * gap + 1]});
        }
        found.count = static_cast<std::uint64_t>(counts[e]);
        if (!significance.empty() && !std::isnan(significance[5 * e])) {
            const double* row = &significance[5 * e];
            if (!(row[4] >= 0 && row[4] <= 1e15)) {
                throw Error(where("/mining/significance") + " row " + std::to_string(e) + ": the surrogates used are not a count");
            }
            found.significance = mining::SurrogateSignificance{found.count, row[2], row[3], static_cast<std::size_t>(row[4]), 0, row[0], row[1], true};
        }
        result.episodes.push_back(std::move(found));
        start = ends[e];
    }
    if (thresholds.size() * 2 != levels.size() || seconds.size() != thresholds.size()) {
        throw Error(where("/mining/levels") + " does not match the level thresholds and times");
    }
    for (std::size_t l = 0; l < thresholds.size(); ++l) {
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

}  // namespace spikeminer::io::detail
