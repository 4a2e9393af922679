#pragma once

#include <cmath>
#include <cstdint>

namespace spikeminer::simulator::detail {

/// xoshiro256** seeded through splitmix64, with its own uniform, integer and geometric
/// draws: the standard library's distributions differ between implementations, and a
/// simulation must give the same spikes on every machine.
class Random {
public:
    explicit Random(std::uint64_t seed) {
        for (auto& word : state_) word = splitmix(seed);
    }

    std::uint64_t next() {
        const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
        const std::uint64_t t = state_[1] << 17;
        state_[2] ^= state_[0];
        state_[3] ^= state_[1];
        state_[1] ^= state_[2];
        state_[0] ^= state_[3];
        state_[2] ^= t;
        state_[3] = rotl(state_[3], 45);
        return result;
    }

    /// Uniform in [0, 1).
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

    /// Uniform integer in [lo, hi].
    std::int64_t uniform_int(std::int64_t lo, std::int64_t hi) {
        const auto span = static_cast<std::uint64_t>(hi - lo) + 1;
        return lo + static_cast<std::int64_t>(span == 0 ? next() : next() % span);  // bias < 2^-40 for our spans
    }

    /// Failures before the first success of Bernoulli(p) trials (p in (0, 1]).
    std::int64_t geometric(double p) {
        if (p >= 1.0) return 0;
        const double u = 1.0 - uniform();  // (0, 1]
        const double k = std::floor(std::log(u) / std::log1p(-p));
        return k > 4.0e18 ? std::int64_t{4'000'000'000'000'000'000} : static_cast<std::int64_t>(k);
    }

private:
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    static std::uint64_t splitmix(std::uint64_t& x) {
        std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }

    std::uint64_t state_[4];
};

}  // namespace spikeminer::simulator::detail
