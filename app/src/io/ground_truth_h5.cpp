// /ground_truth (spikeminer HDF5, version 1):
//   attribute config_json                    the simulator configuration
//   chain_neurons uint32 [], chain_neurons_index int64 [chains]     neurons of each chain
//   chain_strengths float64 [], chain_delays int64 [links, 2] (min, max ticks),
//   chain_links_index int64 [chains]                                per-link values
//   chain_loopback uint32 [chains]
//   assembly_members uint32 [], assembly_members_index int64 [assemblies]
//   assembly_rates_hz float64 [assemblies], assembly_jitter int64 [assemblies] (ticks)
//   activation_times int64 [], activation_times_index int64 [assemblies] (ticks)
//   assembly_active int64 [periods, 2], assembly_active_index int64 [assemblies]
//                                            when each could activate (ticks; none: always;
//                                            absent in files written before it existed)
#include "ground_truth_h5.hpp"

#include "spikeminer/core/error.hpp"

namespace spikeminer::io::detail {
namespace {

constexpr const char* kGroup = "/ground_truth";

std::string at(const char* name) { return std::string(kGroup) + "/" + name; }

template <typename Item, typename Get>
std::vector<std::int64_t> cumulative_ends(const std::vector<Item>& items, Get size_of) {
    std::vector<std::int64_t> ends;
    std::int64_t total = 0;
    for (const Item& item : items) ends.push_back(total += static_cast<std::int64_t>(size_of(item)));
    return ends;
}

std::vector<NeuronId> to_neurons(const std::vector<std::int64_t>& values, const H5Reader& file, const std::string& path) {
    std::vector<NeuronId> neurons;
    for (const std::int64_t v : values) {
        if (v < 0 || v > static_cast<std::int64_t>(UINT32_MAX)) throw Error(file.where(path) + " holds an invalid neuron");
        neurons.push_back(static_cast<NeuronId>(v));
    }
    return neurons;
}

}  // namespace

void write_ground_truth(H5Writer& file, const simulator::GroundTruth& truth) {
    file.create_group(kGroup);
    file.set_attribute(kGroup, "config_json", truth.config_json);
    std::vector<std::uint32_t> chain_neurons;
    std::vector<double> strengths;
    std::vector<std::int64_t> delays;
    std::vector<std::uint32_t> loopback;
    for (const auto& chain : truth.chains) {
        chain_neurons.insert(chain_neurons.end(), chain.neurons.begin(), chain.neurons.end());
        strengths.insert(strengths.end(), chain.strengths.begin(), chain.strengths.end());
        for (const TimeSpan& d : chain.delays) {
            delays.push_back(d.start);
            delays.push_back(d.end);
        }
        loopback.push_back(chain.loopback ? 1 : 0);
    }
    file.write(at("chain_neurons"), std::span<const std::uint32_t>(chain_neurons));
    file.write(at("chain_neurons_index"),
               std::span<const std::int64_t>(cumulative_ends(truth.chains, [](const auto& c) { return c.neurons.size(); })));
    file.write(at("chain_strengths"), std::span<const double>(strengths));
    file.write_pairs(at("chain_delays"), delays);
    file.write(at("chain_links_index"),
               std::span<const std::int64_t>(cumulative_ends(truth.chains, [](const auto& c) { return c.delays.size(); })));
    file.write(at("chain_loopback"), std::span<const std::uint32_t>(loopback));

    std::vector<std::uint32_t> members;
    std::vector<double> rates;
    std::vector<std::int64_t> jitter;
    std::vector<std::int64_t> activations;
    for (const auto& assembly : truth.assemblies) {
        members.insert(members.end(), assembly.members.begin(), assembly.members.end());
        rates.push_back(assembly.activation_rate_hz);
        jitter.push_back(assembly.jitter);
        activations.insert(activations.end(), assembly.activation_times.begin(), assembly.activation_times.end());
    }
    file.write(at("assembly_members"), std::span<const std::uint32_t>(members));
    file.write(at("assembly_members_index"), std::span<const std::int64_t>(cumulative_ends(
                                                 truth.assemblies, [](const auto& a) { return a.members.size(); })));
    file.write(at("assembly_rates_hz"), std::span<const double>(rates));
    file.write(at("assembly_jitter"), std::span<const std::int64_t>(jitter));
    std::vector<std::int64_t> active;
    for (const auto& assembly : truth.assemblies) {
        for (const TimeSpan& period : assembly.active) {
            active.push_back(period.start);
            active.push_back(period.end);
        }
    }
    file.write_pairs(at("assembly_active"), active);
    file.write(at("assembly_active_index"), std::span<const std::int64_t>(cumulative_ends(
                                                truth.assemblies, [](const auto& a) { return a.active.size(); })));
    file.write(at("activation_times"), std::span<const std::int64_t>(activations));
    file.write(at("activation_times_index"), std::span<const std::int64_t>(cumulative_ends(
                                                 truth.assemblies, [](const auto& a) { return a.activation_times.size(); })));
}

simulator::GroundTruth read_ground_truth_group(const H5Reader& file) {
    simulator::GroundTruth truth;
    truth.config_json = file.string_attribute(kGroup, "config_json").value_or("");
    const auto loopback = file.read_integers(at("chain_loopback"));
    const std::size_t chains = loopback.size();
    const auto chain_neurons = split_by_index(file, file.read_integers(at("chain_neurons")), at("chain_neurons_index"), chains);
    const auto strengths = split_by_index(file, file.read_numbers(at("chain_strengths")), at("chain_links_index"), chains);
    const auto delays = split_by_index(file, file.read_integer_pairs(at("chain_delays")), at("chain_links_index"), chains, 2);
    for (std::size_t c = 0; c < chains; ++c) {
        simulator::GroundTruth::ChainTruth chain;
        chain.neurons = to_neurons(chain_neurons[c], file, at("chain_neurons"));
        chain.strengths = strengths[c];
        for (std::size_t k = 0; k + 1 < delays[c].size(); k += 2) chain.delays.push_back(TimeSpan{delays[c][k], delays[c][k + 1]});
        chain.loopback = loopback[c] != 0;
        truth.chains.push_back(std::move(chain));
    }
    const auto rates = file.read_numbers(at("assembly_rates_hz"));
    const std::size_t assemblies = rates.size();
    const auto jitter = file.read_integers(at("assembly_jitter"));
    if (jitter.size() != assemblies) throw Error(file.where(at("assembly_jitter")) + " does not have one entry per assembly");
    const auto members = split_by_index(file, file.read_integers(at("assembly_members")), at("assembly_members_index"), assemblies);
    const auto times = split_by_index(file, file.read_integers(at("activation_times")), at("activation_times_index"), assemblies);
    std::vector<std::vector<std::int64_t>> active(assemblies);
    if (file.exists(at("assembly_active"))) {
        active = split_by_index(file, file.read_integer_pairs(at("assembly_active")), at("assembly_active_index"), assemblies, 2);
    }
    for (std::size_t a = 0; a < assemblies; ++a) {
        simulator::GroundTruth::AssemblyTruth assembly{to_neurons(members[a], file, at("assembly_members")), rates[a], jitter[a], times[a], {}};
        for (std::size_t k = 0; k + 1 < active[a].size(); k += 2) assembly.active.push_back(TimeSpan{active[a][k], active[a][k + 1]});
        truth.assemblies.push_back(std::move(assembly));
    }
    return truth;
}

}  // namespace spikeminer::io::detail
