// The network Poisson simulator, event-driven. Each neuron always has one pending
// "candidate" event: the next step at which its resting process (a Bernoulli trial per
// step at the peak resting probability) succeeds, drawn directly as a geometric skip.
// Steps where a neuron receives input, a forced (assembly) spike or a candidate are the
// only steps where anything is computed for it, so the cost follows the spikes.
//
// Exactness of the shortcut: the per-step trials are independent, so at a step with
// input the resting trial is simply replaced by a fresh trial at the input-driven
// probability; when that step held the candidate, the next candidate is drawn again from
// the following step (the geometric law is memoryless). Modulated resting rates are
// obtained by thinning: a candidate at step t is kept with probability p_rest(t) / p_peak.
#include "spikeminer/simulator/simulate.hpp"

#include "event_calendar.hpp"
#include "network.hpp"
#include "random.hpp"

#include "spikeminer/core/error.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace spikeminer::simulator {
namespace {

enum class EventKind : std::uint8_t { Activation, Forced, Input, Candidate };

struct Event {
    EventKind kind;
    std::uint32_t index;  // neuron, or assembly for activations
    double weight;        // input weight
};

// Steps covered by the calendar's ring: inputs (a few steps ahead) and most resting gaps.
constexpr std::int64_t kCalendarWindow = 2048;

// Resting-rate multiplier at time t (seconds) and its peak over the run.
double modulation_factor(const Modulation& m, double t) {
    switch (m.kind) {
        case Modulation::Kind::None: return 1.0;
        case Modulation::Kind::Sine: return 1.0 + m.depth * std::sin(2.0 * std::numbers::pi * t / m.period_s);
        case Modulation::Kind::UpDown: {
            const double phase = std::fmod(t, m.period_s) / m.period_s;
            return phase < m.up_fraction ? m.up_factor : m.down_factor;
        }
    }
    return 1.0;
}

double peak_factor(const Modulation& m) {
    switch (m.kind) {
        case Modulation::Kind::None: return 1.0;
        case Modulation::Kind::Sine: return 1.0 + m.depth;
        case Modulation::Kind::UpDown: return std::max(m.up_factor, m.down_factor);
    }
    return 1.0;
}

class Simulator {
public:
    explicit Simulator(const NetworkConfig& config)
        : config_(config),
          network_(detail::build_network(config)),
          random_(config.seed),
          steps_(std::llround(config.duration_s / config.step_s)),
          step_ticks_(std::llround(config.step_s * static_cast<double>(config.ticks_per_second))),
          refractory_steps_(std::llround(config.refractory_s / config.step_s)),
          lambda_max_(-std::log1p(-config.max_step_probability) / config.step_s),
          input_(config.neurons, 0.0),
          flags_(config.neurons, 0),
          last_spike_(config.neurons, std::numeric_limits<std::int64_t>::min() / 2) {
        const double peak = peak_factor(config.modulation);
        peak_probability_.resize(config.neurons);
        for (std::size_t n = 0; n < config.neurons; ++n) {
            peak_probability_[n] = -std::expm1(-network_.rest_hz[n] * peak * config.step_s);
        }
        if (config.modulation.kind == Modulation::Kind::None) {
            steady_offset_.resize(config.neurons);
            for (std::size_t n = 0; n < config.neurons; ++n) steady_offset_[n] = sigmoid_offset(network_.rest_hz[n]);
        }
    }

    Simulation run(Progress* progress) {
        Simulation result;
        for (const Assembly& assembly : config_.assemblies) {
            GroundTruth::AssemblyTruth truth;
            truth.members = assembly.members;
            truth.activation_rate_hz = assembly.activation_rate_hz;
            truth.jitter = assembly.jitter_steps * step_ticks_;
            for (const ActivePeriod& period : assembly.active) truth.active.push_back({to_ticks(period.start_s), to_ticks(period.end_s)});
            result.truth.assemblies.push_back(truth);
        }
        for (std::size_t n = 0; n < config_.neurons; ++n) schedule_candidate(static_cast<NeuronId>(n), 0);
        for (std::size_t a = 0; a < config_.assemblies.size(); ++a) schedule_activation(static_cast<std::uint32_t>(a), 0);

        if (progress != nullptr) progress->begin("simulating", static_cast<std::uint64_t>(steps_));
        std::vector<NeuronId> touched;
        std::uint64_t handled = 0;
        while (calendar_.advance(steps_)) {
            const std::int64_t step = calendar_.now();
            for (std::size_t i = 0; i < calendar_.current().size(); ++i) {
                handle(calendar_.current()[i], step, touched, result.truth);  // may add to this step
            }
            calendar_.finish_step();
            std::sort(touched.begin(), touched.end());  // spikes come out in (time, neuron) order
            for (NeuronId n : touched) decide(n, step);
            touched.clear();
            if (progress != nullptr && (++handled & 0x3FFF) == 0) progress->update(static_cast<std::uint64_t>(step));
        }
        if (progress != nullptr) progress->finish();

        NeuronTable table;
        for (std::size_t n = 0; n < config_.neurons; ++n) table.labels.push_back(std::to_string(n));
        result.trains = SpikeTrains::from_spikes(std::move(spikes_), std::move(table), TimeBase{config_.ticks_per_second});
        result.trains.set_span(TimeSpan{0, steps_ * step_ticks_});
        for (const Chain& chain : config_.chains) {
            GroundTruth::ChainTruth truth{chain.neurons, chain.strengths, {}, chain.loopback};
            for (const DelayRange& d : chain.delays) truth.delays.push_back(TimeSpan{d.min * step_ticks_, d.max * step_ticks_});
            result.truth.chains.push_back(truth);
        }
        return result;
    }

private:
    static constexpr std::uint8_t kCandidate = 1;
    static constexpr std::uint8_t kInput = 2;
    static constexpr std::uint8_t kForced = 4;

    void push(std::int64_t step, EventKind kind, std::uint32_t index, double weight = 0.0) {
        calendar_.add(step, Event{kind, index, weight});
    }

    void schedule_candidate(NeuronId n, std::int64_t from_step) {
        push(from_step + random_.geometric(peak_probability_[n]), EventKind::Candidate, n);
    }

    void schedule_activation(std::uint32_t a, std::int64_t from_step) {
        const double p = -std::expm1(-config_.assemblies[a].activation_rate_hz * config_.step_s);
        push(from_step + random_.geometric(p), EventKind::Activation, a);
    }

    void touch(NeuronId n, std::uint8_t flag, std::vector<NeuronId>& touched) {
        if (flags_[n] == 0) touched.push_back(n);
        flags_[n] |= flag;
    }

    void handle(Event event, std::int64_t step, std::vector<NeuronId>& touched, GroundTruth& truth) {
        switch (event.kind) {
            case EventKind::Candidate: touch(event.index, kCandidate, touched); break;
            case EventKind::Input:
                input_[event.index] += event.weight;
                touch(event.index, kInput, touched);
                break;
            case EventKind::Forced: touch(event.index, kForced, touched); break;
            case EventKind::Activation: {
                // Outside its active periods the assembly's Poisson process is thinned away.
                const Assembly& assembly = config_.assemblies[event.index];
                if (active(assembly, step)) {
                    truth.assemblies[event.index].activation_times.push_back(step * step_ticks_);
                    for (NeuronId member : assembly.members) {
                        if (assembly.participation < 1.0 && random_.uniform() >= assembly.participation) continue;
                        push(step + random_.uniform_int(0, assembly.jitter_steps), EventKind::Forced, member);
                    }
                }
                schedule_activation(event.index, step + 1);
                break;
            }
        }
    }

    bool active(const Assembly& assembly, std::int64_t step) const {
        if (assembly.active.empty()) return true;
        const Tick t = step * step_ticks_;
        return std::any_of(assembly.active.begin(), assembly.active.end(),
                           [&](const ActivePeriod& p) { return t >= to_ticks(p.start_s) && t < to_ticks(p.end_s); });
    }

    Tick to_ticks(double seconds) const { return TimeBase{config_.ticks_per_second}.from_seconds(seconds); }

    double resting_rate(NeuronId n, std::int64_t step) const {
        return network_.rest_hz[n] * modulation_factor(config_.modulation, static_cast<double>(step) * config_.step_s);
    }

    // The offset that makes the sigmoid give `rest` Hz at zero input.
    double sigmoid_offset(double rest) const { return std::log(lambda_max_ / rest - 1.0); }

    // Whether neuron n fires at `step`, given what touched it; then its bookkeeping.
    void decide(NeuronId n, std::int64_t step) {
        const std::uint8_t flags = flags_[n];
        bool fires = false;
        if ((flags & kForced) != 0) {
            fires = true;
        } else if ((flags & kInput) != 0) {
            // Without modulation the resting rate, so the offset, never changes.
            const double offset = steady_offset_.empty() ? sigmoid_offset(resting_rate(n, step)) : steady_offset_[n];
            const double lambda = lambda_max_ / (1.0 + std::exp(-config_.slope * input_[n] + offset));
            fires = random_.uniform() < -std::expm1(-lambda * config_.step_s);
        } else {
            fires = config_.modulation.kind == Modulation::Kind::None ||
                    random_.uniform() * peak_probability_[n] < -std::expm1(-resting_rate(n, step) * config_.step_s);
        }
        if ((flags & kCandidate) != 0) schedule_candidate(n, step + 1);
        flags_[n] = 0;
        input_[n] = 0.0;
        if (!fires || step - last_spike_[n] <= refractory_steps_) return;
        last_spike_[n] = step;
        spikes_.push_back(Spike{step * step_ticks_, n});
        for (std::size_t l = network_.begin(n); l < network_.end(n); ++l) {
            const detail::OutLink& link = network_.links[l];
            push(step + random_.uniform_int(link.delay.min, link.delay.max), EventKind::Input, link.to, link.weight);
        }
    }

    const NetworkConfig& config_;
    detail::Network network_;
    detail::Random random_;
    std::int64_t steps_;
    std::int64_t step_ticks_;
    std::int64_t refractory_steps_;
    double lambda_max_;
    std::vector<double> peak_probability_;
    std::vector<double> steady_offset_;  // per neuron, when there is no modulation
    std::vector<double> input_;
    std::vector<std::uint8_t> flags_;
    std::vector<std::int64_t> last_spike_;
    detail::EventCalendar<Event> calendar_{kCalendarWindow};
    std::vector<Spike> spikes_;
};

}  // namespace

Simulation simulate(const NetworkConfig& config, Progress* progress) {
    validate(config);
    return Simulator(config).run(progress);
}

}  // namespace spikeminer::simulator
