// `spikeminer simulate`: network Poisson spike trains with embedded chains and assemblies.
#include "commands.hpp"
#include "terminal_progress.hpp"

#include "spikeminer/app/io/atomic_output.hpp"
#include "spikeminer/app/io/simulation_io.hpp"
#include "spikeminer/app/network_spec.hpp"
#include "spikeminer/app/recording_summary.hpp"
#include "spikeminer/core/error.hpp"

#include <cstdio>
#include <memory>

namespace spikeminer::cli {
namespace {

struct SimulateArguments {
    std::string scenario = "paper";
    std::string output;
    std::string to;
    simulator::NetworkConfig given;  // values of the flags that were given
    double step_ms = 1.0;
    double refractory_ms = 1.0;
    std::string background_delay_ms;
    std::vector<std::string> chains;
    std::vector<std::string> links;
    std::vector<std::string> assemblies;
    std::string modulation;
    std::string tick;
    CLI::App* command = nullptr;

    [[nodiscard]] bool has(const char* flag) const { return command->count(flag) > 0; }
};

simulator::NetworkConfig build_config(const SimulateArguments& args) {
    simulator::NetworkConfig config = simulator::scenario(args.scenario);
    const simulator::NetworkConfig& given = args.given;
    if (args.has("--neurons")) {
        config.neurons = given.neurons;
        // A scenario's per-neuron resting rates keep theirs; neurons added rest at the common rate.
        if (!config.rest_rates.empty()) config.rest_rates.resize(config.neurons, config.rest_rate_hz);
    }
    if (args.has("--duration")) simulator::set_duration(config, given.duration_s);
    if (args.has("--seed")) config.seed = given.seed;
    if (args.has("--rate")) {  // every neuron's, a scenario's per-neuron rates included
        config.rest_rate_hz = given.rest_rate_hz;
        config.rest_rates.clear();
    }
    if (args.has("--slope")) config.slope = given.slope;
    if (args.has("--max-prob")) config.max_step_probability = given.max_step_probability;
    if (args.has("--background-density")) config.background_density = given.background_density;
    if (args.has("--step-ms")) config.step_s = args.step_ms * 1e-3;
    if (args.has("--refractory-ms")) config.refractory_s = args.refractory_ms * 1e-3;
    if (!args.tick.empty()) config.ticks_per_second = parse_time_base(args.tick).ticks_per_second;
    if (!args.background_delay_ms.empty()) {
        config.background_delay = parse_delay_range(args.background_delay_ms, config.step_s, "--background-delay-ms");
    }
    for (const auto& spec : args.chains) config.chains.push_back(parse_chain(spec, config.step_s));
    for (const auto& spec : args.links) config.links.push_back(parse_link(spec, config.step_s));
    for (const auto& spec : args.assemblies) config.assemblies.push_back(parse_assembly(spec, config.step_s));
    if (!args.modulation.empty()) config.modulation = parse_modulation(args.modulation);
    return config;
}

void run_simulate(const SimulateArguments& args) {
    const io::SpikeFormat format = !args.to.empty() ? io::parse_spike_format(args.to)
                                                    : io::format_from_extension(args.output).value_or(io::SpikeFormat::Spikeminer);
    const simulator::NetworkConfig config = build_config(args);
    io::OutputSet outputs({args.output}, {}, interrupt_token());
    TerminalProgress terminal;
    simulator::Simulation simulation = simulator::simulate(config, &terminal.progress());
    simulation.truth.config_json = simulator::to_json(config);
    simulation.trains.set_metadata("simulator.scenario", args.scenario);
    simulation.trains.set_metadata("simulator.config", simulation.truth.config_json);
    const bool with_truth = io::write_simulation(args.output, simulation, format);
    outputs.commit();

    const RecordingSummary summary = summarize(simulation.trains);
    std::printf("simulated %zu neurons for %.6g s (scenario %s, seed %llu): %zu spikes, %.3g Hz mean per neuron\n",
                summary.neurons, summary.duration_s, args.scenario.c_str(), static_cast<unsigned long long>(config.seed),
                summary.spikes, summary.mean_rate_hz);
    for (std::size_t c = 0; c < simulation.truth.chains.size(); ++c) {
        const auto& chain = simulation.truth.chains[c];
        std::printf("  chain %zu: %zu neurons from %u, strength %.3g, first delay %.6g ms%s\n", c, chain.neurons.size(),
                    chain.neurons.front(), chain.strengths.front(),
                    static_cast<double>(chain.delays.front().start) * 1e3 / static_cast<double>(config.ticks_per_second),
                    chain.loopback ? ", loopback" : "");
    }
    for (std::size_t a = 0; a < simulation.truth.assemblies.size(); ++a) {
        const auto& assembly = simulation.truth.assemblies[a];
        std::printf("  assembly %zu: %zu members from %u, %zu activations\n", a, assembly.members.size(),
                    assembly.members.front(), assembly.activation_times.size());
    }
    std::printf("wrote %s (%s%s)\n", args.output.c_str(), io::format_name(format).c_str(),
                with_truth ? ", with ground truth" : "; the ground truth is kept only in the spikeminer HDF5 format");
}

}  // namespace

void add_simulate_command(CLI::App& app) {
    auto args = std::make_shared<SimulateArguments>();
    CLI::App* command = app.add_subcommand("simulate", "Simulate a network of Poisson neurons with embedded firing "
                                                       "chains and assemblies, and write spikes plus ground truth");
    args->command = command;
    command->add_option("-o,--output", args->output, "output file (.h5 keeps the ground truth; .csv, .nwb, ...)")->required();
    command->add_option("--scenario", args->scenario,
                        "preset: paper (64 neurons, four 9-neuron chains), assemblies, demo (assemblies active in stretches, "
                        "as spikeminer demo simulates), large (1000 neurons), none")
        ->check(CLI::IsMember({"paper", "assemblies", "demo", "dynamics", "large", "none"}));
    command->add_option("--to", args->to, "output format (default: from the extension)");
    command->add_option("--seed", args->given.seed, "random seed (same seed, same spikes)");
    command->add_option("--duration", args->given.duration_s, "length of the recording in seconds");
    command->add_option("--neurons", args->given.neurons, "number of neurons");
    command->add_option("--rate", args->given.rest_rate_hz, "resting firing rate in Hz");
    command->add_option("--step-ms", args->step_ms, "simulation step in ms (default 1)");
    command->add_option("--refractory-ms", args->refractory_ms,
                        "refractory period in ms: a spike this close or closer to the previous one is dropped (default 1)");
    command->add_option("--slope", args->given.slope, "sigmoid slope s (default 1)");
    command->add_option("--max-prob", args->given.max_step_probability, "highest firing probability per step (default 0.99)");
    command->add_option("--background-density", args->given.background_density,
                        "probability of a random weak link for each ordered pair of neurons (default 0)");
    command->add_option("--background-delay-ms", args->background_delay_ms, "delay range of background links, e.g. 1-20");
    command->add_option("--chain", args->chains, "add a chain, e.g. 0>1>2>3@0.8:5 (strength 0.8, 5 ms), 0>1@0.7:3-6+loop");
    command->add_option("--link", args->links, "add a link, e.g. 3>7@0.6:4 (probability 0.6, 4 ms)");
    command->add_option("--assembly", args->assemblies, "add an assembly, e.g. 4,5,6@0.5:2 (0.5 Hz, 2 ms jitter[:participation]), active only in 60-120 s and 300-360 s "
                        "with /60-120,300-360");
    command->add_option("--modulation", args->modulation, "resting-rate modulation: none, sine:PERIOD_S:DEPTH, "
                                                          "updown:PERIOD_S:UP_FRACTION:UP_FACTOR:DOWN_FACTOR");
    command->add_option("--tick", args->tick, "tick of the output times (default 1us)");
    command->callback([args] { run_simulate(*args); });
}

}  // namespace spikeminer::cli
