// main.cpp — the lipq command: run a script, evaluate an expression, or start the REPL.
//
// The interpreter runs on a thread of its own with a large stack (512 MiB,
// reserved, not committed), so deep non-tail recursion works; the depth limit
// and the C++ stack check turn anything deeper into a clean Lisp error.
#include "interp/interp.h"
#include "interp/printer.h"
#include "interp/repl.h"

#include <pthread.h>
#include <unistd.h>

#include <cerrno>
#include <clocale>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

const char* const usage_text =
    "usage: lipq [options] [FILE [ARGS...]]\n"
    "  (no FILE)            start the REPL (reads standard input when it is not a terminal)\n"
    "  FILE [ARGS...]       run a script; its arguments are in *args*\n"
    "  -e EXPR              evaluate EXPR, print the result, exit\n"
    "  -l FILE              load FILE, then start the REPL\n"
    "  --heap-limit SIZE    maximum live heap (e.g. 512M, 4G); default: half of physical memory\n"
    "  --stack-limit N      maximum nested calls (default 1000000)\n"
    "  --time-limit SECS    stop evaluation with an error after SECS seconds\n"
    "  --version            print the version\n"
    "  --help               this text\n";

struct Options {
    lipq::Settings settings;
    std::vector<std::string> exprs;
    std::vector<std::string> preload;
    std::string script;
    std::vector<std::string> args;
    int status = 0;
};

bool parse_size(const std::string& s, size_t* out) {
    char* end = nullptr;
    double v = std::strtod(s.c_str(), &end);
    if (end == s.c_str() || v <= 0) return false;
    std::string suffix(end);
    double mult = 1;
    if (suffix == "" || suffix == "B") mult = 1;
    else if (suffix == "K" || suffix == "k") mult = 1024.0;
    else if (suffix == "M" || suffix == "m") mult = 1024.0 * 1024;
    else if (suffix == "G" || suffix == "g") mult = 1024.0 * 1024 * 1024;
    else return false;
    *out = size_t(v * mult);
    return true;
}

// Set by the SIGINT handler; the REPL / script runner point it at their interpreter.
lipq::Interp* volatile g_interp_for_signals = nullptr;
volatile std::sig_atomic_t g_unanswered = 0;

// Only async-signal-safe work here: set flags. The evaluator notices the
// interrupt at its next poll (calls, loop turns, long native loops). If three
// Ctrl-Cs in a row go unnoticed (a computation that never polls), give up.
void on_sigint(int) {
    int saved = errno;
    lipq::sigint_seen = 1;
    lipq::wake_line_editor();
    if (lipq::Interp* I = g_interp_for_signals) {
        if (I->interrupt_flag.load(std::memory_order_relaxed)) {
            g_unanswered = g_unanswered + 1;
            if (g_unanswered >= 3) {
                const char msg[] = "\nlipq: the computation does not respond to Ctrl-C; exiting\n";
                ssize_t w = write(2, msg, sizeof msg - 1);
                (void)w;
                _exit(130);
            }
        } else {
            g_unanswered = 1;
        }
        I->interrupt();
    }
    errno = saved;
}

void* run(void* arg) {
    Options& o = *static_cast<Options*>(arg);
    // SIGINT is blocked in the main thread: it reaches this one, so a
    // blocking read here (the line editor) is interrupted by Ctrl-C.
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
    lipq::Interp* I = nullptr;
    try {
        I = new lipq::Interp(o.settings);
    } catch (std::exception& e) {
        std::fprintf(stderr, "lipq: cannot start: %s\n", e.what());
        o.status = 2;
        return nullptr;
    }
    g_interp_for_signals = I;
    o.status = lipq::run_main(*I, o.exprs, o.preload, o.script, o.args);
    g_interp_for_signals = nullptr;
    delete I;
    return nullptr;
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto need = [&](const char* what) -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "lipq: %s needs %s\n%s", a.c_str(), what, usage_text);
                std::exit(2);
            }
            return argv[++i];
        };
        if (!o.script.empty()) { o.args.push_back(a); continue; }
        if (a == "--help" || a == "-h") { std::fputs(usage_text, stdout); return 0; }
        if (a == "--version") { std::printf("lipq 0.1.0\n"); return 0; }
        if (a == "-e") { o.exprs.push_back(need("an expression")); continue; }
        if (a == "-l") { o.preload.push_back(need("a file")); continue; }
        if (a == "--heap-limit") {
            std::string v = need("a size");
            if (!parse_size(v, &o.settings.heap_limit)) { std::fprintf(stderr, "lipq: bad size: %s\n", v.c_str()); return 2; }
            continue;
        }
        if (a == "--stack-limit") { o.settings.max_depth = std::max(100, std::atoi(need("a number").c_str())); continue; }
        if (a == "--time-limit") { o.settings.time_limit_s = std::atof(need("seconds").c_str()); continue; }
        if (a.size() > 1 && a[0] == '-' && a != "-") {
            std::fprintf(stderr, "lipq: unknown option %s\n%s", a.c_str(), usage_text);
            return 2;
        }
        o.script = a;
    }
    // The line editor decodes keys by the locale's character type. lipq's
    // strings are UTF-8, so when the environment names no multibyte locale
    // (LANG unset, or C), use C.UTF-8: typing "é" must not lose bytes.
    // Only LC_CTYPE changes: numbers still print the same everywhere.
    if (!std::setlocale(LC_CTYPE, "") || MB_CUR_MAX == 1) std::setlocale(LC_CTYPE, "C.UTF-8");
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);

    sigset_t block, old_mask;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    pthread_sigmask(SIG_BLOCK, &block, &old_mask);

    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, size_t(512) << 20);
    pthread_t th;
    if (pthread_create(&th, &attr, run, &o) != 0) {
        // Could not get a big stack: run here.
        run(&o);
    } else {
        pthread_join(th, nullptr);
    }
    pthread_attr_destroy(&attr);
    std::fflush(stdout);
    return o.status;
}
