// See run_config.hpp.
#include "spikeminer/app/pipeline/run_config.hpp"

#include "../io/json_text.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/in_quotes.hpp"
#include "spikeminer/core/memory.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <algorithm>
#include <functional>
#include <limits>

namespace spikeminer::pipeline {
namespace {

using Json = nlohmann::json;

// One settable key: its dotted path in the file, what it sets, and how.
struct Key {
    const char* path;
    const char* help;
    std::function<void(RunConfig&, const Json&, const std::string& where)> set;
    std::function<Json(const RunConfig&)> get;
};

[[noreturn]] void wrong(const std::string& where, const std::string& what) { throw UsageError(where + " must be " + what); }

std::string text(const Json& value, const std::string& where) {
    if (!value.is_string()) wrong(where, "a string");
    return value.get<std::string>();
}

// A length in ms or s, written as a string ("2", "0-2,2-5", "off") or a plain number.
std::string lags(const Json& value, const std::string& where) {
    if (value.is_number()) return value.dump();
    return text(value, where);
}

double number(const Json& value, const std::string& where) {
    if (!value.is_number() || !std::isfinite(value.get<double>())) wrong(where, "a number");
    return value.get<double>();
}

std::uint64_t whole(const Json& value, const std::string& where) {
    if (!value.is_number_unsigned()) wrong(where, "a whole number, not negative");
    return value.get<std::uint64_t>();
}

// A positive number of seconds, or "auto" (0).
double seconds_or_auto(const Json& value, const std::string& where) {
    if (value.is_string() && value.get<std::string>() == "auto") return 0;
    if (!value.is_number() || !(value.get<double>() > 0) || !std::isfinite(value.get<double>())) wrong(where, "\"auto\" or a positive number");
    return value.get<double>();
}

bool flag(const Json& value, const std::string& where) {
    if (!value.is_boolean()) wrong(where, "true or false");
    return value.get<bool>();
}

// "auto", a count, a list of counts, or the same as text.
std::string counts(const Json& value, const std::string& where) {
    if (value.is_string()) return value.get<std::string>();
    if (value.is_number_unsigned()) return value.dump();
    if (value.is_array()) {
        std::string out;
        for (const Json& c : value) out += (out.empty() ? "" : ",") + std::to_string(whole(c, where));
        return out;
    }
    wrong(where, "\"auto\", a count or a list of counts");
}

const std::vector<Key>& keys() {
    static const std::vector<Key> table = {
        {"input", "the recording to analyse", [](RunConfig& c, const Json& v, const std::string& w) { c.input = text(v, w); },
         [](const RunConfig& c) { return Json(c.input); }},
        {"simulate.scenario", "simulate this scenario instead of reading a recording (demo, assemblies, dynamics, paper, large, none)",
         [](RunConfig& c, const Json& v, const std::string& w) { c.simulate = text(v, w); }, [](const RunConfig& c) { return Json(c.simulate); }},
        {"simulate.seed", "the simulation's seed", [](RunConfig& c, const Json& v, const std::string& w) { c.seed = whole(v, w); },
         [](const RunConfig& c) { return Json(c.seed); }},
        {"simulate.duration_s", "the simulation's length in s (null, the default: the scenario's)",
         [](RunConfig& c, const Json& v, const std::string& w) {
             if (v.is_null()) c.duration_s.reset(); else c.duration_s = number(v, w);
         },
         [](const RunConfig& c) { return c.duration_s ? Json(*c.duration_s) : Json(nullptr); }},
        {"read.format", "the recording's format: csv, text, nwb, spikeminer, waverepo, phy (default: detected)",
         [](RunConfig& c, const Json& v, const std::string& w) { c.format = text(v, w); }, [](const RunConfig& c) { return Json(c.format); }},
        {"read.tick", "tick for files in seconds, e.g. 1us or 30000/s", [](RunConfig& c, const Json& v, const std::string& w) { c.tick = text(v, w); },
         [](const RunConfig& c) { return Json(c.tick); }},
        {"read.duplicates", "two spikes of one neuron at one tick: keep or merge",
         [](RunConfig& c, const Json& v, const std::string& w) { c.duplicates = text(v, w); },
         [](const RunConfig& c) { return Json(c.duplicates); }},
        {"read.units", "a Kilosort / Phy folder's units: good or all", [](RunConfig& c, const Json& v, const std::string& w) { c.units = text(v, w); },
         [](const RunConfig& c) { return Json(c.units); }},
        {"mining.intervals_ms", "the episodes' delays, e.g. \"0-5,5-10\" (auto: these, or one and two steps of a coarser time grid)",
         [](RunConfig& c, const Json& v, const std::string& w) { c.mining_intervals_ms = lags(v, w); },
         [](const RunConfig& c) { return Json(c.mining_intervals_ms); }},
        {"mining.min_count", "\"auto\", a count, or one count per level",
         [](RunConfig& c, const Json& v, const std::string& w) { c.mining_min_count = counts(v, w); },
         [](const RunConfig& c) { return Json(c.mining_min_count); }},
        {"mining.max_level", "the longest episode", [](RunConfig& c, const Json& v, const std::string& w) { c.max_level = whole(v, w); },
         [](const RunConfig& c) { return Json(c.max_level); }},
        {"mining.q", "the test against chance of each level's candidates at this false discovery rate (0: no test, the "
                     "count alone decides)",
         [](RunConfig& c, const Json& v, const std::string& w) { c.mining_q = number(v, w); },
         [](const RunConfig& c) { return Json(c.mining_q); }},
        {"cofiring.window_s", "co-firing windows this many s wide (auto: 10, or long enough for 50 spikes of the median neuron)",
         [](RunConfig& c, const Json& v, const std::string& w) { c.window_s = seconds_or_auto(v, w); },
         [](const RunConfig& c) { return c.window_s == 0 ? Json("auto") : Json(c.window_s); }},
        {"cofiring.step_s", "... every this many s (auto: a tenth of the window)",
         [](RunConfig& c, const Json& v, const std::string& w) { c.step_s = seconds_or_auto(v, w); },
         [](const RunConfig& c) { return c.step_s == 0 ? Json("auto") : Json(c.step_s); }},
        {"cofiring.sync_ms", "synchrony within this many ms, either way (\"off\": none; auto: 2, or within a step of a coarser time grid)",
         [](RunConfig& c, const Json& v, const std::string& w) { c.sync_ms = lags(v, w); }, [](const RunConfig& c) { return Json(c.sync_ms); }},
        {"cofiring.intervals_ms", "directed lags that also join neurons, e.g. \"0-2,2-5\" (default none)",
         [](RunConfig& c, const Json& v, const std::string& w) { c.intervals_ms = lags(v, w); },
         [](const RunConfig& c) { return Json(c.intervals_ms); }},
        {"cofiring.baseline_ms", "the lags that give chance, both ways, to co-firing and episodes (auto: 20-40, or 6 to 10 steps "
                                 "of a coarser time grid)", [](RunConfig& c, const Json& v, const std::string& w) { c.baseline_ms = lags(v, w); },
         [](const RunConfig& c) { return Json(c.baseline_ms); }},
        {"cofiring.chance", "baseline or independent", [](RunConfig& c, const Json& v, const std::string& w) { c.chance = text(v, w); },
         [](const RunConfig& c) { return Json(c.chance); }},
        {"cofiring.edge_test", "analytic, or surrogate: each edge found is also counted in surrogates (the significance "
                               "settings) and kept when it beats them",
         [](RunConfig& c, const Json& v, const std::string& w) { c.edge_test = text(v, w); },
         [](const RunConfig& c) { return Json(c.edge_test); }},
        {"cofiring.correction", "bh or bonferroni", [](RunConfig& c, const Json& v, const std::string& w) { c.correction = text(v, w); },
         [](const RunConfig& c) { return Json(c.correction); }},
        {"cofiring.q", "the correction's rate", [](RunConfig& c, const Json& v, const std::string& w) { c.q = number(v, w); },
         [](const RunConfig& c) { return Json(c.q); }},
        {"significance.q", "keep only episodes more frequent than in surrogates, and test each assembly's activations, at this "
                           "false discovery rate (0: off)",
         [](RunConfig& c, const Json& v, const std::string& w) { c.significance_q = number(v, w); },
         [](const RunConfig& c) { return Json(c.significance_q); }},
        {"significance.surrogates", "surrogate recordings per test (an item stops once 10 reach its count)",
         [](RunConfig& c, const Json& v, const std::string& w) { c.surrogates = whole(v, w); },
         [](const RunConfig& c) { return Json(c.surrogates); }},
        {"significance.surrogate", "dither, isi or shift", [](RunConfig& c, const Json& v, const std::string& w) { c.surrogate = text(v, w); },
         [](const RunConfig& c) { return Json(c.surrogate); }},
        {"significance.dither_ms", "the surrogates' largest move in ms",
         [](RunConfig& c, const Json& v, const std::string& w) { c.dither_ms = number(v, w); },
         [](const RunConfig& c) { return Json(c.dither_ms); }},
        {"significance.refractory_ms", "dither and isi keep a neuron's spikes this far apart, in ms",
         [](RunConfig& c, const Json& v, const std::string& w) { c.refractory_ms = number(v, w); },
         [](const RunConfig& c) { return Json(c.refractory_ms); }},
        {"significance.seed", "the surrogates' seed", [](RunConfig& c, const Json& v, const std::string& w) { c.surrogate_seed = whole(v, w); },
         [](const RunConfig& c) { return Json(c.surrogate_seed); }},
        {"assemblies.min_size", "the smallest assembly", [](RunConfig& c, const Json& v, const std::string& w) { c.min_size = whole(v, w); },
         [](const RunConfig& c) { return Json(c.min_size); }},
        {"assemblies.jaccard", "cliques of consecutive windows with this Jaccard similarity are one assembly",
         [](RunConfig& c, const Json& v, const std::string& w) { c.jaccard = number(v, w); }, [](const RunConfig& c) { return Json(c.jaccard); }},
        {"assemblies.max_gap", "windows an assembly may go unseen and go on", [](RunConfig& c, const Json& v, const std::string& w) { c.max_gap = whole(v, w); },
         [](const RunConfig& c) { return Json(c.max_gap); }},
        {"assemblies.min_windows", "assemblies seen in fewer windows are left out",
         [](RunConfig& c, const Json& v, const std::string& w) { c.min_windows = whole(v, w); },
         [](const RunConfig& c) { return Json(c.min_windows); }},
        {"analytics", "components and PageRank of every window's graph", [](RunConfig& c, const Json& v, const std::string& w) { c.analytics = flag(v, w); },
         [](const RunConfig& c) { return Json(c.analytics); }},
        {"nwb", "also write results.nwb: the input NWB file (a copy) or a new one of the recording's units, with the results in "
                "processing/spikeminer",
         [](RunConfig& c, const Json& v, const std::string& w) { c.nwb = flag(v, w); }, [](const RunConfig& c) { return Json(c.nwb); }},
        {"memory_budget", "bytes of memory a stage may take, e.g. \"4G\" (auto: half what is available)",
         [](RunConfig& c, const Json& v, const std::string& w) { c.memory_budget = text(v, w); },
         [](const RunConfig& c) { return Json(c.memory_budget); }},
        {"backend", "auto, cpu or gpu", [](RunConfig& c, const Json& v, const std::string& w) { c.backend = text(v, w); },
         [](const RunConfig& c) { return Json(c.backend); }},
        {"threads", "CPU threads (0: all)",
         [](RunConfig& c, const Json& v, const std::string& w) {
             const std::uint64_t t = whole(v, w);
             if (t > 4096) wrong(w, "at most 4096");
             c.threads = static_cast<unsigned>(t);
         },
         [](const RunConfig& c) { return Json(c.threads); }},
        {"devices", "GPUs to share the work over, e.g. [0, 1] (default: the current one)",
         [](RunConfig& c, const Json& v, const std::string& w) {
             if (!v.is_array()) wrong(w, "a list of device numbers");
             c.devices.clear();
             for (const Json& d : v) {
                 const std::uint64_t device = whole(d, w);
                 if (device > 1024) wrong(w, "a list of device numbers, each at most 1024");
                 c.devices.push_back(static_cast<int>(device));
             }
         },
         [](const RunConfig& c) { return Json(c.devices); }},
    };
    return table;
}

// Sets every leaf of `object` under `prefix`.
void apply_object(RunConfig& config, const Json& object, const std::string& prefix, const std::string& source) {
    for (const auto& [name, value] : object.items()) {
        const std::string path = prefix.empty() ? name : prefix + "." + name;
        const std::string where = source + ": " + in_quotes(path);
        const auto& table = keys();
        const auto key = std::find_if(table.begin(), table.end(), [&](const Key& k) { return path == k.path; });
        if (key != table.end()) {
            key->set(config, value, where);
            continue;
        }
        const bool is_section = std::any_of(table.begin(), table.end(), [&](const Key& k) { return std::string(k.path).starts_with(path + "."); });
        if (!is_section) throw UsageError(source + ": unknown key " + in_quotes(path));
        if (!value.is_object()) wrong(where, "an object");
        apply_object(config, value, path, source);
    }
}

}  // namespace

std::vector<std::pair<std::string, std::string>> config_keys() {
    std::vector<std::pair<std::string, std::string>> out;
    for (const Key& k : keys()) out.emplace_back(k.path, k.help);
    return out;
}

void apply_json(RunConfig& config, const std::string& text, const std::string& source) {
    Json json;
    try {
        json = Json::parse(text);
    } catch (const Json::parse_error& e) {
        throw UsageError(source + ": not JSON (byte " + std::to_string(e.byte) + ")");
    } catch (const Json::exception& e) {  // a number beyond double's range
        throw UsageError(source + ": not JSON the program can take: " + e.what());
    }
    if (!json.is_object()) throw UsageError(source + ": a run config is a JSON object");
    apply_object(config, json, "", source);
}

void validate(const RunConfig& c) {
    if (c.input.empty() == c.simulate.empty()) throw UsageError("give a recording or a scenario to simulate (one of them)");
    if (c.duration_s && !(*c.duration_s > 0)) throw UsageError("the simulation's duration must be positive");
    if (!(c.window_s >= 0) || !(c.step_s >= 0) || !std::isfinite(c.window_s) || !std::isfinite(c.step_s)) {
        throw UsageError("the co-firing window and step must be positive (or auto)");
    }
    // 10^9 s (32 years) in ticks stays far within 2^62 at any tick the readers take.
    if (c.window_s > 1e9 || c.step_s > 1e9) {
        throw UsageError("the co-firing window and step are at most 1e9 s (about 32 years), not " + shown(std::max(c.window_s, c.step_s)) + " s");
    }
    if (c.window_s > 0 && c.step_s > 0) {
        const double steps = c.window_s / c.step_s;
        if (steps < 1 - 1e-9 || std::fabs(steps - std::round(steps)) > 1e-9 * steps) {
            throw UsageError("the co-firing window must be a whole number of steps");
        }
    }
    if (!(c.q > 0)) throw UsageError("q must be above 0");
    for (const int d : c.devices) {
        if (d < 0) throw UsageError("devices are numbered from 0, not " + std::to_string(d));
    }
    if (!c.devices.empty() && c.backend == "cpu") throw UsageError("devices are GPUs: the cpu backend takes none");
    if (c.min_size < 2) throw UsageError("an assembly has at least 2 neurons");
    if (!(c.jaccard > 0 && c.jaccard <= 1)) throw UsageError("the tracking's Jaccard similarity must lie in (0, 1]");
    if (c.max_level < 1) throw UsageError("the longest episode has at least 1 neuron");
    if (!(c.mining_q >= 0 && c.mining_q <= 1)) throw UsageError("mining q: give a rate in (0, 1], or 0 for no test against chance");
    (void)memory_budget_bytes(c);
    if (c.min_windows < 1) throw UsageError("an assembly is seen in at least 1 window");
    if (c.chance != "baseline" && c.chance != "independent") throw UsageError("chance: choose baseline or independent");
    if (c.correction != "bh" && c.correction != "bonferroni") throw UsageError("correction: choose bh or bonferroni");
    if (c.duplicates != "keep" && c.duplicates != "merge") throw UsageError("duplicates: choose keep or merge");
    if (c.units != "good" && c.units != "all") throw UsageError("units: choose good or all");
    (void)parse_backend(c.backend);
    const RunConfig defaults;
    const bool surrogate_settings = c.surrogates != defaults.surrogates || c.surrogate != defaults.surrogate ||
                                    c.dither_ms != defaults.dither_ms || c.refractory_ms != defaults.refractory_ms ||
                                    c.surrogate_seed != defaults.surrogate_seed;
    if (surrogate_settings && c.significance_q == 0 && c.edge_test != "surrogate") {
        throw UsageError("the surrogates' settings apply with significance.q (--significance) or cofiring.edge_test surrogate "
                         "(--edge-test surrogate)");
    }
    // What the recording's tick does not decide.
    (void)significance_options(c, TimeBase{1'000'000'000});
    (void)mining::surrogate_edge_test(c.edge_test, c.surrogates, c.surrogate, c.dither_ms, c.refractory_ms, c.surrogate_seed,
                                      TimeBase{1'000'000'000});
}

std::optional<mining::SignificanceOptions> significance_options(const RunConfig& c, const TimeBase& time_base) {
    if (c.significance_q == 0) return std::nullopt;
    return mining::significance_options(c.significance_q, c.surrogates, c.surrogate, c.dither_ms, c.refractory_ms, c.surrogate_seed,
                                        time_base, "significance: --");
}

std::string to_json(const RunConfig& config) {
    Json out = Json::object();
    for (const Key& k : keys()) {
        Json* at = &out;
        std::string path = k.path;
        for (auto dot = path.find('.'); dot != std::string::npos; dot = path.find('.')) {
            at = &(*at)[path.substr(0, dot)];
            path = path.substr(dot + 1);
        }
        (*at)[path] = k.get(config);
    }
    return io::json_text(out, 1);
}

std::size_t memory_budget_bytes(const RunConfig& config) {
    if (config.memory_budget == "auto") return host_memory_budget(0);
    return parse_bytes(config.memory_budget, "memory budget");
}

RunConfig demo_config() {
    RunConfig config;
    config.simulate = "demo";
    return config;
}

}  // namespace spikeminer::pipeline
