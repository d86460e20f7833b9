// repl.h — the lipq command's driver: scripts, -e, and the interactive REPL.
#pragma once
#include "interp.h"

#include <string>
#include <vector>

namespace lipq {

// Runs what the command line asked for; returns the process exit status.
int run_main(Interp& I, const std::vector<std::string>& exprs, const std::vector<std::string>& preload,
             const std::string& script, const std::vector<std::string>& args);

} // namespace lipq
