// The sequential packed memory array (see cpu_pma.hpp for the design).
#include "spikeminer/graph/cpu_pma.hpp"

#include "spikeminer/core/error.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace spikeminer::graph {
std::size_t PmaDensity::segment_size(std::size_t capacity) {
    const auto log = static_cast<std::size_t>(std::bit_width(capacity) - 1);
    return std::max<std::size_t>(8, std::bit_ceil(log));
}

std::size_t PmaDensity::capacity_for(std::size_t keys, double fill, std::size_t at_least) {
    std::size_t capacity = at_least;
    while (static_cast<double>(keys) > fill * static_cast<double>(capacity)) capacity *= 2;
    return capacity;
}

CpuPma::CpuPma(Vertex vertices) : vertices_(vertices) {
    check_vertex_count(vertices);
    row_start_.assign(static_cast<std::size_t>(vertices) + 1, 0);
    rebuild(kMinCapacity, std::nullopt);
}

int CpuPma::height() const { return static_cast<int>(std::bit_width(segments())) - 1; }

std::size_t CpuPma::window_count(std::size_t first, std::size_t last) const {
    std::size_t n = 0;
    for (std::size_t s = first; s < last; ++s) n += counts_[s];
    return n;
}

// The last segment whose first key is <= key (segment 0 when none is): a binary search
// over the segments' first keys that steps left past empty segments.
std::size_t CpuPma::find_segment(std::uint64_t key) const {
    std::size_t answer = 0;
    std::size_t lo = 0;
    std::size_t hi = segments();
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        std::size_t m = mid + 1;
        while (m > lo && counts_[m - 1] == 0) --m;
        if (m == lo) {  // [lo, mid] all empty
            lo = mid + 1;
            continue;
        }
        --m;
        if (keys_[m * segment_] <= key) {
            answer = m;
            lo = mid + 1;
        } else {
            hi = m;
        }
    }
    return answer;
}

std::optional<std::size_t> CpuPma::position(std::uint64_t key) const {
    const std::size_t s = find_segment(key);
    const auto begin = keys_.begin() + static_cast<std::ptrdiff_t>(s * segment_);
    const auto end = begin + counts_[s];
    const auto it = std::lower_bound(begin, end, key);
    if (it == end || *it != key) return std::nullopt;
    return static_cast<std::size_t>(it - keys_.begin());
}

std::optional<float> CpuPma::find(Vertex src, Vertex dst) const {
    if (src >= vertices_ || dst >= vertices_) return std::nullopt;
    const auto p = position(edge_key(src, dst));
    return p ? std::optional<float>(values_[*p]) : std::nullopt;
}

std::size_t CpuPma::degree(Vertex v) const {
    std::size_t d = 0;
    for_each_neighbor(v, [&d](Vertex, float) { ++d; });
    return d;
}

std::optional<std::pair<std::size_t, std::size_t>> CpuPma::fitting_window(std::size_t s, bool inserting) const {
    const int h = height();
    for (int level = 1; level <= h; ++level) {
        const std::size_t width = std::size_t{1} << level;
        const std::size_t first = s / width * width;
        const auto count = static_cast<double>(window_count(first, first + width));
        const auto slots = static_cast<double>(width * segment_);
        if (inserting ? count + 1 <= PmaDensity::upper(level, h) * slots : count >= PmaDensity::lower(level, h) * slots) {
            return std::make_pair(first, first + width);
        }
    }
    return std::nullopt;
}

bool CpuPma::insert(std::uint64_t key, float value) {
    const std::size_t s = find_segment(key);
    const std::size_t base = s * segment_;
    const auto begin = keys_.begin() + static_cast<std::ptrdiff_t>(base);
    const auto end = begin + counts_[s];
    const auto it = std::lower_bound(begin, end, key);
    const auto at = static_cast<std::size_t>(it - keys_.begin());
    if (it != end && *it == key) {
        values_[at] = value;
        return false;
    }
    const int h = height();
    if (static_cast<double>(counts_[s] + 1) <= PmaDensity::upper(0, h) * static_cast<double>(segment_)) {
        std::move_backward(keys_.begin() + static_cast<std::ptrdiff_t>(at), keys_.begin() + static_cast<std::ptrdiff_t>(base + counts_[s]),
                           keys_.begin() + static_cast<std::ptrdiff_t>(base + counts_[s] + 1));
        std::move_backward(values_.begin() + static_cast<std::ptrdiff_t>(at), values_.begin() + static_cast<std::ptrdiff_t>(base + counts_[s]),
                           values_.begin() + static_cast<std::ptrdiff_t>(base + counts_[s] + 1));
        keys_[at] = key;
        values_[at] = value;
        ++counts_[s];
        ++edges_;
        refresh_starts(s, s + 1);
        return true;
    }
    ++edges_;
    if (const auto window = fitting_window(s, true)) {
        redistribute(window->first, window->second, std::make_pair(key, value));
        return true;
    }
    rebuild(PmaDensity::capacity_for(edges_, PmaDensity::kRootUpper, keys_.size() * 2), std::make_pair(key, value));
    return true;
}

bool CpuPma::erase(std::uint64_t key) {
    const auto p = position(key);
    if (!p) return false;
    const std::size_t s = *p / segment_;
    const std::size_t end = s * segment_ + counts_[s];
    std::move(keys_.begin() + static_cast<std::ptrdiff_t>(*p + 1), keys_.begin() + static_cast<std::ptrdiff_t>(end),
              keys_.begin() + static_cast<std::ptrdiff_t>(*p));
    std::move(values_.begin() + static_cast<std::ptrdiff_t>(*p + 1), values_.begin() + static_cast<std::ptrdiff_t>(end),
              values_.begin() + static_cast<std::ptrdiff_t>(*p));
    keys_[end - 1] = kEmpty;
    --counts_[s];
    --edges_;
    const int h = height();
    if (static_cast<double>(counts_[s]) >= PmaDensity::lower(0, h) * static_cast<double>(segment_)) {
        refresh_starts(s, s + 1);
        return true;
    }
    if (const auto window = fitting_window(s, false)) {
        redistribute(window->first, window->second, std::nullopt);
        return true;
    }
    std::size_t capacity = keys_.size();
    while (capacity > kMinCapacity && static_cast<double>(edges_) < PmaDensity::kRootLower * static_cast<double>(capacity)) {
        capacity /= 2;
    }
    if (capacity != keys_.size()) {
        rebuild(capacity, std::nullopt);
    } else {
        redistribute(0, segments(), std::nullopt);  // the smallest array: just even it out
    }
    return true;
}

// The keys (and values) of segments [first, last), in order, with `extra` merged in.
CpuPma::Run CpuPma::gather(std::size_t first, std::size_t last, const std::optional<std::pair<std::uint64_t, float>>& extra) const {
    Run run;
    run.keys.reserve(window_count(first, last) + 1);
    run.values.reserve(run.keys.capacity());
    for (std::size_t s = first; s < last; ++s) {
        run.keys.insert(run.keys.end(), keys_.begin() + static_cast<std::ptrdiff_t>(s * segment_),
                        keys_.begin() + static_cast<std::ptrdiff_t>(s * segment_ + counts_[s]));
        run.values.insert(run.values.end(), values_.begin() + static_cast<std::ptrdiff_t>(s * segment_),
                          values_.begin() + static_cast<std::ptrdiff_t>(s * segment_ + counts_[s]));
    }
    if (extra) {
        const auto at = std::lower_bound(run.keys.begin(), run.keys.end(), extra->first) - run.keys.begin();
        run.keys.insert(run.keys.begin() + at, extra->first);
        run.values.insert(run.values.begin() + at, extra->second);
    }
    return run;
}

// Writes `run` over segments [first, last), as evenly as whole keys allow, each segment
// packed at its front.
void CpuPma::spread(std::size_t first, std::size_t last, const Run& run) {
    const std::size_t n = run.keys.size();
    const std::size_t m = last - first;
    std::size_t next = 0;
    for (std::size_t s = first; s < last; ++s) {
        const std::size_t share = n / m + ((s - first) < n % m ? 1 : 0);
        const std::size_t base = s * segment_;
        std::copy_n(run.keys.begin() + static_cast<std::ptrdiff_t>(next), share, keys_.begin() + static_cast<std::ptrdiff_t>(base));
        std::copy_n(run.values.begin() + static_cast<std::ptrdiff_t>(next), share, values_.begin() + static_cast<std::ptrdiff_t>(base));
        std::fill(keys_.begin() + static_cast<std::ptrdiff_t>(base + share), keys_.begin() + static_cast<std::ptrdiff_t>(base + segment_), kEmpty);
        counts_[s] = static_cast<std::uint32_t>(share);
        next += share;
    }
    refresh_starts(first, last);
}

void CpuPma::redistribute(std::size_t first, std::size_t last, const std::optional<std::pair<std::uint64_t, float>>& extra) {
    spread(first, last, gather(first, last, extra));
}

void CpuPma::rebuild(std::size_t capacity, const std::optional<std::pair<std::uint64_t, float>>& extra) {
    rebuild(capacity, gather(0, segments(), extra));
}

void CpuPma::rebuild(std::size_t capacity, const Run& run) {
    segment_ = PmaDensity::segment_size(capacity);
    keys_.assign(capacity, kEmpty);
    values_.assign(capacity, 0.0F);
    counts_.assign(capacity / segment_, 0);
    spread(0, segments(), run);
}

void CpuPma::refresh_starts(std::size_t first, std::size_t last) {
    // Vertices whose first key can lie in the window: after the row of the last key
    // before it, up to the row of the first key after it.
    Vertex lo = 0;
    for (std::size_t s = first; s-- > 0;) {
        if (counts_[s] != 0) {
            lo = key_src(keys_[s * segment_ + counts_[s] - 1]) + 1;
            break;
        }
    }
    Vertex hi = vertices_;
    std::size_t next_position = keys_.size();
    for (std::size_t s = last; s < segments(); ++s) {
        if (counts_[s] != 0) {
            hi = key_src(keys_[s * segment_]);
            next_position = s * segment_;
            break;
        }
    }
    std::size_t r = lo;
    for (std::size_t s = first; s < last; ++s) {
        for (std::size_t i = 0; i < counts_[s]; ++i) {
            const std::size_t p = s * segment_ + i;
            while (r <= key_src(keys_[p])) row_start_[r++] = p;
        }
    }
    while (r <= hi) row_start_[r++] = next_position;
}

BatchResult CpuPma::insert_edges(std::span<const EdgeUpdate> batch) {
    for (const EdgeUpdate& u : batch) check_edge(u.src, u.dst, vertices_);
    const std::vector<EdgeUpdate> updates = last_per_key(batch);
    BatchResult result;
    if (updates.size() < std::max<std::size_t>(edges_, kMinCapacity)) {
        for (const EdgeUpdate& u : updates) {
            if (insert(edge_key(u.src, u.dst), u.value)) ++result.applied; else ++result.ignored;
        }
        return result;
    }
    // A batch as large as the graph: one merge and one even spread beat inserting one key
    // at a time (which would rebalance the same windows again and again). The new array
    // is at most 60% full, within every bound.
    const Run old = gather(0, segments(), std::nullopt);
    Run merged;
    merged.keys.reserve(old.keys.size() + updates.size());
    merged.values.reserve(merged.keys.capacity());
    std::size_t i = 0;
    for (const EdgeUpdate& u : updates) {
        const std::uint64_t key = edge_key(u.src, u.dst);
        for (; i < old.keys.size() && old.keys[i] < key; ++i) {
            merged.keys.push_back(old.keys[i]);
            merged.values.push_back(old.values[i]);
        }
        const bool present = i < old.keys.size() && old.keys[i] == key;
        i += present ? 1 : 0;
        ++(present ? result.ignored : result.applied);
        merged.keys.push_back(key);
        merged.values.push_back(u.value);
    }
    merged.keys.insert(merged.keys.end(), old.keys.begin() + static_cast<std::ptrdiff_t>(i), old.keys.end());
    merged.values.insert(merged.values.end(), old.values.begin() + static_cast<std::ptrdiff_t>(i), old.values.end());
    edges_ = merged.keys.size();
    rebuild(PmaDensity::capacity_for(edges_, PmaDensity::kBulkFill, kMinCapacity), merged);
    return result;
}

BatchResult CpuPma::erase_edges(std::span<const EdgeRef> batch) {
    for (const EdgeRef& e : batch) check_edge(e.src, e.dst, vertices_);
    BatchResult result;
    for (const EdgeRef& e : last_per_key(batch)) {
        if (erase(edge_key(e.src, e.dst))) ++result.applied; else ++result.ignored;
    }
    return result;
}

BatchResult CpuPma::update_values(std::span<const EdgeUpdate> batch) {
    for (const EdgeUpdate& u : batch) check_edge(u.src, u.dst, vertices_);
    BatchResult result;
    for (const EdgeUpdate& u : last_per_key(batch)) {
        const auto p = position(edge_key(u.src, u.dst));
        if (p) {
            values_[*p] = u.value;
            ++result.applied;
        } else {
            ++result.ignored;
        }
    }
    return result;
}

}  // namespace spikeminer::graph
