// Work shared over several CUDA devices of one host: one host thread per device.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <vector>

namespace spikeminer {

/// A share of work that runs on the host only: on_devices makes no device current for it.
inline constexpr int kNoDevice = -1;

/// Makes `device` current on this thread (use_device); nothing for kNoDevice.
void enter_device(int device);

/// Runs work(i) for every i in [0, devices.size()) at once, each on its own thread with
/// devices[i] made current there (enter_device), and waits for all. Rethrows the first
/// failure once every thread has ended. A device may be named twice (one device standing
/// in for two). In a build without CUDA no device is made current.
void on_devices(std::span<const int> devices, const std::function<void(std::size_t)>& work);

/// One T per device, each made, used and destroyed with its device current (on_devices):
/// what a device's memory, streams and pools need. When making one fails, those made are
/// destroyed on their devices before the failure goes on.
template <typename T>
class PerDevice {
public:
    PerDevice(std::vector<int> devices, const std::function<std::unique_ptr<T>(std::size_t)>& make)
        : devices_(std::move(devices)), items_(devices_.size()) {
        try {
            on_devices(devices_, [&](std::size_t i) { items_[i] = make(i); });
        } catch (...) {
            release();
            throw;
        }
    }
    ~PerDevice() { release(); }
    PerDevice(const PerDevice&) = delete;
    PerDevice& operator=(const PerDevice&) = delete;

    [[nodiscard]] std::size_t size() const { return items_.size(); }
    [[nodiscard]] const std::vector<int>& devices() const { return devices_; }
    /// Item i, to be used on a thread where devices()[i] is current.
    [[nodiscard]] T& operator[](std::size_t i) { return *items_[i]; }
    [[nodiscard]] const T& operator[](std::size_t i) const { return *items_[i]; }
    /// Runs work(i, item i) on every device at once (on_devices).
    void each(const std::function<void(std::size_t, T&)>& work) {
        on_devices(devices_, [&](std::size_t i) { work(i, *items_[i]); });
    }
    void each(const std::function<void(std::size_t, const T&)>& work) const {
        on_devices(devices_, [&](std::size_t i) { work(i, *items_[i]); });
    }

private:
    void release() noexcept {
        try {
            on_devices(devices_, [&](std::size_t i) { items_[i].reset(); });
        } catch (...) {  // a device that cannot be made current: its items are freed here, as they can be
        }
        items_.clear();
    }

    std::vector<int> devices_;
    std::vector<std::unique_ptr<T>> items_;
};

}  // namespace spikeminer
