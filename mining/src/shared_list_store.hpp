#pragma once

#include "end_lists.hpp"

#include "spikeminer/core/device_threads.hpp"
#include "spikeminer/core/neuron_times.hpp"
#include "spikeminer/core/progress.hpp"

#include <functional>
#include <memory>
#include <vector>

namespace spikeminer::mining::detail {

/// End lists shared over several stores, one per device, that extend their shares at once
/// (a mining level's candidates split over the GPUs). A list lives in the store that made
/// it, and an extension goes to the store holding its prefix's list; the one-node prefixes
/// (a level 2's) are dealt to the stores by their spikes, heaviest first to the lightest
/// loaded. Counts and kept lists are those of one store: each list is extended alike
/// wherever it lives. Store 0 reports its share's progress; the others only see Cancel.
class SharedListStore final : public ListStore {
public:
    /// Makes store i on devices[i], on that device's thread, reporting to `progress` for
    /// store 0 and only checking its Cancel for the others.
    using MakeStore = std::function<std::unique_ptr<ListStore>(std::size_t i, Progress* progress)>;

    SharedListStore(std::vector<int> devices, const NeuronTimes& times, Progress* progress, const MakeStore& make);

    std::vector<std::uint64_t> extend(std::span<const Extension> extensions, std::uint64_t keep_at_least) override;
    void retain(std::span<const std::uint32_t> ids) override;
    [[nodiscard]] std::size_t size() const override { return where_.size(); }
    [[nodiscard]] std::uint64_t length(std::uint32_t id) const override;
    [[nodiscard]] std::size_t host_bytes() const override;
    [[nodiscard]] std::vector<std::span<const Tick>> ends(std::span<const std::uint32_t> ids,
                                                         std::vector<std::vector<Tick>>& scratch) const override;

private:
    // Where a list lives: its store, and its id there.
    struct Where {
        std::uint32_t store;
        std::uint32_t id;
    };

    // The store of each extension.
    [[nodiscard]] std::vector<std::uint32_t> stores_of(std::span<const Extension> extensions) const;

    const NeuronTimes& times_;
    std::vector<Progress> quiet_;  // store i >= 1 reports to quiet_[i - 1]
    PerDevice<ListStore> stores_;
    std::vector<Where> where_;  // by list id
};

}  // namespace spikeminer::mining::detail
