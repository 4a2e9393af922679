#include "spikeminer/app/chain_recovery.hpp"

namespace spikeminer {
namespace {

// Whether `found` is the run chain[first, first + length) with intervals holding the delays.
bool matches(const mining::Episode& found, const simulator::GroundTruth::ChainTruth& chain, std::size_t first) {
    for (std::size_t k = 0; k < found.size(); ++k) {
        if (found.neurons[k] != chain.neurons[first + k]) return false;
        if (k + 1 < found.size()) {
            const TimeSpan& delay = chain.delays[first + k];  // [min, max] ticks, end inclusive
            const mining::Interval& gap = found.gaps[k];
            if (!(gap.lo < delay.start && delay.end <= gap.hi)) return false;
        }
    }
    return true;
}

}  // namespace

std::vector<ChainRecovery> recovered_chains(const simulator::GroundTruth& truth, const mining::MiningResult& result) {
    std::vector<ChainRecovery> report;
    for (std::size_t c = 0; c < truth.chains.size(); ++c) {
        const auto& chain = truth.chains[c];
        ChainRecovery best{c, chain.neurons.size(), 0, 0, 0};
        for (const mining::FrequentEpisode& found : result.episodes) {
            const std::size_t size = found.episode.size();
            if (size < 2 || size > chain.neurons.size() || size <= best.recovered) continue;
            for (std::size_t first = 0; first + size <= chain.neurons.size(); ++first) {
                if (matches(found.episode, chain, first)) {
                    best = ChainRecovery{c, chain.neurons.size(), first, size, found.count};
                    break;
                }
            }
        }
        report.push_back(best);
    }
    return report;
}

}  // namespace spikeminer
