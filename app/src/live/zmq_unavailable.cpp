// A build without ZeroMQ: live sockets are refused, saying what to install.
#include "zmq_socket.hpp"
#include "zmq_source.hpp"

#include "spikeminer/core/error.hpp"

namespace spikeminer::live {
namespace {

[[noreturn]] void unavailable(const std::string& what) {
    throw Error(what + ": this build has no ZeroMQ (install libzmq3-dev and build again); files and standard input still work");
}

}  // namespace

ZmqSocket::ZmqSocket(Kind /*kind*/) { unavailable("a ZeroMQ socket"); }
ZmqSocket::~ZmqSocket() = default;
void ZmqSocket::connect(const std::string& endpoint) { unavailable(endpoint); }
void ZmqSocket::bind(const std::string& endpoint) { unavailable(endpoint); }
void ZmqSocket::subscribe_all() {}
bool ZmqSocket::send(std::string_view /*message*/) { return false; }
std::optional<std::string> ZmqSocket::receive(std::chrono::milliseconds /*wait*/) { return std::nullopt; }

std::unique_ptr<LiveSource> open_zmq_source(const std::string& endpoint, std::optional<TimeBase> /*tick*/) { unavailable(endpoint); }

}  // namespace spikeminer::live
