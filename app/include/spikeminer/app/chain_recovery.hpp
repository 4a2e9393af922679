#pragma once

#include "spikeminer/mining/mine.hpp"
#include "spikeminer/simulator/simulate.hpp"

#include <vector>

namespace spikeminer {

/// How much of an embedded chain the mining found.
struct ChainRecovery {
    std::size_t chain = 0;          ///< index in the ground truth
    std::size_t length = 0;         ///< neurons in the chain
    std::size_t first = 0;          ///< first node of the longest recovered run
    std::size_t recovered = 0;      ///< neurons in the longest recovered run (0 or >= 2)
    std::uint64_t count = 0;        ///< its count
};

/// For each embedded chain, the longest run of consecutive chain neurons that is a frequent
/// episode whose every interval contains the true delay range.
std::vector<ChainRecovery> recovered_chains(const simulator::GroundTruth& truth, const mining::MiningResult& result);

}  // namespace spikeminer
