// A CUDA graph captured from the work that some host code queues on a stream, replayed
// later with one launch (for sequences of many small kernels, whose launches cost more
// than their work).
#pragma once

#include "cuda_check.hpp"

#include <cuda_runtime_api.h>

#include <utility>

namespace spikeminer::detail {

class CapturedGraph {
public:
    CapturedGraph() = default;
    ~CapturedGraph() {
        if (exec_ != nullptr) cudaGraphExecDestroy(exec_);
    }
    CapturedGraph(CapturedGraph&& other) noexcept : exec_(std::exchange(other.exec_, nullptr)) {}
    CapturedGraph& operator=(CapturedGraph&& other) noexcept {
        std::swap(exec_, other.exec_);
        return *this;
    }
    CapturedGraph(const CapturedGraph&) = delete;
    CapturedGraph& operator=(const CapturedGraph&) = delete;

    /// What `queue()` puts on `stream`, captured (nothing runs). `queue` must not wait for
    /// the stream; every pointer and size it passes is fixed into the graph.
    template <typename Queue>
    static CapturedGraph capture(cudaStream_t stream, Queue&& queue) {
        SPIKEMINER_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed));
        cudaGraph_t graph = nullptr;
        try {
            queue();
        } catch (...) {
            cudaStreamEndCapture(stream, &graph);
            if (graph != nullptr) cudaGraphDestroy(graph);
            cudaGetLastError();
            throw;
        }
        SPIKEMINER_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
        CapturedGraph out;
        const cudaError_t status = cudaGraphInstantiate(&out.exec_, graph, 0);
        cudaGraphDestroy(graph);
        SPIKEMINER_CUDA_CHECK(status);
        return out;
    }

    void launch(cudaStream_t stream) const { SPIKEMINER_CUDA_CHECK(cudaGraphLaunch(exec_, stream)); }

private:
    cudaGraphExec_t exec_ = nullptr;
};

}  // namespace spikeminer::detail
