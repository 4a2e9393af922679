#include "catch.hpp"

#include "spikeminer/core/label_indexer.hpp"

using namespace spikeminer;

TEST_CASE("numeric labels are ordered numerically") {
    LabelIndexer indexer;
    const NeuronId a = indexer.intern("10");
    const NeuronId b = indexer.intern("9");
    const NeuronId c = indexer.intern("-3");
    CHECK(indexer.intern("10") == a);
    const auto result = indexer.finish();
    CHECK(result.labels == std::vector<std::string>{"-3", "9", "10"});
    CHECK(result.remap[a] == 2);
    CHECK(result.remap[b] == 1);
    CHECK(result.remap[c] == 0);
}

TEST_CASE("named labels keep first-appearance order") {
    LabelIndexer indexer;
    indexer.intern("unit_b");
    indexer.intern("7");
    indexer.intern("unit_a");
    const auto result = indexer.finish();
    CHECK(result.labels == std::vector<std::string>{"unit_b", "7", "unit_a"});
}

TEST_CASE("integer-valued ids written as floats get integer labels") {
    CHECK(canonical_integer_label("7") == "7");
    CHECK(canonical_integer_label("7.0") == "7");
    CHECK(canonical_integer_label("7e0") == "7");
    CHECK(canonical_integer_label("-2.0") == "-2");
    CHECK(canonical_integer_label("7.5").empty());
    CHECK(canonical_integer_label("unit").empty());
    CHECK(canonical_integer_label("").empty());
}
