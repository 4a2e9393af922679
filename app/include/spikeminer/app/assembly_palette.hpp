#pragma once
// The colours assemblies are drawn in, in the SVG figure and in the GUI alike.

#include <array>
#include <cstddef>

namespace spikeminer {

inline constexpr std::array<const char*, 10> kAssemblyColours = {"#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd",
                                                                 "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"};

/// Neurons outside every assembly, beside coloured ones.
inline constexpr const char* kOtherNeuronColour = "#b0b0b0";

/// The i-th assembly's colour ("#rrggbb"), cycling through ten.
inline const char* assembly_colour(std::size_t i) { return kAssemblyColours[i % kAssemblyColours.size()]; }

}  // namespace spikeminer
