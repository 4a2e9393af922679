#include "spikeminer/core/device_threads.hpp"

#include "spikeminer/core/device_query.hpp"
#include "spikeminer/core/first_failure.hpp"

#include <thread>
#include <vector>

namespace spikeminer {

void enter_device(int device) {
    if (device != kNoDevice) use_device(device);
}

void on_devices(std::span<const int> devices, const std::function<void(std::size_t)>& work) {
    FirstFailure failure;
    {
        std::vector<std::jthread> threads;
        threads.reserve(devices.size());
        for (std::size_t i = 0; i < devices.size(); ++i) {
            threads.emplace_back([&, i] {
                failure.run([&] {
                    enter_device(devices[i]);
                    work(i);
                });
            });
        }
    }  // the jthreads join here
    failure.rethrow_if_failed();
}

}  // namespace spikeminer
