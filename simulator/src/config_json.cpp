#include "spikeminer/simulator/simulate.hpp"

#include <nlohmann/json.hpp>

namespace spikeminer::simulator {
namespace {

nlohmann::json delay_json(const DelayRange& d) { return nlohmann::json::array({d.min, d.max}); }

const char* modulation_name(Modulation::Kind kind) {
    switch (kind) {
        case Modulation::Kind::None: return "none";
        case Modulation::Kind::Sine: return "sine";
        case Modulation::Kind::UpDown: return "updown";
    }
    return "none";
}

}  // namespace

std::string to_json(const NetworkConfig& config) {
    nlohmann::json out{{"model", "network Poisson (Patnaik, Sastry, Unnikrishnan)"},
                       {"neurons", config.neurons},
                       {"step_s", config.step_s},
                       {"duration_s", config.duration_s},
                       {"rest_rate_hz", config.rest_rate_hz},
                       {"rest_rates_hz", config.rest_rates},
                       {"slope", config.slope},
                       {"max_step_probability", config.max_step_probability},
                       {"refractory_s", config.refractory_s},
                       {"background_density", config.background_density},
                       {"background_delay_steps", delay_json(config.background_delay)},
                       {"seed", config.seed},
                       {"ticks_per_second", config.ticks_per_second}};
    out["links"] = nlohmann::json::array();
    for (const Link& link : config.links) {
        out["links"].push_back({{"from", link.from}, {"to", link.to}, {"probability", link.probability},
                                {"delay_steps", delay_json(link.delay)}});
    }
    out["chains"] = nlohmann::json::array();
    for (const Chain& chain : config.chains) {
        nlohmann::json delays = nlohmann::json::array();
        for (const DelayRange& d : chain.delays) delays.push_back(delay_json(d));
        out["chains"].push_back({{"neurons", chain.neurons}, {"strengths", chain.strengths},
                                 {"delay_steps", delays}, {"loopback", chain.loopback}});
    }
    out["assemblies"] = nlohmann::json::array();
    for (const Assembly& a : config.assemblies) {
        nlohmann::json assembly{{"members", a.members}, {"activation_rate_hz", a.activation_rate_hz},
                                {"jitter_steps", a.jitter_steps}, {"participation", a.participation}};
        if (!a.active.empty()) {
            assembly["active_s"] = nlohmann::json::array();
            for (const ActivePeriod& p : a.active) assembly["active_s"].push_back({p.start_s, p.end_s});
        }
        out["assemblies"].push_back(assembly);
    }
    const Modulation& m = config.modulation;
    out["modulation"] = {{"kind", modulation_name(m.kind)}, {"period_s", m.period_s}, {"depth", m.depth},
                         {"up_fraction", m.up_fraction}, {"up_factor", m.up_factor}, {"down_factor", m.down_factor}};
    return out.dump();
}

}  // namespace spikeminer::simulator
