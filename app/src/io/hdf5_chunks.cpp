#include "hdf5_chunks.hpp"

#include "hdf5_handle.hpp"
#include "plain_threads.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/uninitialized.hpp"

#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <new>
#include <optional>
#include <vector>

namespace spikeminer::io::detail {
namespace {

// Undoes the shuffle filter: byte b of element i was stored at b * count + i.
void unshuffle(const unsigned char* in, unsigned char* out, std::size_t element_bytes, std::size_t count) {
    for (std::size_t b = 0; b < element_bytes; ++b) {
        const unsigned char* plane = in + b * count;
        for (std::size_t i = 0; i < count; ++i) out[i * element_bytes + b] = plane[i];
    }
}

// The dataset's filters in the order they were applied when writing, or nullopt unless
// they are one of the pipelines undone here: none, shuffle, deflate, or shuffle then deflate.
std::optional<std::vector<H5Z_filter_t>> filter_pipeline(hid_t properties) {
    std::vector<H5Z_filter_t> filters;
    const int count = H5Pget_nfilters(properties);
    for (int i = 0; i < count; ++i) {
        unsigned flags = 0;
        std::size_t values = 0;
        filters.push_back(H5Pget_filter2(properties, static_cast<unsigned>(i), &flags, &values, nullptr, 0, nullptr, nullptr));
    }
    const std::vector<std::vector<H5Z_filter_t>> known{
        {}, {H5Z_FILTER_SHUFFLE}, {H5Z_FILTER_DEFLATE}, {H5Z_FILTER_SHUFFLE, H5Z_FILTER_DEFLATE}};
    if (std::find(known.begin(), known.end(), filters) == known.end()) return std::nullopt;
    return filters;
}

// Chunks larger than this are left to H5Dread: each thread holds two of them.
constexpr std::size_t kMostChunkBytes = std::size_t{64} << 20;

}  // namespace

bool read_chunks_in_parallel(hid_t dataset, hid_t memory_type, void* out, std::size_t elements, const std::string& where) {
    const H5Handle type(H5Dget_type(dataset), H5Tclose);
    if (elements == 0 || H5Tequal(type.get(), memory_type) <= 0) return false;
    const H5Handle space(H5Dget_space(dataset), H5Sclose);
    if (H5Sget_simple_extent_ndims(space.get()) != 1) return false;
    const H5Handle properties(H5Dget_create_plist(dataset), H5Pclose);
    hsize_t chunk = 0;
    if (H5Pget_layout(properties.get()) != H5D_CHUNKED || H5Pget_chunk(properties.get(), 1, &chunk) != 1 || chunk == 0) return false;
    const std::optional<std::vector<H5Z_filter_t>> pipeline = filter_pipeline(properties.get());
    if (!pipeline) return false;
    const std::vector<H5Z_filter_t>& filters = *pipeline;
    // An edge chunk stored unfiltered carries no mark of it: such datasets go to H5Dread.
    unsigned options = 0;
    if (H5Pget_chunk_opts(properties.get(), &options) < 0 || (options & H5D_CHUNK_DONT_FILTER_PARTIAL_CHUNKS) != 0) return false;

    // The stored chunks, one after another, read on this thread (the library is not
    // thread-safe). A chunk never written leaves the dataset to H5Dread and its fill value.
    const std::size_t element_bytes = H5Tget_size(type.get());
    if (chunk * element_bytes > kMostChunkBytes) return false;
    const std::size_t chunks = (elements + chunk - 1) / chunk;
    std::vector<std::size_t> starts(chunks + 1, 0);
    for (std::size_t c = 0; c < chunks; ++c) {
        const hsize_t offset = c * chunk;
        hsize_t bytes = 0;
        if (H5Dget_chunk_storage_size(dataset, &offset, &bytes) < 0 || bytes == 0) return false;
        starts[c + 1] = starts[c] + bytes;
    }
    std::vector<unsigned char> stored(starts[chunks]);
    std::vector<std::uint32_t> skipped(chunks, 0);  // per chunk: bit i set when filter i was not applied
    for (std::size_t c = 0; c < chunks; ++c) {
        const hsize_t offset = c * chunk;
        if (H5Dread_chunk(dataset, H5P_DEFAULT, &offset, &skipped[c], stored.data() + starts[c]) < 0) {
            throw Error(where + " cannot be read (damaged or truncated file?)");
        }
    }

    const std::size_t chunk_bytes = chunk * element_bytes;
    std::atomic<std::size_t> next{0};
    std::mutex failure_lock;
    std::string failure;
    const auto fail = [&](std::string why) {
        const std::lock_guard lock(failure_lock);
        if (failure.empty()) failure = std::move(why);
        next = chunks;
    };
    const auto work = [&] {
        UninitializedVector<unsigned char> a, b;  // a chunk's bytes between two steps, made when needed
        for (std::size_t c = next++; c < chunks; c = next++) {
            const unsigned char* data = stored.data() + starts[c];
            std::size_t size = starts[c + 1] - starts[c];
            const std::size_t first = c * chunk;
            const std::size_t count = std::min<std::size_t>(chunk, elements - first);
            unsigned char* const destination = static_cast<unsigned char*>(out) + first * element_bytes;
            std::size_t steps = 0;  // the filters applied to this chunk, undone in reverse
            for (std::size_t f = 0; f < filters.size(); ++f) steps += ((skipped[c] >> f) & 1U) == 0 ? 1 : 0;
            for (std::size_t f = filters.size(); f-- > 0;) {
                if ((skipped[c] >> f) & 1U) continue;
                // The last step of a whole chunk writes where the values go; others, to a buffer.
                if (a.empty()) {
                    a.resize(chunk_bytes);
                    b.resize(chunk_bytes);
                }
                unsigned char* to = --steps == 0 && count == chunk ? destination : data == a.data() ? b.data() : a.data();
                if (filters[f] == H5Z_FILTER_DEFLATE) {
                    uLongf inflated = chunk_bytes;
                    if (uncompress(to, &inflated, data, static_cast<uLong>(size)) != Z_OK || inflated != chunk_bytes) {
                        return fail(where + ": chunk " + std::to_string(c) + " does not inflate to its size (damaged file?)");
                    }
                } else {
                    if (size != chunk_bytes) {
                        return fail(where + ": chunk " + std::to_string(c) + " holds " + std::to_string(size) + " bytes, not " +
                                    std::to_string(chunk_bytes) + " (damaged file?)");
                    }
                    unshuffle(data, to, element_bytes, chunk);
                }
                data = to;
                size = chunk_bytes;
            }
            if (data == destination) continue;
            if (size < count * element_bytes) {
                return fail(where + ": chunk " + std::to_string(c) + " is shorter than its elements (damaged file?)");
            }
            std::memcpy(destination, data, count * element_bytes);
        }
    };
    // Each worker takes chunks until none is left, with buffers of its own.
    const std::size_t threads = plain_thread_count();
    on_plain_threads(std::min(threads, chunks), threads, [&](std::size_t /*worker*/) {
        try {
            work();
        } catch (const std::bad_alloc&) {
            fail(where + ": no memory for its chunks");
        }
    });
    if (!failure.empty()) throw Error(failure);
    return true;
}

}  // namespace spikeminer::io::detail
