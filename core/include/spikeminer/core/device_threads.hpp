// Work shared over several CUDA devices of one host: one host thread per device.
#pragma once

#include <cstddef>
#include <functional>
#include <span>

namespace spikeminer {

/// A share of work that runs on the host only: on_devices makes no device current for it.
inline constexpr int kNoDevice = -1;

/// Runs work(i) for every i in [0, devices.size()) at once, each on its own thread with
/// devices[i] made current there (use_device), and waits for all. Rethrows the first
/// failure once every thread has ended. A device may be named twice (one device standing
/// in for two); kNoDevice makes none current. In a build without CUDA no device is made
/// current.
void on_devices(std::span<const int> devices, const std::function<void(std::size_t)>& work);

}  // namespace spikeminer
