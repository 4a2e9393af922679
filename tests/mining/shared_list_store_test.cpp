// The prefix counter over end lists shared by several stores (the multi-GPU path, here with
// CPU stores on host threads): the same counts as one store and as brute force or the
// two-step counter, level after level, with every store given a share.
#include "brute_force.hpp"
#include "catch.hpp"
#include "mining_test_helpers.hpp"
#include "random_streams.hpp"

#include "cpu/cpu_counters.hpp"
#include "prefix_counting.hpp"
#include "shared_list_store.hpp"

#include "spikeminer/core/device_threads.hpp"

#include <algorithm>
#include <atomic>
#include <functional>

using namespace spikeminer;
using namespace spikeminer::mining;
using namespace spikeminer::mining::detail;

namespace {

// A CPU store that counts the extensions it is given.
class CountedStore final : public ListStore {
public:
    CountedStore(std::unique_ptr<ListStore> inner, std::atomic<std::size_t>& given) : inner_(std::move(inner)), given_(given) {}
    std::vector<std::uint64_t> extend(std::span<const Extension> extensions, std::uint64_t keep_at_least) override {
        given_ += extensions.size();
        return inner_->extend(extensions, keep_at_least);
    }
    void retain(std::span<const std::uint32_t> ids) override { inner_->retain(ids); }
    [[nodiscard]] std::size_t size() const override { return inner_->size(); }
    [[nodiscard]] std::uint64_t length(std::uint32_t id) const override { return inner_->length(id); }
    [[nodiscard]] std::size_t host_bytes() const override { return inner_->host_bytes(); }
    [[nodiscard]] std::vector<std::span<const Tick>> ends(std::span<const std::uint32_t> ids,
                                                         std::vector<std::vector<Tick>>& scratch) const override {
        return inner_->ends(ids, scratch);
    }

private:
    std::unique_ptr<ListStore> inner_;
    std::atomic<std::size_t>& given_;
};

struct Shared {
    std::vector<std::atomic<std::size_t>> given;
    PrefixCounting counting;

    Shared(const SpikeTrains& trains, const NeuronTimes& times, std::size_t stores)
        : given(stores), counting(make(trains, times, stores, given), times) {}

    static std::unique_ptr<ListStore> make(const SpikeTrains& trains, const NeuronTimes& times, std::size_t stores,
                                           std::vector<std::atomic<std::size_t>>& given) {
        return std::make_unique<SharedListStore>(std::vector<int>(stores, kNoDevice), times, nullptr, [&](std::size_t i, Progress* progress) {
            return std::make_unique<CountedStore>(make_cpu_list_store(trains, times, 1, progress), given[i]);
        });
    }
};

// Every episode of `prefix` extended by each neuron at each gap.
std::vector<Episode> extensions_of(const std::vector<Episode>& prefixes, std::size_t neurons, const std::vector<Interval>& gaps) {
    std::vector<Episode> out;
    for (const Episode& p : prefixes) {
        for (NeuronId n = 0; n < neurons; ++n) {
            for (const Interval gap : gaps) {
                Episode e = p;
                e.neurons.push_back(n);
                e.gaps.push_back(gap);
                out.push_back(std::move(e));
            }
        }
    }
    return out;
}

}  // namespace

TEST_CASE("shared end lists: the prefix counter over 2 or 3 stores equals brute force on tiny streams", "[mining][counters][devices]") {
    const auto seed = GENERATE(range(std::uint64_t{1}, std::uint64_t{101}));
    const auto stores = GENERATE(std::size_t{2}, std::size_t{3});
    const test::TinyStream stream = test::tiny_stream(seed);
    const NeuronTimes times(stream.trains);
    Shared shared(stream.trains, times, stores);
    // Mixed lengths in one call: every missing prefix is built first, wherever its own prefix lives.
    const std::vector<Episode> episodes = test::random_episodes(seed, stream.neurons, 24);
    const std::vector<std::uint64_t> counts = shared.counting.count(episodes, 1);
    REQUIRE(counts.size() == episodes.size());
    for (std::size_t i = 0; i < episodes.size(); ++i) {
        INFO("seed " << seed << ", " << stores << " stores, episode " << test::describe(episodes[i]));
        CHECK(counts[i] == test::brute_count(stream.trains, episodes[i]));
    }
}

TEST_CASE("shared end lists: three mining levels over 2 or 3 stores equal one store and two-step, each store given work",
          "[mining][counters][devices]") {
    const auto stores = GENERATE(std::size_t{2}, std::size_t{3});
    const std::size_t neurons = 12;
    const SpikeTrains trains = test::random_stream(7, neurons, 3000, 20000, true);
    const NeuronTimes times(trains);
    Shared shared(trains, times, stores);
    PrefixCounting single(make_cpu_list_store(trains, times, 1, nullptr), times);
    const std::vector<Interval> gaps{{0, 4}, {4, 9}};

    std::vector<Episode> level;
    for (NeuronId n = 0; n < neurons; ++n) level.push_back(Episode{{n}, {}});
    for (int length = 2; length <= 4; ++length) {
        const std::vector<Episode> candidates = extensions_of(level, neurons, gaps);
        // The test against chance reads the prefixes' ends wherever they live.
        const Interval baseline{12, 30};
        CHECK(shared.counting.lag_counts(candidates, baseline, 2, 500, nullptr) == single.lag_counts(candidates, baseline, 1, 1 << 20, nullptr));
        const std::vector<std::uint64_t> two_step = test::cpu_counts(trains, candidates, Counter::TwoStep);
        // About the ten most frequent go on to the next level.
        std::vector<std::uint64_t> sorted = two_step;
        std::sort(sorted.begin(), sorted.end(), std::greater<>());
        const std::uint64_t threshold = std::max<std::uint64_t>(1, sorted.at(9));
        const std::vector<std::uint64_t> counts = shared.counting.count(candidates, threshold);
        const std::vector<std::uint64_t> one_store = single.count(candidates, threshold);
        INFO("level " << length << ", " << candidates.size() << " candidates, " << stores << " stores");
        REQUIRE(counts == one_store);
        REQUIRE(counts == two_step);
        level.clear();
        for (std::size_t i = 0; i < candidates.size(); ++i) {
            if (counts[i] >= threshold) level.push_back(candidates[i]);
        }
        REQUIRE(!level.empty());  // the next level extends lists kept in every store
    }
    for (std::size_t s = 0; s < stores; ++s) {
        INFO("store " << s);
        CHECK(shared.given[s] > 0);
    }
}

TEST_CASE("shared end lists: a Cancel seen by any store stops the call", "[mining][counters][devices][progress]") {
    const SpikeTrains trains = test::random_stream(3, 6, 400, 4000);
    const NeuronTimes times(trains);
    CancelToken cancel;
    cancel.request();
    Progress progress({}, &cancel);
    SharedListStore store({kNoDevice, kNoDevice}, times, nullptr, [&](std::size_t i, Progress*) {
        // Store 1 alone sees the Cancel, as a quiet copy of the caller's progress would.
        return make_cpu_list_store(trains, times, 1, i == 1 ? &progress : nullptr);
    });
    std::vector<Extension> extensions;
    for (NeuronId a = 0; a < 6; ++a) {
        for (NeuronId b = 0; b < 6; ++b) extensions.push_back(Extension{Extension::seed(a), Interval{0, 5}, b});
    }
    CHECK_THROWS_AS(store.extend(extensions, 0), Cancelled);
}
