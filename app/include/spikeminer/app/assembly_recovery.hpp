#pragma once

#include "spikeminer/simulator/simulate.hpp"

#include <span>
#include <vector>

namespace spikeminer {

/// How well the assemblies found match an embedded one.
struct AssemblyRecovery {
    std::size_t assembly = 0;  ///< index in the ground truth
    std::size_t size = 0;      ///< its members
    std::size_t found = 0;     ///< index of the best-matching assembly found (valid when jaccard > 0)
    double jaccard = 0;        ///< |shared| / |union| with it: 1 for an exact match, 0 for none
};

/// For each embedded assembly, the found assembly (a sorted member list) that shares the
/// largest fraction of the two's union with it.
std::vector<AssemblyRecovery> recovered_assemblies(const simulator::GroundTruth& truth, std::span<const std::vector<NeuronId>> found);

}  // namespace spikeminer
