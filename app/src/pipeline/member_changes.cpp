// See member_changes.hpp.
#include "member_changes.hpp"

#include "spikeminer/app/pipeline/assembly_activity.hpp"

#include <algorithm>
#include <cmath>

namespace spikeminer::pipeline::detail {
namespace {

// n times the entropy of a share k / n (in nats): minus the log-likelihood of k of n at the
// maximum-likelihood share.
double spread(double k, double n) {
    const auto term = [](double x, double of) { return x > 0 ? x * std::log(x / of) : 0.0; };
    return -(term(k, n) + term(n - k, n));
}

}  // namespace

std::vector<std::uint8_t> took_part(const NeuronTimes& times, NeuronId member, const std::vector<Tick>& activations, Tick within) {
    const std::span<const Tick> of = times.of(member);
    std::vector<std::uint8_t> took(activations.size(), 0);
    std::size_t at = 0;
    for (std::size_t i = 0; i < activations.size(); ++i) {
        while (at < of.size() && of[at] < activations[i] - within) ++at;
        took[i] = at < of.size() && of[at] <= activations[i] + within ? 1 : 0;
    }
    return took;
}

std::vector<MemberChange> member_changes(const NeuronTimes& times, const std::vector<NeuronId>& members, const std::vector<Tick>& activations,
                                         Tick within, double alpha, std::size_t min_side) {
    std::vector<MemberChange> changes;
    const std::size_t n = activations.size();
    if (n < 2 * min_side) return changes;
    const double tests = static_cast<double>(n) * static_cast<double>(members.size());
    for (const NeuronId m : members) {
        const std::vector<std::uint8_t> took = took_part(times, m, activations, within);
        std::vector<double> before(n + 1, 0);  // activations taken part in among the first i
        for (std::size_t i = 0; i < n; ++i) before[i + 1] = before[i] + took[i];
        const double whole = spread(before[n], static_cast<double>(n));
        double best = 0;
        std::size_t split = 0;
        for (std::size_t k = min_side; k + min_side <= n; ++k) {
            const double left = static_cast<double>(k);
            const double right = static_cast<double>(n - k);
            const double ratio = whole - spread(before[k], left) - spread(before[n] - before[k], right);
            if (ratio > best) {
                best = ratio;
                split = k;
            }
        }
        if (split == 0) continue;
        // 2 x the log-likelihood ratio is chi-squared with one degree of freedom: P = erfc(sqrt(ratio)).
        if (std::erfc(std::sqrt(best)) * tests > alpha) continue;
        const double share_before = before[split] / static_cast<double>(split);
        const double share_after = (before[n] - before[split]) / static_cast<double>(n - split);
        if ((share_before < 0.5) == (share_after < 0.5)) continue;
        changes.push_back({m, activations[split], share_after > share_before});
    }
    return changes;
}

std::vector<NeuronId> firing_together(const NeuronTimes& times, std::vector<NeuronId> members, const std::vector<NeuronId>& others,
                                      TimeSpan span, Tick within, double alpha, bool keep_changing) {
    const auto share = [&](NeuronId n, const std::vector<Tick>& activations) {
        const std::vector<std::uint8_t> took = took_part(times, n, activations, within);
        return static_cast<std::size_t>(std::count(took.begin(), took.end(), std::uint8_t{1}));
    };
    // Each step drops or adds one neuron; a neuron added is never dropped (its share was more
    // than half) and dropped ones can come back only through a change of the rest, so the
    // steps are bounded: stop after as many as could each move every neuron twice.
    for (std::size_t moves = 0; !members.empty() && moves <= 2 * (members.size() + others.size()); ++moves) {
        const std::vector<Tick> activations = activation_times(times, members, span, within);
        if (activations.empty()) return {};
        std::vector<std::pair<std::size_t, NeuronId>> weak;  // (activations taken part in, member) of those in at most half
        for (const NeuronId m : members) {
            if (const std::size_t taken = share(m, activations); 2 * taken <= activations.size()) weak.emplace_back(taken, m);
        }
        if (!weak.empty()) {
            std::sort(weak.begin(), weak.end());
            const std::vector<MemberChange> changes =
                keep_changing ? member_changes(times, members, activations, within, alpha) : std::vector<MemberChange>{};
            const auto none = std::find_if(weak.begin(), weak.end(), [&](const auto& w) {
                return std::none_of(changes.begin(), changes.end(), [&](const MemberChange& c) { return c.member == w.second; });
            });
            if (none != weak.end()) {
                members.erase(std::find(members.begin(), members.end(), none->second));
                continue;
            }
        }
        std::pair<std::size_t, NeuronId> strongest{0, 0};  // (activations taken part in, neuron) of the others in more than half
        for (const NeuronId n : others) {
            if (std::binary_search(members.begin(), members.end(), n)) continue;
            if (const std::size_t taken = share(n, activations); 2 * taken > activations.size() && taken > strongest.first) strongest = {taken, n};
        }
        if (strongest.first == 0) return members;
        members.insert(std::upper_bound(members.begin(), members.end(), strongest.second), strongest.second);
    }
    return members;
}

}  // namespace spikeminer::pipeline::detail
