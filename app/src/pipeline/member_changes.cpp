// See member_changes.hpp.
#include "member_changes.hpp"

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

std::vector<MemberChange> member_changes(const SpikeTrains& trains, const std::vector<NeuronId>& members, const std::vector<Tick>& activations,
                                         Tick within, double alpha, std::size_t min_side) {
    std::vector<MemberChange> changes;
    const std::size_t n = activations.size();
    if (n < 2 * min_side) return changes;
    const auto all = trains.times();
    const double tests = static_cast<double>(n) * static_cast<double>(members.size());
    for (const NeuronId m : members) {
        // Took part: a spike within `within` of the activation, either way.
        const auto of = trains.spikes_of(m);
        std::vector<std::uint8_t> took(n, 0);
        std::size_t at = 0;
        for (std::size_t i = 0; i < n; ++i) {
            while (at < of.size() && all[of[at]] < activations[i] - within) ++at;
            took[i] = at < of.size() && all[of[at]] <= activations[i] + within ? 1 : 0;
        }
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

}  // namespace spikeminer::pipeline::detail
