// See live_session.hpp.
#include "spikeminer/app/live/live_session.hpp"

#include "live_activations.hpp"
#include "live_analysis.hpp"
#include "live_output.hpp"
#include "live_recording.hpp"
#include "live_windows.hpp"

#include "spikeminer/app/pipeline/results.hpp"
#include "spikeminer/app/pipeline/time_scales.hpp"
#include "spikeminer/core/error.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <future>
#include <memory>
#include <optional>

namespace spikeminer::live {
namespace {

using Clock = std::chrono::steady_clock;

// How long a poll waits for spikes when none are there (a spike ends the wait at once).
constexpr std::chrono::milliseconds kPollWait{20};
// Silence after which the user is told that nothing comes (once).
constexpr double kQuietWarningS = 10;
// status.json is rewritten at most this often (and at each decided window).
constexpr double kStatusEveryS = 0.5;

double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }
double s_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// The assemblies found over the stretch decided so far, worked out beside the windows.
struct Refresh {
    std::shared_ptr<const pipeline::Input> input;
    std::future<pipeline::PipelineResult> result;
};

class Session {
public:
    Session(LiveSource& source, const LiveOptions& options, const CancelToken& stop, const std::function<void(const std::string&)>& say,
            const std::function<void()>& live_ended)
        : source_(source), options_(options), stop_(stop), say_(say), live_ended_(live_ended), output_(options.output, options.publish),
          abandon_progress_({}, &abandon_) {
        config_ = options.config;
        config_.input = source.name();
        status_.source = source.name();
        status_.state = "waiting for spikes";
    }

    ~Session() {
        if (counting_) counting_->wait();
        abandon_.request();
        if (refresh_ && refresh_->result.valid()) refresh_->result.wait();
    }
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    LiveReport run(Progress* progress) {
        std::vector<Spike> incoming;
        auto last_arrival = Clock::now();
        bool warned_quiet = false;
        std::optional<Error> failure;
        for (bool open = true; open;) {
            if (stop_.requested()) {
                report_.ended = "stopped";
                break;
            }
            incoming.clear();
            try {
                open = source_.poll(kPollWait, incoming);
            } catch (const Error& e) {
                // The spikes before the malformed one count; the session ends there.
                failure = e;
                report_.ended = "stopped by a malformed spike";
                step(incoming, true, Clock::now(), true);
                break;
            }
            const auto arrived = Clock::now();
            if (!open) report_.ended = "the source ended";
            if (!incoming.empty()) {
                last_arrival = arrived;
                warned_quiet = false;
            } else if (open && options_.until_idle_s > 0 && s_since(last_arrival) >= options_.until_idle_s) {
                report_.ended = "no spike for " + shown(options_.until_idle_s) + " s";
                open = false;
            } else if (open && !warned_quiet && s_since(last_arrival) >= kQuietWarningS) {
                say_(source_.name() + ": no spike for " + shown(kQuietWarningS) + " s; still waiting (Ctrl-C ends the session)");
                warned_quiet = true;
            }
            // A full poll leaves spikes waiting at the source: they are taken first, and the
            // windows they complete decided together (one count slides over them all).
            const bool more_waiting = open && incoming.size() >= kMostSpikesAPoll;
            if (more_waiting && !said_backlog_) {
                status_.notes.push_back("behind: spikes come faster than they are taken; windows are decided in batches");
                say_(status_.notes.back());
                said_backlog_ = true;
            }
            step(incoming, !open, arrived, !more_waiting);
        }
        if (live_ended_) live_ended_();
        collect(true);
        finish_refresh(false);
        abandon_.request();
        if (refresh_) refresh_->result.wait();
        final_pass(progress);
        if (failure) throw Error(std::string(failure->what()) + "; what came before it is in " + options_.output);
        return report_;
    }

private:
    static std::string shown(double value) {
        char text[32];
        std::snprintf(text, sizeof text, "%g", value);
        return text;
    }

    // What a poll brought: the activations it completes, the windows it lets be decided
    // (with `decide_now`), a search for the assemblies when one is due and free.
    void step(std::vector<Spike>& incoming, bool ended, Clock::time_point arrived, bool decide_now) {
        if (!recording_ && !incoming.empty()) {
            time_base_ = source_.time_base();
            recording_.emplace(time_base_.from_seconds(options_.lateness_s));
        }
        if (!recording_) return;
        std::sort(incoming.begin(), incoming.end(), [](const Spike& a, const Spike& b) { return a.time < b.time; });
        recording_->add(incoming);  // leaves out (and counts) the late ones
        watch(incoming, arrived);
        const Tick settled = recording_->settle(ended);
        if (!windows_ && !recording_->empty() && (ended || settled - recording_->origin() >= time_base_.from_seconds(options_.warmup_s))) {
            choose_time_scales(settled);
        }
        const bool decided = decide_now && decide(settled, arrived);
        const bool changed = finish_refresh(false) || decided;
        if (windows_ && !refresh_ && passed_ > 0 && !ended) {
            const Tick decided_end = windows_->span(passed_ - 1, recording_->origin()).end;
            if (decided_end - refreshed_until_ >= time_base_.from_seconds(options_.refresh_s)) start_refresh(decided_end);
        }
        if (changed || ended || s_since(status_written_) >= kStatusEveryS) write_status();
    }

    // Activations of the assemblies found so far, told at once.
    void watch(const std::vector<Spike>& incoming, Clock::time_point arrived) {
        if (activations_.watched() == 0 || incoming.empty()) return;
        std::vector<LiveActivation> found;
        activations_.feed(incoming, found);
        if (found.empty()) return;
        const double wait = ms_since(arrived);
        output_.activations(found, member_labels_, time_base_, wait);
        report_.activation_wait_ms.insert(report_.activation_wait_ms.end(), found.size(), wait);
        status_.activations += found.size();
    }

    // The time scales `run` would choose for the stretch seen so far, kept from now on.
    void choose_time_scales(Tick settled) {
        const SpikeTrains seen = recording_->part(recording_->origin(), settled, recording_->origin(), source_.labels().labels(), time_base_);
        const std::string note = pipeline::resolve_time_scales(config_, seen);
        cofiring_ = pipeline::cofiring_options(config_, seen);
        windows_.emplace(*cofiring_, config_);
        refreshed_until_ = recording_->origin();
        pipeline::RunConfig kept = config_;
        kept.input = options_.config.input;  // the followed file; none for a stream, which run cannot read
        output_.settings(pipeline::to_json(kept));
        status_.notes.push_back("time scales from the first " + shown(time_base_.to_seconds(settled - recording_->origin())) + " s: " + note);
        say_(status_.notes.back());
        status_.state = "live";
    }

    // A batch the counting thread finished: its windows into the report and the view
    // (waiting for it with `wait`; what the thread threw is thrown here).
    bool collect(bool wait) {
        if (!counting_) return false;
        if (!wait && counting_->wait_for(std::chrono::seconds(0)) != std::future_status::ready) return false;
        const Counted done = counting_->get();
        counting_.reset();
        report_.windows += done.windows;
        report_.skipped += done.skipped;
        report_.window_wait_ms.insert(report_.window_wait_ms.end(), done.windows, done.wait_ms);
        passed_ = done.next;
        show({}, {});
        return true;
    }

    // The windows whose spikes are all in go to the counting thread when it is free (those
    // that end meanwhile go together in its next batch, one count sliding over them);
    // every stride-th while behind.
    bool decide(Tick settled, Clock::time_point arrived) {
        const bool changed = collect(false);
        if (!windows_ || recording_->empty() || counting_) return changed;
        const std::size_t waiting = windows_->waiting(recording_->origin(), settled);
        if (waiting == 0) return changed;
        const std::size_t per_window = windows_->steps_per_window();
        if (waiting > 2 * per_window && stride_ < per_window) {
            stride_ = std::min(stride_ * 2, per_window);
            status_.notes.push_back("behind: " + std::to_string(waiting) + " windows waiting; deciding every " + std::to_string(stride_) +
                                    " until caught up (the others at the end)");
            say_(status_.notes.back());
        } else if (waiting <= 1 && stride_ > 1) {
            stride_ = 1;
            say_("caught up: deciding every window again");
        }
        std::optional<WindowBatch> batch = windows_->take(*recording_, settled, stride_, source_.labels().labels(), time_base_);
        if (!batch) return changed;
        counting_ = std::async(std::launch::async, [this, batch = std::move(*batch), arrived, waiting] {
            const std::vector<DecidedWindow> decided = windows_->count(batch);
            output_.windows(decided, batch.labels, time_base_, ms_since(arrived));
            return Counted{decided.size(), waiting - decided.size(), batch.next, ms_since(arrived)};
        });
        return changed;
    }

    // The decided windows, as the analysis takes them (those counted on the grid `grid`).
    std::vector<std::optional<mining::CofiringWindow>> decided_windows(Tick grid, const std::vector<NeuronId>* remap) const {
        std::vector<std::optional<mining::CofiringWindow>> out(windows_ ? windows_->next() : 0);
        for (std::size_t w = 0; w < out.size(); ++w) {
            const std::optional<DecidedWindow> d = windows_->at(w);
            if (!d || d->grid != grid) continue;
            out[w] = remap != nullptr ? renamed(d->window, *remap) : d->window;
        }
        return out;
    }

    void start_refresh(Tick decided_end) {
        const Tick origin = recording_->origin();
        SpikeTrains trains = recording_->part(origin, decided_end, origin, source_.labels().labels(), time_base_);
        auto input = std::make_shared<const pipeline::Input>(pipeline::input_from_trains(std::move(trains), source_.name()));
        refresh_.emplace();
        refresh_->input = input;
        refreshed_until_ = decided_end;
        refresh_->result = std::async(std::launch::async, [this, input, windows = decided_windows(recording_->grid(), nullptr)] {
            return analyse(*input, config_, windows, &abandon_progress_);
        });
    }

    // Takes the latest assemblies when their search is done (waiting for it with `wait`).
    bool finish_refresh(bool wait) {
        if (!refresh_) return false;
        if (!wait && refresh_->result.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return false;
        Refresh done = std::move(*refresh_);
        refresh_.reset();
        std::shared_ptr<pipeline::PipelineResult> found;
        try {
            found = std::make_shared<pipeline::PipelineResult>(done.result.get());
        } catch (const Cancelled&) {
            return false;
        } catch (const Error& e) {
            status_.notes.push_back(std::string("the assemblies could not be found again: ") + e.what());
            say_(status_.notes.back());
            return true;
        }
        const pipeline::PipelineResult& result = *found;
        const SpikeTrains& trains = done.input->recording.trains;
        output_.assemblies(trains, result);
        std::vector<std::pair<std::uint32_t, std::vector<NeuronId>>> watched;
        member_labels_.clear();
        for (const pipeline::Assembly& a : result.assemblies) {
            watched.emplace_back(a.track.id, a.members);
            if (member_labels_.size() <= a.track.id) member_labels_.resize(a.track.id + 1);
            for (const NeuronId n : a.members) member_labels_[a.track.id].push_back(trains.label(n));
        }
        activations_.watch(watched, std::max<Tick>(result.cofiring.lags.sync, 0));
        ++report_.refreshes;
        status_.refreshes = report_.refreshes;
        status_.refreshed_s = time_base_.to_seconds(trains.span().end);
        show(done.input, found);
        return true;
    }

    // The latest spikes (and a search's findings) to the view that follows the session.
    void show(std::shared_ptr<const pipeline::Input> searched, std::shared_ptr<const pipeline::PipelineResult> found) {
        if (!options_.watch || !recording_ || recording_->empty()) return;
        const Tick to = recording_->settled();
        const Tick from = std::max(recording_->origin(), to - time_base_.from_seconds(options_.shown_s));
        LiveView view;
        view.recent = std::make_shared<const SpikeTrains>(recording_->part(from, to, from, source_.labels().labels(), time_base_));
        view.searched = std::move(searched);
        view.found = std::move(found);
        view.spikes = recording_->taken();
        view.windows = report_.windows;
        options_.watch(view);
    }

    void write_status() {
        if (recording_) {
            status_.spikes = recording_->taken();
            status_.late = recording_->late();
            status_.received_s = time_base_.to_seconds(recording_->newest());
        }
        status_.units = source_.labels().size();
        status_.windows = report_.windows;
        status_.skipped = report_.skipped;
        status_.stride = stride_;
        if (passed_ > 0) status_.decided_s = time_base_.to_seconds(windows_->span(passed_ - 1, recording_->origin()).end);
        output_.status(status_);
        status_written_ = Clock::now();
    }

    // The whole pipeline over everything that came, into output/final.
    void final_pass(Progress* progress) {
        report_.units = source_.labels().size();
        status_.state = "ended: " + report_.ended + "; writing the final results";
        write_status();
        if (recording_ && recording_->late() != 0) {
            report_.notes.push_back(std::to_string(recording_->late()) + " spikes came more than the lateness (" + shown(options_.lateness_s) +
                                    " s) after a later one and were left out: raise --lateness");
        }
        if (recording_) recording_->settle(true);  // stopped: what waited for the lateness is in too
        if (!recording_ || recording_->empty()) {
            report_.notes.push_back("no spike came: no results");
            status_.state = "ended: " + report_.ended + "; no spike came";
            write_status();
            output_.end(report_.ended);
            return;
        }
        report_.spikes = recording_->size();
        report_.late = recording_->late();
        if (!windows_) choose_time_scales(recording_->settled());
        std::vector<NeuronId> remap;
        SpikeTrains trains = recording_->whole(source_.labels().labels(), time_base_, remap);
        const pipeline::Input input = pipeline::input_from_trains(std::move(trains), source_.name());
        const pipeline::PipelineResult result = analyse(input, config_, decided_windows(recording_->grid(), &remap), progress);
        pipeline::write_results((std::filesystem::path(options_.output) / "final").string(), input, config_, result, progress);
        report_.assemblies = result.assemblies.size();
        report_.notes.insert(report_.notes.end(), result.notes.begin(), result.notes.end());
        status_.state = "ended: " + report_.ended + "; final results in final/";
        write_status();
        output_.end(report_.ended);
    }

    LiveSource& source_;
    const LiveOptions& options_;
    const CancelToken& stop_;
    const std::function<void(const std::string&)>& say_;
    const std::function<void()>& live_ended_;
    LiveOutput output_;
    pipeline::RunConfig config_;
    TimeBase time_base_;
    std::optional<LiveRecording> recording_;
    std::optional<mining::CofiringOptions> cofiring_;
    std::optional<LiveWindows> windows_;
    std::size_t stride_ = 1;
    bool said_backlog_ = false;
    // What the counting thread did with a batch.
    struct Counted {
        std::size_t windows = 0;
        std::size_t skipped = 0;
        std::size_t next = 0;
        double wait_ms = 0;
    };
    std::optional<std::future<Counted>> counting_;
    std::size_t passed_ = 0;  // every window before it is decided (or left to the end)
    LiveActivations activations_;
    std::vector<std::vector<std::string>> member_labels_;  // per assembly id
    std::optional<Refresh> refresh_;
    Tick refreshed_until_ = 0;
    CancelToken abandon_;
    Progress abandon_progress_;
    LiveStatus status_;
    Clock::time_point status_written_{};
    LiveReport report_;
};

}  // namespace

void validate(const LiveOptions& options) {
    pipeline::RunConfig config = options.config;
    config.input = "live";
    pipeline::validate(config);
    if (config.edge_test == "surrogate") {
        throw UsageError("--edge-test surrogate cannot run live: its surrogates are made from the whole recording; run it on the recording after");
    }
    if (config.nwb) throw UsageError("nwb: a live session writes no NWB file; run `spikeminer run --nwb` on the recording after");
    if (config.duplicates != "keep") throw UsageError("duplicates: a live session keeps both spikes of a unit at one tick");
    const auto check = [](double value, const char* name, bool zero) {
        if (!std::isfinite(value) || value < 0 || (!zero && value == 0)) {
            throw UsageError(std::string(name) + " must be " + (zero ? "0 or more" : "positive") + " seconds");
        }
    };
    check(options.lateness_s, "--lateness", true);
    check(options.warmup_s, "--warmup", false);
    check(options.refresh_s, "--refresh", false);
    check(options.until_idle_s, "--until-idle", true);
    check(options.shown_s, "the view's stretch", false);
    pipeline::check_results_dir(options.output, config);
}

LiveReport run_live(LiveSource& source, const LiveOptions& options, const CancelToken& stop, Progress* progress,
                    const std::function<void(const std::string&)>& say, const std::function<void()>& live_ended) {
    validate(options);
    Session session(source, options, stop, say, live_ended);
    return session.run(progress);
}

}  // namespace spikeminer::live
