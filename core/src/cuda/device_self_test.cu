// The device self-test: a CUB exclusive scan checked against the CPU. It proves that the
// build's machine code runs on this device and that CUB's device-wide primitives work.
#include "device_calls.cuh"
#include "spikeminer/core/device_query.hpp"

#include <cub/device/device_scan.cuh>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <numeric>
#include <sstream>
#include <vector>

namespace spikeminer {

using detail::DeviceBuffer;
using detail::Widen;

DeviceSelfTest run_device_self_test(int device, std::size_t n) {
    SPIKEMINER_CUDA_CHECK(cudaSetDevice(device));
    std::vector<std::uint32_t> counts(n);
    std::uint64_t state = 0x9E3779B97F4A7C15ull;
    for (auto& c : counts) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        c = static_cast<std::uint32_t>(state % 1000);
    }
    std::vector<std::uint64_t> expected(n);
    std::exclusive_scan(counts.begin(), counts.end(), expected.begin(), std::uint64_t{0});

    DeviceBuffer<std::uint32_t> d_counts(n);
    DeviceBuffer<std::uint64_t> d_offsets(n);
    SPIKEMINER_CUDA_CHECK(cudaMemcpy(d_counts.get(), counts.data(), n * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
    // Scan into 64-bit offsets: the sum of many 32-bit counts overflows 32 bits.
    auto widened = thrust::make_transform_iterator(d_counts.get(), Widen{});
    std::size_t temp_bytes = 0;
    SPIKEMINER_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, widened, d_offsets.get(), n));
    DeviceBuffer<unsigned char> d_temp(temp_bytes);
    SPIKEMINER_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(d_temp.get(), temp_bytes, widened, d_offsets.get(), n));
    SPIKEMINER_CUDA_CHECK(cudaDeviceSynchronize());
    const auto start = std::chrono::steady_clock::now();
    SPIKEMINER_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(d_temp.get(), temp_bytes, widened, d_offsets.get(), n));
    SPIKEMINER_CUDA_CHECK(cudaDeviceSynchronize());
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    std::vector<std::uint64_t> offsets(n);
    SPIKEMINER_CUDA_CHECK(
        cudaMemcpy(offsets.data(), d_offsets.get(), n * sizeof(std::uint64_t), cudaMemcpyDeviceToHost));

    DeviceSelfTest result;
    const auto mismatch = std::mismatch(offsets.begin(), offsets.end(), expected.begin());
    result.passed = mismatch.first == offsets.end();
    std::ostringstream detail;
    detail << "CUB exclusive scan of " << n << " counts (32-bit in, 64-bit out) ";
    if (result.passed) {
        result.bandwidth_gbs = static_cast<double>(n) * 12.0 / seconds / 1e9;
        detail << "matches the CPU; " << result.bandwidth_gbs << " GB/s";
    } else {
        const auto at = static_cast<std::size_t>(mismatch.first - offsets.begin());
        detail << "differs from the CPU at element " << at << ": " << offsets[at] << " != " << expected[at];
    }
    result.detail = detail.str();
    return result;
}

}  // namespace spikeminer
