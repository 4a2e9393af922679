#pragma once

#include <hdf5.h>

#include <string>
#include <utility>

namespace spikeminer::io::detail {

/// Owns one HDF5 identifier and closes it with the matching H5?close on every path out.
class H5Handle {
public:
    using Closer = herr_t (*)(hid_t);

    H5Handle() = default;
    H5Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
    H5Handle(H5Handle&& other) noexcept : id_(std::exchange(other.id_, H5I_INVALID_HID)), closer_(other.closer_) {}
    H5Handle& operator=(H5Handle&& other) noexcept {
        if (this != &other) {
            reset();
            id_ = std::exchange(other.id_, H5I_INVALID_HID);
            closer_ = other.closer_;
        }
        return *this;
    }
    H5Handle(const H5Handle&) = delete;
    H5Handle& operator=(const H5Handle&) = delete;
    ~H5Handle() { reset(); }

    [[nodiscard]] hid_t get() const { return id_; }
    [[nodiscard]] bool valid() const { return id_ >= 0; }

private:
    void reset() {
        if (id_ >= 0 && closer_ != nullptr) closer_(id_);
        id_ = H5I_INVALID_HID;
    }

    hid_t id_ = H5I_INVALID_HID;
    Closer closer_ = nullptr;
};

/// Whether the object at `path` exists under `location`: H5Lexists needs each parent to
/// exist, so the path is tested one component at a time ("/" itself always exists).
inline bool path_exists(hid_t location, const std::string& path) {
    std::size_t end = !path.empty() && path.front() == '/' ? 1 : 0;
    while (end != std::string::npos) {
        end = path.find('/', end + 1);
        const std::string prefix = path.substr(0, end);
        if (prefix != "/" && H5Lexists(location, prefix.c_str(), H5P_DEFAULT) <= 0) return false;
    }
    return true;
}

}  // namespace spikeminer::io::detail
