#include "shared_list_store.hpp"

#include <algorithm>
#include <iterator>

namespace spikeminer::mining::detail {

namespace {

std::vector<Progress> quiet_copies(const Progress* progress, std::size_t stores) {
    if (progress == nullptr || stores < 2) return {};
    return std::vector<Progress>(stores - 1, progress->cancel_only());
}

}  // namespace

SharedListStore::SharedListStore(std::vector<int> devices, const NeuronTimes& times, Progress* progress, const MakeStore& make)
    : times_(times),
      quiet_(quiet_copies(progress, devices.size())),
      stores_(std::move(devices), [&](std::size_t i) { return make(i, i == 0 || quiet_.empty() ? progress : &quiet_[i - 1]); }) {}

std::vector<std::uint32_t> SharedListStore::stores_of(std::span<const Extension> extensions) const {
    std::vector<std::uint32_t> store(extensions.size(), 0);
    // A seed's work grows with its neuron's spikes, once per extension.
    std::vector<std::uint64_t> seed_work(times_.offsets.size() - 1, 0);
    for (std::size_t i = 0; i < extensions.size(); ++i) {
        const Extension& x = extensions[i];
        if (x.from_seed()) {
            seed_work.at(x.seed_neuron()) += times_.of(x.seed_neuron()).size() + 1;
        } else {
            store[i] = where_.at(x.parent).store;
        }
    }
    std::vector<NeuronId> seeds;
    for (NeuronId n = 0; n < seed_work.size(); ++n) {
        if (seed_work[n] != 0) seeds.push_back(n);
    }
    std::stable_sort(seeds.begin(), seeds.end(), [&](NeuronId a, NeuronId b) { return seed_work[a] > seed_work[b]; });
    std::vector<std::uint64_t> load(stores_.size(), 0);
    std::vector<std::uint32_t> seed_store(seed_work.size(), 0);
    for (const NeuronId n : seeds) {
        const auto lightest = static_cast<std::uint32_t>(std::min_element(load.begin(), load.end()) - load.begin());
        seed_store[n] = lightest;
        load[lightest] += seed_work[n];
    }
    for (std::size_t i = 0; i < extensions.size(); ++i) {
        if (extensions[i].from_seed()) store[i] = seed_store[extensions[i].seed_neuron()];
    }
    return store;
}

std::vector<std::uint64_t> SharedListStore::extend(std::span<const Extension> extensions, std::uint64_t keep_at_least) {
    const std::vector<std::uint32_t> store = stores_of(extensions);
    const std::size_t n = stores_.size();
    std::vector<std::vector<Extension>> shares(n);
    std::vector<std::vector<std::size_t>> positions(n);  // each share's extensions in `extensions`
    for (std::size_t i = 0; i < extensions.size(); ++i) {
        Extension x = extensions[i];
        if (!x.from_seed()) x.parent = where_[x.parent].id;
        shares[store[i]].push_back(x);
        positions[store[i]].push_back(i);
    }
    std::vector<std::uint32_t> next_id(n);
    for (std::size_t s = 0; s < n; ++s) next_id[s] = static_cast<std::uint32_t>(stores_[s].size());
    std::vector<std::vector<std::uint64_t>> counted(n);
    stores_.each([&](std::size_t s, ListStore& share_store) { counted[s] = share_store.extend(shares[s], keep_at_least); });

    std::vector<std::uint64_t> counts(extensions.size(), 0);
    for (std::size_t s = 0; s < n; ++s) {
        for (std::size_t k = 0; k < positions[s].size(); ++k) counts[positions[s][k]] = counted[s][k];
    }
    // Each store appended its kept lists in its share's order, which is this call's order.
    for (std::size_t i = 0; i < extensions.size(); ++i) {
        if (counts[i] >= keep_at_least) where_.push_back(Where{store[i], next_id[store[i]]++});
    }
    return counts;
}

std::size_t SharedListStore::host_bytes() const {
    std::size_t bytes = where_.capacity() * sizeof(Where);
    for (std::size_t s = 0; s < stores_.size(); ++s) bytes += stores_[s].host_bytes();
    return bytes;
}

std::uint64_t SharedListStore::length(std::uint32_t id) const {
    const Where w = where_.at(id);
    return stores_[w.store].length(w.id);
}

std::vector<std::span<const Tick>> SharedListStore::ends(std::span<const std::uint32_t> ids,
                                                        std::vector<std::vector<Tick>>& scratch) const {
    const std::size_t n = stores_.size();
    std::vector<std::vector<std::uint32_t>> share(n);
    std::vector<std::vector<std::size_t>> positions(n);
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const Where w = where_.at(ids[i]);
        share[w.store].push_back(w.id);
        positions[w.store].push_back(i);
    }
    // Each store fills scratch of its own (its device current). Moving a vector keeps its
    // buffer, so the views stay valid once the buffers are moved into `scratch`.
    std::vector<std::vector<std::vector<Tick>>> filled(n);
    std::vector<std::vector<std::span<const Tick>>> views(n);
    stores_.each([&](std::size_t s, const ListStore& store) { views[s] = store.ends(share[s], filled[s]); });
    scratch.clear();
    for (auto& part : filled) std::move(part.begin(), part.end(), std::back_inserter(scratch));
    std::vector<std::span<const Tick>> out(ids.size());
    for (std::size_t s = 0; s < n; ++s) {
        for (std::size_t k = 0; k < positions[s].size(); ++k) out[positions[s][k]] = views[s][k];
    }
    return out;
}

void SharedListStore::retain(std::span<const std::uint32_t> ids) {
    std::vector<std::vector<std::uint32_t>> kept(stores_.size());
    std::vector<Where> where;
    where.reserve(ids.size());
    for (const std::uint32_t id : ids) {
        const Where w = where_.at(id);
        where.push_back(Where{w.store, static_cast<std::uint32_t>(kept[w.store].size())});
        kept[w.store].push_back(w.id);
    }
    stores_.each([&](std::size_t s, ListStore& store) { store.retain(kept[s]); });
    where_ = std::move(where);
}

}  // namespace spikeminer::mining::detail
