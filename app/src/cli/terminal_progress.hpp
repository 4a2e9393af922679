#pragma once

#include "spikeminer/core/progress.hpp"

namespace spikeminer::cli {

/// Ctrl-C for the whole run of a command, installed first thing by main: the first one
/// asks the work to stop (every TerminalProgress's Progress sees it at its next check,
/// also when it came before that TerminalProgress existed, while a file was read, say: the
/// command then ends with exit 130 and nothing written), and half a second later, once no
/// file is being written under a temporary name, ends the program with 130 whatever is
/// still being handed back; a second one ends the program at once, as Ctrl-C does by default.
void catch_interrupts();

/// For a command whose normal end is Ctrl-C (`live`): the first Ctrl-C requests `ending`
/// instead (the command finishes its work and exits as usual), and the ones after it act
/// as above; `cancelled` (text that lives as long as the program) then says what a cancel
/// leaves ("the live results stay"). Until stop_ending_on_interrupt(), which must come
/// before `ending` goes away.
void end_on_first_interrupt(CancelToken* ending, const char* cancelled);
void stop_ending_on_interrupt();
/// What a cancelled command leaves: "no output was written", unless set as above.
const char* cancelled_message();
/// The token Ctrl-C sets: for io::OutputSet, so that no output is put in place after it.
const CancelToken* interrupt_token();

/// A progress bar on stderr (only when stderr is a terminal) that stops at Ctrl-C (see
/// catch_interrupts).
class TerminalProgress {
public:
    TerminalProgress();
    TerminalProgress(const TerminalProgress&) = delete;
    TerminalProgress& operator=(const TerminalProgress&) = delete;

    /// The Progress to hand to long-running work.
    Progress& progress() { return progress_; }

private:
    Progress progress_;
};

}  // namespace spikeminer::cli
