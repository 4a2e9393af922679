#include "brute_force_cliques.hpp"

#include <algorithm>
#include <limits>
#include <random>
#include <stdexcept>

namespace spikeminer::test {
namespace {

// Adjacency as a dense boolean matrix, self loops dropped.
std::vector<std::vector<bool>> adjacency_matrix(std::size_t vertices, const std::vector<Edge>& edges) {
    std::vector<std::vector<bool>> adjacent(vertices, std::vector<bool>(vertices, false));
    for (const auto& [a, b] : edges) {
        if (a == b) continue;
        adjacent[a][b] = true;
        adjacent[b][a] = true;
    }
    return adjacent;
}

std::vector<graph::Vertex> members_of(std::uint32_t mask) {
    std::vector<graph::Vertex> members;
    for (graph::Vertex v = 0; v < 32; ++v) {
        if ((mask >> v) & 1U) members.push_back(v);
    }
    return members;
}

struct Lister {
    const std::vector<std::vector<bool>>& adjacent;
    std::size_t min_size;
    CliqueSet& out;
    std::vector<graph::Vertex> clique;

    // `common`: the vertices adjacent to every member of `clique` (all of them when empty).
    void extend(const std::vector<graph::Vertex>& common) {
        if (common.empty()) {
            if (!clique.empty() && clique.size() >= min_size) out.insert(clique);
            return;
        }
        for (const graph::Vertex v : common) {
            if (!clique.empty() && v < clique.back()) continue;  // each clique once, members ascending
            std::vector<graph::Vertex> next;
            for (const graph::Vertex u : common) {
                if (adjacent[v][u]) next.push_back(u);
            }
            clique.push_back(v);
            extend(next);
            clique.pop_back();
        }
    }
};

}  // namespace

CliqueSet brute_force_maximal_cliques(std::size_t vertices, const std::vector<Edge>& edges, std::size_t min_size) {
    if (vertices > 20) throw std::invalid_argument("brute_force_maximal_cliques: at most 20 vertices");
    const auto adjacent = adjacency_matrix(vertices, edges);
    std::vector<std::uint32_t> neighbours(vertices, 0);
    for (std::size_t a = 0; a < vertices; ++a) {
        for (std::size_t b = 0; b < vertices; ++b) {
            if (adjacent[a][b]) neighbours[a] |= std::uint32_t{1} << b;
        }
    }
    const std::uint32_t subsets = std::uint32_t{1} << vertices;
    CliqueSet result;
    for (std::uint32_t mask = 1; mask < subsets; ++mask) {
        // A clique: every member is adjacent to every other member.
        bool clique = true;
        for (std::size_t v = 0; v < vertices && clique; ++v) {
            if (((mask >> v) & 1U) == 0) continue;
            const std::uint32_t others = mask & ~(std::uint32_t{1} << v);
            clique = (neighbours[v] & others) == others;
        }
        if (!clique) continue;
        // Maximal: no outside vertex is adjacent to every member.
        bool maximal = true;
        for (std::size_t v = 0; v < vertices && maximal; ++v) {
            if ((mask >> v) & 1U) continue;
            maximal = (neighbours[v] & mask) != mask;
        }
        if (!maximal) continue;
        auto members = members_of(mask);
        if (members.size() >= min_size) result.insert(std::move(members));
    }
    return result;
}

CliqueSet listed_maximal_cliques(std::size_t vertices, const std::vector<Edge>& edges, std::size_t min_size) {
    const auto adjacent = adjacency_matrix(vertices, edges);
    CliqueSet result;
    Lister lister{adjacent, min_size, result, {}};
    // The empty clique's common neighbourhood is every vertex; a clique is maximal when its
    // common neighbourhood (over all vertices, smaller ones included) is empty. Extending
    // only by larger vertices lists each clique once; `extend` reports at an empty
    // neighbourhood only, so a clique whose only extensions are smaller is not reported.
    std::vector<graph::Vertex> all(vertices);
    for (std::size_t v = 0; v < vertices; ++v) all[v] = static_cast<graph::Vertex>(v);
    lister.extend(all);
    return result;
}

std::size_t naive_degeneracy(std::size_t vertices, const std::vector<Edge>& edges) {
    const auto adjacent = adjacency_matrix(vertices, edges);
    std::vector<bool> removed(vertices, false);
    std::size_t degeneracy = 0;
    for (std::size_t step = 0; step < vertices; ++step) {
        std::size_t best = vertices;
        std::size_t best_degree = std::numeric_limits<std::size_t>::max();
        for (std::size_t v = 0; v < vertices; ++v) {
            if (removed[v]) continue;
            std::size_t degree = 0;
            for (std::size_t u = 0; u < vertices; ++u) {
                if (!removed[u] && adjacent[v][u]) ++degree;
            }
            if (degree < best_degree) {
                best = v;
                best_degree = degree;
            }
        }
        removed[best] = true;
        degeneracy = std::max(degeneracy, best_degree);
    }
    return degeneracy;
}

CliqueSet at_least(const CliqueSet& all, std::size_t min_size) {
    CliqueSet kept;
    for (const auto& clique : all) {
        if (clique.size() >= min_size) kept.insert(clique);
    }
    return kept;
}

std::vector<Edge> random_graph(std::size_t vertices, double density, std::uint64_t seed) {
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    std::vector<Edge> edges;
    for (std::size_t a = 0; a < vertices; ++a) {
        for (std::size_t b = a + 1; b < vertices; ++b) {
            if (uniform(random) < density) edges.emplace_back(static_cast<graph::Vertex>(a), static_cast<graph::Vertex>(b));
        }
    }
    return edges;
}

std::vector<Edge> graph_from_mask(std::size_t vertices, std::uint64_t mask) {
    std::vector<Edge> edges;
    std::size_t bit = 0;
    for (std::size_t a = 0; a < vertices; ++a) {
        for (std::size_t b = a + 1; b < vertices; ++b, ++bit) {
            if ((mask >> bit) & 1U) edges.emplace_back(static_cast<graph::Vertex>(a), static_cast<graph::Vertex>(b));
        }
    }
    return edges;
}

}  // namespace spikeminer::test
