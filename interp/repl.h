// repl.h — the lipq command's driver: scripts, -e, and the interactive REPL.
#pragma once
#include "interp.h"

#include <csignal>
#include <string>
#include <vector>

namespace lipq {

// Runs what the command line asked for; returns the process exit status.
int run_main(Interp& I, const std::vector<std::string>& exprs, const std::vector<std::string>& preload,
             const std::string& script, const std::vector<std::string>& args);

// Set (to 1) by the SIGINT handler; the REPL uses it to tell "Ctrl-C while
// editing a line" from the end of the input.
extern volatile std::sig_atomic_t sigint_seen;

// Called from the SIGINT handler (async-signal-safe): wakes a line editor
// waiting for a key, whatever the moment the signal arrives (a self-pipe, so
// a Ctrl-C between "check the flag" and "block in read" is not lost).
void wake_line_editor();

} // namespace lipq
