// See assembly_recovery.hpp.
#include "spikeminer/app/assembly_recovery.hpp"

#include <algorithm>
#include <iterator>

namespace spikeminer {

std::vector<AssemblyRecovery> recovered_assemblies(const simulator::GroundTruth& truth, std::span<const std::vector<NeuronId>> found) {
    std::vector<AssemblyRecovery> out;
    for (std::size_t a = 0; a < truth.assemblies.size(); ++a) {
        std::vector<NeuronId> members = truth.assemblies[a].members;
        std::sort(members.begin(), members.end());
        AssemblyRecovery best{a, members.size(), 0, 0};
        for (std::size_t f = 0; f < found.size(); ++f) {
            std::vector<NeuronId> shared;
            std::set_intersection(members.begin(), members.end(), found[f].begin(), found[f].end(), std::back_inserter(shared));
            const std::size_t joined = members.size() + found[f].size() - shared.size();
            const double jaccard = joined == 0 ? 0 : static_cast<double>(shared.size()) / static_cast<double>(joined);
            if (jaccard > best.jaccard) best = {a, members.size(), f, jaccard};
        }
        out.push_back(best);
    }
    return out;
}

}  // namespace spikeminer
