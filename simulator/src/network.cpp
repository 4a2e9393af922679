#include "network.hpp"

#include "random.hpp"

#include <cmath>

namespace spikeminer::simulator::detail {
namespace {

struct Edge {
    NeuronId from;
    OutLink link;
};

// Random sparse links whose conditional probabilities lie between 0.5x and 2x the target's
// resting per-step firing probability (weak inhibition to weak excitation). Pairs are
// visited by geometric skips, so the cost follows the number of links, not neurons^2.
void add_background(const NetworkConfig& config, const std::vector<double>& rest_hz, std::vector<Edge>& edges) {
    if (config.background_density <= 0.0) return;
    Random random(config.seed ^ 0xB4C4'6E0D'5A1C'99F1ull);
    const auto n = static_cast<std::uint64_t>(config.neurons);
    const std::uint64_t pairs = n * n;
    std::uint64_t pair = static_cast<std::uint64_t>(random.geometric(config.background_density));
    while (pair < pairs) {
        const auto from = static_cast<NeuronId>(pair / n);
        const auto to = static_cast<NeuronId>(pair % n);
        if (from != to) {
            const double rest_p = -std::expm1(-rest_hz[to] * config.step_s);
            const double p = rest_p * (0.5 + 1.5 * random.uniform());
            const std::int64_t delay = random.uniform_int(config.background_delay.min, config.background_delay.max);
            edges.push_back(Edge{from, OutLink{to, link_weight(p, rest_hz[to], config), DelayRange{delay, delay}}});
        }
        pair += 1 + static_cast<std::uint64_t>(random.geometric(config.background_density));
    }
}

}  // namespace

Network build_network(const NetworkConfig& config) {
    Network network;
    network.rest_hz = config.rest_rates.empty() ? std::vector<double>(config.neurons, config.rest_rate_hz) : config.rest_rates;
    std::vector<Edge> edges;
    const auto add = [&](NeuronId from, NeuronId to, double p, DelayRange delay) {
        edges.push_back(Edge{from, OutLink{to, link_weight(p, network.rest_hz[to], config), delay}});
    };
    for (const Link& link : config.links) add(link.from, link.to, link.probability, link.delay);
    for (const Chain& chain : config.chains) {
        const std::size_t count = chain.neurons.size();
        for (std::size_t k = 0; k + 1 < count; ++k) add(chain.neurons[k], chain.neurons[k + 1], chain.strengths[k], chain.delays[k]);
        if (chain.loopback) add(chain.neurons.back(), chain.neurons.front(), chain.strengths.back(), chain.delays.back());
    }
    add_background(config, network.rest_hz, edges);

    network.offsets.assign(config.neurons + 1, 0);
    for (const Edge& edge : edges) ++network.offsets[edge.from + 1];
    for (std::size_t i = 0; i < config.neurons; ++i) network.offsets[i + 1] += network.offsets[i];
    network.links.resize(edges.size());
    std::vector<std::size_t> cursor(network.offsets.begin(), network.offsets.end() - 1);
    for (const Edge& edge : edges) network.links[cursor[edge.from]++] = edge.link;
    return network;
}

}  // namespace spikeminer::simulator::detail
