#include "spikeminer/mining/episode.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/in_quotes.hpp"

#include <cstdint>
#include <string_view>

namespace spikeminer::mining {
namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    return s;
}

// The interval (lo, hi], written as `written`; a bound that is no number is refused naming
// the interval as written.
Interval make_interval(std::string_view lo, std::string_view hi, std::string_view written, const TimeBase& time_base,
                       const std::string& unit, const std::string& context) {
    Interval interval;
    try {
        interval = {parse_ticks(std::string(trim(lo)), unit, time_base), parse_ticks(std::string(trim(hi)), unit, time_base)};
    } catch (const UsageError& e) {
        throw UsageError(context + ": " + in_quotes(written) + " is not lo-hi with 0 <= lo < hi: " + e.what());
    }
    if (interval.lo >= interval.hi) {
        throw UsageError(context + ": the interval (" + std::string(trim(lo)) + ", " + std::string(trim(hi)) +
                         "] is empty: lo must be below hi");
    }
    return interval;
}

}  // namespace

Episode drop_first(const Episode& e) {
    return Episode{{e.neurons.begin() + 1, e.neurons.end()}, {e.gaps.begin() + 1, e.gaps.end()}};
}

Episode drop_last(const Episode& e) {
    return Episode{{e.neurons.begin(), e.neurons.end() - 1}, {e.gaps.begin(), e.gaps.end() - 1}};
}

std::string format_episode(const Episode& episode, const SpikeTrains& trains, const std::string& unit) {
    std::string text;
    for (std::size_t k = 0; k < episode.neurons.size(); ++k) {
        if (k > 0) {
            const Interval& gap = episode.gaps[k - 1];
            text += " -(" + format_ticks(gap.lo, trains.time_base(), unit) + "," +
                    format_ticks(gap.hi, trains.time_base(), unit) + "]-> ";
        }
        text += trains.label(episode.neurons[k]);
    }
    return text;
}

Episode parse_episode(const std::string& text, const SpikeTrains& trains, const std::string& unit) {
    const std::string context = "episode '" + text + "'";
    Episode episode;
    std::string_view rest = text;
    for (;;) {
        const auto arrow = rest.find("-(");
        const std::string_view label = trim(rest.substr(0, arrow));
        if (label.empty()) throw UsageError(context + ": a neuron label is missing");
        try {
            episode.neurons.push_back(trains.find_label(std::string(label)));
        } catch (const Error& e) {
            throw UsageError(context + ": " + e.what());
        }
        if (arrow == std::string_view::npos) break;
        rest.remove_prefix(arrow + 2);
        const auto close = rest.find("]->");
        const auto comma = rest.find(',');
        if (close == std::string_view::npos || comma == std::string_view::npos || comma > close) {
            throw UsageError(context + ": expected an interval written -(lo,hi]->");
        }
        episode.gaps.push_back(make_interval(rest.substr(0, comma), rest.substr(comma + 1, close - comma - 1), rest.substr(0, close + 1),
                                             trains.time_base(), unit, context));
        rest.remove_prefix(close + 3);
    }
    return episode;
}

std::vector<Interval> parse_intervals(const std::string& text, const TimeBase& time_base, const std::string& unit) {
    const std::string context = "intervals '" + text + "'";
    std::vector<Interval> intervals;
    std::string_view rest = text;
    while (!trim(rest).empty()) {
        const auto comma = rest.find(',');
        const std::string_view item = rest.substr(0, comma);
        const auto dash = item.find('-');
        if (dash == std::string_view::npos) throw UsageError(context + ": each interval is written lo-hi, e.g. 0-5");
        intervals.push_back(make_interval(item.substr(0, dash), item.substr(dash + 1), item, time_base, unit, context));
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
    }
    if (intervals.empty()) throw UsageError(context + ": no interval given");
    return intervals;
}

void validate(const Episode& episode, const SpikeTrains& trains) {
    if (episode.neurons.empty()) throw Error("an episode needs at least one neuron");
    if (episode.gaps.size() + 1 != episode.neurons.size()) {
        throw Error("an episode of " + std::to_string(episode.neurons.size()) + " neurons needs " +
                    std::to_string(episode.neurons.size() - 1) + " intervals");
    }
    for (NeuronId n : episode.neurons) {
        if (n >= trains.num_neurons()) throw Error("episode neuron " + std::to_string(n) + " is out of range");
    }
    for (const Interval& gap : episode.gaps) {
        if (gap.lo < 0 || gap.lo >= gap.hi) {
            throw Error("episode interval (" + std::to_string(gap.lo) + ", " + std::to_string(gap.hi) +
                        "] ticks: need 0 <= lo < hi");
        }
    }
}

}  // namespace spikeminer::mining
