#include "cofiring_arguments.hpp"

#include "spikeminer/core/error.hpp"

namespace spikeminer::cli {

void CofiringArguments::add_to(CLI::App& command, const std::string& intervals_default) {
    intervals = intervals_default;
    command.add_option("--sync", sync,
                       std::string("two neurons co-fire when their spikes are at most this far apart, either way, in --unit (default ") +
                           mining::kDefaultSyncMs + "; off: no synchrony test)");
    command.add_option("--intervals", intervals,
                       "directed lags lo-hi, one neuron firing after the other, e.g. 0-2,2-5,5-10 (default " +
                           (intervals_default.empty() ? std::string("none") : intervals_default) + ")");
    command.add_option("--baseline", baseline,
                       std::string("chance = the same pair's co-firing at these lags, both ways, so that rates that rise and fall "
                                   "together do not count (default ") +
                           mining::kDefaultBaselineMs + ")");
    command.add_option("--unit", unit, "unit of --sync, --intervals and --baseline: s, ms (default), us, ns");
    command.add_option("--chance", chance, "baseline (default) or independent (trains of constant rate)");
    command.add_option("--correction", correction,
                       "bh (Benjamini-Hochberg: false discovery rate q, default) or bonferroni (chance of any false edge q)");
    command.add_option("--q", q, "the rate q of the correction (default 0.01; 1 turns the test off)")->check(CLI::PositiveNumber);
    command.add_option("--min-count", min_count, "an edge also needs at least this many co-firings (default 1)");
    command.add_option("--min-ratio", min_ratio, "... at least this many times chance (default 0)")->check(CLI::NonNegativeNumber);
    command.add_option("--min-z", min_z, "... at least this many standard deviations of chance above it (default none)");
    CLI::Option* test = command.add_option(
        "--edge-test", edge_test,
        "analytic (default: the test above decides) or surrogate (each edge it finds is counted again in its window in surrogate "
        "recordings and kept when it beats them, corrected at --q)");
    command.add_option("--surrogates", surrogates, "surrogate recordings per edge (default 1000; an edge stops once 10 reach its count)")
        ->needs(test);
    command.add_option("--surrogate", surrogate, "dither (default), isi or shift: how surrogates move spikes (see mine --help)")->needs(test);
    command.add_option("--dither-ms", dither_ms, "the surrogates' largest move in ms (default 10)")->needs(test);
    command.add_option("--refractory-ms", refractory_ms, "dither and isi keep a neuron's spikes this far apart (default 1)")->needs(test);
    command.add_option("--surrogate-seed", surrogate_seed, "the surrogates' seed (default 1)")->needs(test);
    command.add_option("--backend", backend, "auto, cpu or gpu");
    command.add_option("--threads", threads, "CPU threads (default: all)");
}

mining::CofiringOptions CofiringArguments::options(const TimeBase& time_base) const {
    mining::CofiringOptions out;
    out.lags = mining::parse_lags(sync, intervals, baseline, time_base, unit);
    if (chance != "baseline" && chance != "independent") throw UsageError("--chance: choose baseline or independent");
    out.test.chance = chance == "baseline" ? mining::Chance::Baseline : mining::Chance::Independent;
    if (correction != "bh" && correction != "bonferroni") throw UsageError("--correction: choose bh or bonferroni");
    out.test.correction = correction == "bh" ? mining::Correction::BenjaminiHochberg : mining::Correction::Bonferroni;
    out.test.q = q;
    out.test.min_count = min_count;
    out.test.min_ratio = min_ratio;
    if (min_z) out.test.min_z = *min_z;
    const CofiringArguments defaults;
    const bool surrogate_settings = surrogates != defaults.surrogates || surrogate != defaults.surrogate || dither_ms != defaults.dither_ms ||
                                    refractory_ms != defaults.refractory_ms || surrogate_seed != defaults.surrogate_seed;
    if (edge_test != "analytic" && edge_test != "surrogate") throw UsageError("--edge-test: choose analytic or surrogate");
    if (edge_test == "analytic" && surrogate_settings) {
        throw UsageError("--surrogates, --surrogate, --dither-ms, --refractory-ms and --surrogate-seed apply to --edge-test surrogate");
    }
    out.test.surrogates = mining::surrogate_edge_test(edge_test, surrogates, surrogate, dither_ms, refractory_ms, surrogate_seed, time_base);
    out.backend = parse_backend(backend);
    out.threads = threads;
    return out;
}

}  // namespace spikeminer::cli
