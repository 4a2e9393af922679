// See zmq_socket.hpp.
#include "zmq_socket.hpp"

#include "spikeminer/core/error.hpp"

#include <zmq.h>

#include <cerrno>

namespace spikeminer::live {
namespace {

// How long a closed PUB socket keeps sending what it still holds to its subscribers.
constexpr int kPubLingerMs = 1000;

}  // namespace

ZmqSocket::ZmqSocket(Kind kind) : context_(zmq_ctx_new()) {
    if (context_ == nullptr) throw Error(std::string("ZeroMQ: no context: ") + zmq_strerror(errno));
    socket_ = zmq_socket(context_, kind == Kind::Sub ? ZMQ_SUB : ZMQ_PUB);
    if (socket_ == nullptr) {
        zmq_ctx_term(context_);
        throw Error(std::string("ZeroMQ: no socket: ") + zmq_strerror(errno));
    }
    const int unlimited = 0;
    const int linger_ms = kind == Kind::Pub ? kPubLingerMs : 0;  // what was published (the end) still goes out
    zmq_setsockopt(socket_, ZMQ_RCVHWM, &unlimited, sizeof unlimited);
    zmq_setsockopt(socket_, ZMQ_SNDHWM, &unlimited, sizeof unlimited);
    zmq_setsockopt(socket_, ZMQ_LINGER, &linger_ms, sizeof linger_ms);
}

ZmqSocket::~ZmqSocket() {
    zmq_close(socket_);
    zmq_ctx_term(context_);
}

void ZmqSocket::connect(const std::string& endpoint) {
    if (zmq_connect(socket_, endpoint.c_str()) != 0) throw Error(endpoint + ": cannot connect: " + zmq_strerror(errno));
}

void ZmqSocket::bind(const std::string& endpoint) {
    if (zmq_bind(socket_, endpoint.c_str()) != 0) throw Error(endpoint + ": cannot bind: " + zmq_strerror(errno));
}

void ZmqSocket::subscribe_all() { zmq_setsockopt(socket_, ZMQ_SUBSCRIBE, "", 0); }

bool ZmqSocket::send(std::string_view message) { return zmq_send(socket_, message.data(), message.size(), ZMQ_DONTWAIT) >= 0; }

std::optional<std::string> ZmqSocket::receive(std::chrono::milliseconds wait) {
    zmq_pollitem_t item{socket_, 0, ZMQ_POLLIN, 0};
    if (zmq_poll(&item, 1, static_cast<long>(wait.count())) <= 0) return std::nullopt;
    zmq_msg_t message;
    zmq_msg_init(&message);
    if (zmq_msg_recv(&message, socket_, ZMQ_DONTWAIT) < 0) {
        zmq_msg_close(&message);
        return std::nullopt;
    }
    std::string bytes(static_cast<const char*>(zmq_msg_data(&message)), zmq_msg_size(&message));
    zmq_msg_close(&message);
    return bytes;
}

}  // namespace spikeminer::live
