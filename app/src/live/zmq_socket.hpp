#pragma once
// A ZeroMQ socket with its own context, closed with it; messages go out and in whole
// (zmq_socket.cpp; zmq_unavailable.cpp in a build without ZeroMQ).

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace spikeminer::live {

class ZmqSocket {
public:
    enum class Kind { Sub, Pub };
    /// A socket that keeps every message queued (no high-water mark); closed, a PUB socket
    /// still sends what it holds for a second, a SUB drops it. Throws Error in a build
    /// without ZeroMQ.
    explicit ZmqSocket(Kind kind);
    ~ZmqSocket();
    ZmqSocket(const ZmqSocket&) = delete;
    ZmqSocket& operator=(const ZmqSocket&) = delete;

    /// Throws Error naming the endpoint and why.
    void connect(const std::string& endpoint);
    void bind(const std::string& endpoint);
    /// SUB: receive every message.
    void subscribe_all();
    /// Sends one message; false when it could not be queued.
    bool send(std::string_view message);
    /// The next message, waiting at most `wait`; none when none came (or a signal came).
    std::optional<std::string> receive(std::chrono::milliseconds wait);

private:
    void* context_ = nullptr;
    void* socket_ = nullptr;
};

}  // namespace spikeminer::live
