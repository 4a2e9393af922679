#include "spikeminer/mining/multiple_testing.hpp"

#include <algorithm>
#include <numeric>

namespace spikeminer::mining {

Corrected correct(std::span<const double> p, Correction correction, double q, std::size_t tests) {
    const auto m = static_cast<double>(std::max({tests, p.size(), std::size_t{1}}));
    Corrected out{std::vector<double>(p.size()), std::vector<bool>(p.size(), false)};
    if (correction == Correction::Bonferroni) {
        for (std::size_t i = 0; i < p.size(); ++i) {
            out.adjusted[i] = std::min(1.0, p[i] * m);
            out.passed[i] = p[i] <= q / m;
        }
        return out;
    }
    std::vector<std::size_t> order(p.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return p[x] < p[y]; });
    std::size_t accepted = 0;
    for (std::size_t k = 1; k <= order.size(); ++k) {
        if (p[order[k - 1]] <= q * static_cast<double>(k) / m) accepted = k;
    }
    double running = 1.0;  // q-value: the least p_(j) m / j over j >= k
    for (std::size_t k = order.size(); k-- > 0;) {
        running = std::min(running, p[order[k]] * m / static_cast<double>(k + 1));
        out.adjusted[order[k]] = running;
    }
    for (std::size_t k = 0; k < accepted; ++k) out.passed[order[k]] = true;
    return out;
}

}  // namespace spikeminer::mining
