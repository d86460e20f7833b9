// debug.h — error reports and the record of the last uncaught error, shared
// by the REPL, the script runner and the embedding API (see debug.cpp).
#pragma once
#include "../interp/interp.h"

#include <string>

namespace lipq {

// "error: message\n  at file:line:col\nbacktrace (innermost first):\n  frame\n..."
// showing at most max_frames frames (and how many more there are).
std::string format_error_report(const LispError& e, size_t max_frames);

// Keep e as the last uncaught error: (last-error), (last-error-frames) and
// (backtrace) show it.
void record_last_error(Interp& I, const LispError& e);

// Registers trace, untrace, dribble, backtrace, last-error ...
void open_debug(Interp& I);

} // namespace lipq
