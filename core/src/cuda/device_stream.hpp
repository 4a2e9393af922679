// An owned CUDA stream that does not synchronize with the legacy default stream, and an
// event that orders one stream after another or times the work between two points.
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

/// An event for ordering one stream's work after another's, or, made with `timing`, for
/// the device time between two points of a stream's work.
class DeviceEvent {
public:
    explicit DeviceEvent(bool timing = false) {
        SPIKEMINER_CUDA_CHECK(cudaEventCreateWithFlags(&event_, timing ? cudaEventDefault : cudaEventDisableTiming));
    }
    ~DeviceEvent() { cudaEventDestroy(event_); }
    DeviceEvent(const DeviceEvent&) = delete;
    DeviceEvent& operator=(const DeviceEvent&) = delete;

    /// Marks the point after the work queued on `stream` so far.
    void record(cudaStream_t stream) { SPIKEMINER_CUDA_CHECK(cudaEventRecord(event_, stream)); }

    /// Work queued on `later` from now on runs after the work already queued on `earlier`.
    void order(cudaStream_t earlier, cudaStream_t later) {
        record(earlier);
        SPIKEMINER_CUDA_CHECK(cudaStreamWaitEvent(later, event_, 0));
    }

    /// Device milliseconds from `earlier` to this one (both timing events, both reached).
    [[nodiscard]] float milliseconds_since(const DeviceEvent& earlier) const {
        float ms = 0;
        SPIKEMINER_CUDA_CHECK(cudaEventElapsedTime(&ms, earlier.event_, event_));
        return ms;
    }

private:
    cudaEvent_t event_{};
};

/// Makes the host wait for the work queued on the legacy default stream (a plain
/// cudaMemcpy from pageable memory may return before its data has landed), so that work
/// then queued on a non-blocking stream sees its results.
inline void wait_for_legacy_stream() { SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(cudaStreamLegacy)); }

}  // namespace spikeminer::detail
