#include "spikeminer/app/io/write_spikes.hpp"

#include "spikeminer/app/io/atomic_output.hpp"
#include "writers.hpp"

#include "spikeminer/core/error.hpp"

namespace spikeminer::io {

void write_spikes(const std::string& path, const SpikeTrains& trains, SpikeFormat format) {
    AtomicOutput output(path);
    const bool compress = path.ends_with(".gz");
    switch (format) {
        case SpikeFormat::Csv: detail::write_delimited_text(output.temp_path(), path, trains, ',', compress); break;
        case SpikeFormat::Text: detail::write_delimited_text(output.temp_path(), path, trains, ' ', compress); break;
        case SpikeFormat::Nwb: detail::write_nwb(output.temp_path(), path, trains); break;
        case SpikeFormat::Spikeminer: detail::write_spikeminer_h5(output.temp_path(), path, trains); break;
        case SpikeFormat::Waverepo: detail::write_waverepo(output.temp_path(), path, trains); break;
        case SpikeFormat::Phy: throw UsageError(path + ": Kilosort / Phy folders are read, not written; give .csv, .txt, .h5 or .nwb");
    }
    output.commit();
}

}  // namespace spikeminer::io
