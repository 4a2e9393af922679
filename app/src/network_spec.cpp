#include "spikeminer/app/network_spec.hpp"

#include "spikeminer/core/error.hpp"

#include <charconv>
#include <cmath>
#include <string_view>
#include <vector>

namespace spikeminer {
namespace {

std::vector<std::string_view> split(std::string_view text, char separator) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    for (;;) {
        const auto at = text.find(separator, start);
        parts.push_back(text.substr(start, at == std::string_view::npos ? at : at - start));
        if (at == std::string_view::npos) return parts;
        start = at + 1;
    }
}

// Built by appends: GCC 12 warns falsely (-Wrestrict) on "'" + std::string(...).
std::string quoted(std::string_view text) {
    std::string out = "'";
    out += text;
    out += '\'';
    return out;
}

[[noreturn]] void fail(const std::string& kind, const std::string& spec, const std::string& why) {
    throw UsageError(kind + " '" + spec + "': " + why);
}

double number(std::string_view text, const std::string& kind, const std::string& spec) {
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size()) fail(kind, spec, quoted(text) + " is not a number");
    return value;
}

NeuronId neuron(std::string_view text, const std::string& kind, const std::string& spec) {
    unsigned long value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size() || value > UINT32_MAX) {
        fail(kind, spec, quoted(text) + " is not a neuron index");
    }
    return static_cast<NeuronId>(value);
}

std::int64_t ms_to_steps(std::string_view text, double step_s, const std::string& kind, const std::string& spec) {
    const double ms = number(text, kind, spec);
    if (!(step_s > 0.0)) fail(kind, spec, "the step must be positive");
    const double steps = ms * 1e-3 / step_s;
    if (!std::isfinite(steps) || std::fabs(steps) > 1e15) fail(kind, spec, std::string(text) + " ms is out of range");
    if (std::fabs(steps - std::round(steps)) > 1e-9 * std::max(1.0, steps)) {
        fail(kind, spec, std::string(text) + " ms is not a whole number of " + std::to_string(step_s * 1e3) + " ms steps");
    }
    return std::llround(steps);
}

simulator::DelayRange delay_range(std::string_view text, double step_s, const std::string& kind, const std::string& spec) {
    const auto bounds = split(text, '-');
    if (bounds.size() > 2) fail(kind, spec, "a delay is 'MS' or 'MIN-MAX' in ms");
    return simulator::DelayRange{ms_to_steps(bounds.front(), step_s, kind, spec),
                                 ms_to_steps(bounds.back(), step_s, kind, spec)};
}

}  // namespace

simulator::DelayRange parse_delay_range(const std::string& text, double step_s, const std::string& what) {
    return delay_range(text, step_s, what, text);
}

namespace {

// "NEURONS@A:B" -> {NEURONS, A, B}
struct Parts {
    std::string_view neurons;
    std::vector<std::string_view> values;
};

Parts parts_of(std::string_view spec, const std::string& kind, const std::string& full, std::size_t min_values,
               std::size_t max_values) {
    const auto at = spec.find('@');
    if (at == std::string_view::npos) fail(kind, full, "expected NEURONS@VALUES");
    Parts parts{spec.substr(0, at), split(spec.substr(at + 1), ':')};
    if (parts.values.size() < min_values || parts.values.size() > max_values) fail(kind, full, "wrong number of ':' fields");
    return parts;
}

}  // namespace

simulator::Chain parse_chain(const std::string& spec, double step_s) {
    const std::string kind = "chain";
    std::string_view body = spec;
    simulator::Chain chain;
    if (body.ends_with("+loop")) {
        chain.loopback = true;
        body.remove_suffix(5);
    }
    const Parts parts = parts_of(body, kind, spec, 2, 2);
    for (std::string_view n : split(parts.neurons, '>')) chain.neurons.push_back(neuron(n, kind, spec));
    if (chain.neurons.size() < 2) fail(kind, spec, "needs at least two neurons joined by '>'");
    const std::size_t links = chain.neurons.size() - 1 + (chain.loopback ? 1 : 0);
    chain.strengths.assign(links, number(parts.values[0], kind, spec));
    chain.delays.assign(links, delay_range(parts.values[1], step_s, kind, spec));
    return chain;
}

simulator::Link parse_link(const std::string& spec, double step_s) {
    const std::string kind = "link";
    const Parts parts = parts_of(spec, kind, spec, 2, 2);
    const auto ends = split(parts.neurons, '>');
    if (ends.size() != 2) fail(kind, spec, "expected FROM>TO");
    return simulator::Link{neuron(ends[0], kind, spec), neuron(ends[1], kind, spec), number(parts.values[0], kind, spec),
                           delay_range(parts.values[1], step_s, kind, spec)};
}

simulator::Assembly parse_assembly(const std::string& spec, double step_s) {
    const std::string kind = "assembly";
    std::string_view body = spec;
    simulator::Assembly assembly;
    if (const auto slash = body.find('/'); slash != std::string_view::npos) {
        for (std::string_view period : split(body.substr(slash + 1), ',')) {
            const auto ends = split(period, '-');
            if (ends.size() != 2) fail(kind, spec, "an active period is START-END in seconds");
            assembly.active.push_back({number(ends[0], kind, spec), number(ends[1], kind, spec)});
        }
        body = body.substr(0, slash);
    }
    const Parts parts = parts_of(body, kind, spec, 2, 3);
    for (std::string_view n : split(parts.neurons, ',')) assembly.members.push_back(neuron(n, kind, spec));
    assembly.activation_rate_hz = number(parts.values[0], kind, spec);
    assembly.jitter_steps = ms_to_steps(parts.values[1], step_s, kind, spec);
    if (parts.values.size() == 3) assembly.participation = number(parts.values[2], kind, spec);
    return assembly;
}

simulator::Modulation parse_modulation(const std::string& spec) {
    const std::string kind = "modulation";
    const auto fields = split(spec, ':');
    simulator::Modulation m;
    if (fields[0] == "none" && fields.size() == 1) return m;
    if (fields[0] == "sine" && fields.size() == 3) {
        m.kind = simulator::Modulation::Kind::Sine;
        m.period_s = number(fields[1], kind, spec);
        m.depth = number(fields[2], kind, spec);
        return m;
    }
    if (fields[0] == "updown" && fields.size() == 5) {
        m.kind = simulator::Modulation::Kind::UpDown;
        m.period_s = number(fields[1], kind, spec);
        m.up_fraction = number(fields[2], kind, spec);
        m.up_factor = number(fields[3], kind, spec);
        m.down_factor = number(fields[4], kind, spec);
        return m;
    }
    fail(kind, spec, "expected none, sine:PERIOD_S:DEPTH or updown:PERIOD_S:UP_FRACTION:UP_FACTOR:DOWN_FACTOR");
}

}  // namespace spikeminer
