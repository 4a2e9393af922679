#include "spikeminer/graph/generators.hpp"

#include "spikeminer/core/error.hpp"

#include <random>

namespace spikeminer::graph {
namespace {

// A uniform double in [0, 1) from the generator's top 53 bits.
double unit(std::mt19937_64& random) { return static_cast<double>(random() >> 11) * 0x1.0p-53; }

}  // namespace

std::vector<std::pair<Vertex, Vertex>> rmat_edges(unsigned scale, std::size_t edges, std::uint64_t seed) {
    if (scale == 0 || scale > 31) throw UsageError("R-MAT scale must be 1..31");
    constexpr double kA = 0.57;
    constexpr double kB = 0.19;
    constexpr double kC = 0.19;
    std::mt19937_64 random(seed);
    std::vector<std::pair<Vertex, Vertex>> out;
    out.reserve(edges);
    for (std::size_t e = 0; e < edges; ++e) {
        Vertex src = 0;
        Vertex dst = 0;
        for (unsigned bit = 0; bit < scale; ++bit) {
            const double r = unit(random);
            const bool down = r >= kA + kB;                       // quadrants c and d
            const bool right = (r >= kA && r < kA + kB) || r >= kA + kB + kC;  // b and d
            src = (src << 1) | (down ? 1U : 0U);
            dst = (dst << 1) | (right ? 1U : 0U);
        }
        out.emplace_back(src, dst);
    }
    return out;
}

std::vector<std::pair<Vertex, Vertex>> erdos_renyi_edges(Vertex vertices, std::size_t edges, std::uint64_t seed) {
    if (vertices == 0) throw UsageError("an Erdős–Rényi graph needs at least one vertex");
    std::mt19937_64 random(seed);
    std::vector<std::pair<Vertex, Vertex>> out;
    out.reserve(edges);
    for (std::size_t e = 0; e < edges; ++e) {
        const auto src = static_cast<Vertex>(unit(random) * vertices);
        const auto dst = static_cast<Vertex>(unit(random) * vertices);
        out.emplace_back(src, dst);
    }
    return out;
}

}  // namespace spikeminer::graph
