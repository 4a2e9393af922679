#pragma once

#include "spikeminer/simulator/network_config.hpp"

#include <string>

namespace spikeminer {

/// Parsers for the simulator's command-line specs. Delays and jitter are in milliseconds
/// and must be whole steps of `step_s`. Each throws UsageError quoting the spec.

/// "0>1>2>3@0.8:5" (strength 0.8, 5 ms per link), "0>1>2@0.7:3-6" (3 to 6 ms),
/// "...+loop" (the last neuron drives the first).
simulator::Chain parse_chain(const std::string& spec, double step_s);
/// "3>7@0.6:4": one link, probability 0.6, delay 4 ms (or a range "2-5").
simulator::Link parse_link(const std::string& spec, double step_s);
/// "4" or "1-20": a delay range in ms (`what` names the option in errors).
simulator::DelayRange parse_delay_range(const std::string& text, double step_s, const std::string& what);
/// "4,5,6@0.5:2" (activation 0.5 Hz, jitter 2 ms), optionally ":0.9" participation, and
/// "/60-120,300-360" for the only stretches (seconds) in which it activates.
simulator::Assembly parse_assembly(const std::string& spec, double step_s);
/// "none", "sine:PERIOD_S:DEPTH" or "updown:PERIOD_S:UP_FRACTION:UP_FACTOR:DOWN_FACTOR".
simulator::Modulation parse_modulation(const std::string& spec);

}  // namespace spikeminer
