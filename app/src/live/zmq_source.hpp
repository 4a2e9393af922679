#pragma once
// A live source on a ZeroMQ SUB socket (zmq_source.cpp).

#include "spikeminer/app/live/live_source.hpp"

namespace spikeminer::live {

/// A SUB socket connected to `endpoint`, subscribed to every message; the messages are
/// kept however many arrive before they are read (no high-water mark), so that none is
/// dropped while a step is decided. Throws Error when it cannot connect.
std::unique_ptr<LiveSource> open_zmq_source(const std::string& endpoint, std::optional<TimeBase> tick);

}  // namespace spikeminer::live
