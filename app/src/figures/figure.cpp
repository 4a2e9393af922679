// See figure.hpp: what every build has (the writers are in cairo_figure.cpp, or
// figures_unavailable.cpp in a build without Cairo and Graphviz).
#include "spikeminer/app/figures/figure.hpp"

#include "spikeminer/core/error.hpp"

#include <cstdlib>
#include <cstring>

namespace spikeminer::figures {

Colour Colour::hex(const char* rrggbb, double alpha) {
    if (rrggbb == nullptr || std::strlen(rrggbb) != 7 || rrggbb[0] != '#') throw Error(std::string("not a colour: ") + (rrggbb ? rrggbb : "null"));
    const unsigned long value = std::strtoul(rrggbb + 1, nullptr, 16);
    return {static_cast<double>((value >> 16) & 0xff) / 255.0, static_cast<double>((value >> 8) & 0xff) / 255.0,
            static_cast<double>(value & 0xff) / 255.0, alpha};
}

bool figures_available() { return SPIKEMINER_FIGURES != 0; }

void check_figure_path(const std::string& path) {
    if (!path.ends_with(".svg") && !path.ends_with(".png")) throw UsageError(path + ": a figure is written as .svg or .png");
    if (!figures_available()) {
        throw UsageError(path + ": this build draws no figures (it needs Cairo and Graphviz: install libcairo2-dev and "
                                "libgraphviz-dev, then configure and build again)");
    }
}

}  // namespace spikeminer::figures
