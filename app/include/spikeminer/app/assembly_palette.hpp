#pragma once
// The colours assemblies are drawn in, in the SVG figure and in the GUI alike.

#include "spikeminer/core/spike_trains.hpp"

#include <array>
#include <cstddef>
#include <span>
#include <vector>

namespace spikeminer {

inline constexpr std::array<const char*, 10> kAssemblyColours = {"#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd",
                                                                 "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"};

/// Neurons outside every assembly, beside coloured ones.
inline constexpr const char* kOtherNeuronColour = "#b0b0b0";
/// The members of a window's clique whose assembly was seen too briefly to be reported.
inline constexpr const char* kUnreportedCliqueColour = "#707070";

/// The i-th assembly's colour ("#rrggbb"), cycling through ten.
inline const char* assembly_colour(std::size_t i) { return kAssemblyColours[i % kAssemblyColours.size()]; }

/// For each of `neurons` neurons, the first assembly that holds it (the one it is drawn
/// with), or -1 for none.
inline std::vector<int> first_assembly_of(std::size_t neurons, std::span<const std::vector<NeuronId>> assemblies) {
    std::vector<int> first(neurons, -1);
    for (std::size_t a = assemblies.size(); a-- > 0;) {
        for (const NeuronId n : assemblies[a]) {
            if (n < neurons) first[n] = static_cast<int>(a);
        }
    }
    return first;
}

}  // namespace spikeminer
