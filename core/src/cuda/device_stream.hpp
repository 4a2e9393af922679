// An owned CUDA stream that does not synchronize with the legacy default stream.
#pragma once

#include "cuda_check.hpp"

#include <cuda_runtime_api.h>

namespace spikeminer::detail {

class DeviceStream {
public:
    DeviceStream() { SPIKEMINER_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
    ~DeviceStream() { cudaStreamDestroy(stream_); }
    DeviceStream(const DeviceStream&) = delete;
    DeviceStream& operator=(const DeviceStream&) = delete;
    [[nodiscard]] cudaStream_t get() const { return stream_; }

private:
    cudaStream_t stream_{};
};

}  // namespace spikeminer::detail
