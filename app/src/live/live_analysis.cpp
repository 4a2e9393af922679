// See live_analysis.hpp.
#include "live_analysis.hpp"

namespace spikeminer::live {

pipeline::PipelineResult analyse(const pipeline::Input& input, const pipeline::RunConfig& config,
                                 const std::vector<std::optional<mining::CofiringWindow>>& decided, Progress* progress) {
    std::size_t next = 0;
    const pipeline::WindowFeed feed = [&](mining::CofiringWindows& all, mining::CofiringWindow& window) {
        if (next >= all.size()) return false;
        if (next < decided.size() && decided[next]) {
            window = *decided[next];
        } else {
            all.skip_to(next);
            all.next(window);
        }
        ++next;
        return true;
    };
    return pipeline::run_pipeline(input, config, progress, feed);
}

}  // namespace spikeminer::live
