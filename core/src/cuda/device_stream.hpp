// An owned CUDA stream that does not synchronize with the legacy default stream, and an
// event that orders one stream after another.
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

/// An event for ordering one stream's work after another's (no timing).
class DeviceEvent {
public:
    DeviceEvent() { SPIKEMINER_CUDA_CHECK(cudaEventCreateWithFlags(&event_, cudaEventDisableTiming)); }
    ~DeviceEvent() { cudaEventDestroy(event_); }
    DeviceEvent(const DeviceEvent&) = delete;
    DeviceEvent& operator=(const DeviceEvent&) = delete;

    /// Work queued on `later` from now on runs after the work already queued on `earlier`.
    void order(cudaStream_t earlier, cudaStream_t later) {
        SPIKEMINER_CUDA_CHECK(cudaEventRecord(event_, earlier));
        SPIKEMINER_CUDA_CHECK(cudaStreamWaitEvent(later, event_, 0));
    }

private:
    cudaEvent_t event_{};
};

/// Makes the host wait for the work queued on the legacy default stream (a plain
/// cudaMemcpy from pageable memory may return before its data has landed), so that work
/// then queued on a non-blocking stream sees its results.
inline void wait_for_legacy_stream() { SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(cudaStreamLegacy)); }

}  // namespace spikeminer::detail
