#pragma once
// The upper tails the tests use, summed exactly (term by term from the count away from the
// mean), shared with the co-firing engine's kernels.

#include <cstdint>

namespace spikeminer::mining {

/// P(X >= c) for X ~ Binomial(n, pi), 0 < pi < 1.
double binomial_tail(std::uint64_t c, std::uint64_t n, double pi);

/// P(X >= c) for X ~ Poisson(mu).
double poisson_tail(std::uint64_t c, double mu);

}  // namespace spikeminer::mining
