// repl.cpp — scripts, -e, and the read-eval-print loop.
//
// The REPL reads lines (through libedit when standard input is a terminal and
// lipq was built with it, else plainly), collects them until they hold
// complete forms, evaluates each form and prints its value. Ctrl-C while a
// form runs raises Interrupted in the evaluator (main.cpp's SIGINT handler
// calls Interp::interrupt()); Ctrl-C while editing abandons the line.
#include "repl.h"

#include "../builtins/debug.h"
#include "printer.h"
#include "reader.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cwchar>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#ifdef LIPQ_HAVE_LIBEDIT
#include <histedit.h>
#endif

namespace lipq {

volatile std::sig_atomic_t sigint_seen = 0;

namespace {
// The write end of the line editor's wake-up pipe (-1 while there is none).
volatile std::sig_atomic_t wake_write_fd = -1;
} // namespace

void wake_line_editor() {
    int fd = wake_write_fd;
    if (fd >= 0) {
        char c = 1;
        ssize_t w = write(fd, &c, 1);   // non-blocking: a full pipe already wakes the reader
        (void)w;
    }
}

namespace {

const size_t kShortBacktrace = 6;   // frames shown with an error at the REPL

// Run f, reporting an uncaught error. Returns false on error; *code gets the
// status a script should exit with (1 error, 130 interrupt, or (exit n)'s n).
template <class F>
bool guarded(Interp& I, F f, bool* exited, int* code) {
    MachineState saved(I);
    auto restore = [&] { saved.restore_outermost(); };
    auto err = [&](const std::string& s) {
        if (I.write_err) I.write_err(s);
        else std::fputs(s.c_str(), stderr);
    };
    try {
        f();
        return true;
    } catch (LispError& e) {
        restore();
        err(format_error_report(e, kShortBacktrace));
        try {
            record_last_error(I, e);
        } catch (...) {
        }
        *code = 1;
    } catch (Interrupted& e) {
        restore();
        err(std::string(e.what()) + "\n");   // "interrupted", or a budget that ran out twice
        *code = 130;
    } catch (ExitRequest& r) {
        restore();
        *exited = true;
        *code = r.code;
    } catch (NonLocalExit&) {
        restore();
        err("error: go, return or throw outside its target\n");
        *code = 1;
    } catch (std::bad_alloc&) {
        restore();
        err("error: out of memory\n");
        *code = 1;
    }
    return false;
}

Value make_args(Interp& I, const std::vector<std::string>& args) {
    Root l(I, NIL);
    for (size_t i = args.size(); i-- > 0;) {
        Value s = I.make_string(args[i]);
        l = I.cons(s, l);
    }
    return l;
}

// ---- line sources ------------------------------------------------------------------------

enum class ReadResult { Line, End, Interrupted };

struct LineSource {
    virtual ~LineSource() = default;
    virtual ReadResult read(const char* prompt, std::string& line) = 0;
    virtual void remember(const std::string&) {}
};

// Plain reading: pipes, files, terminals when libedit is missing.
struct PlainSource : LineSource {
    bool show_prompt;
    explicit PlainSource(bool prompt) : show_prompt(prompt) {}
    ReadResult read(const char* prompt, std::string& line) override {
        if (show_prompt) {
            std::fputs(prompt, stdout);
            std::fflush(stdout);
        }
        line.clear();
        for (;;) {
            int c = std::fgetc(stdin);
            if (c == EOF) {
                if (std::ferror(stdin) && errno == EINTR) {
                    std::clearerr(stdin);
                    if (sigint_seen) {
                        if (show_prompt) std::fputs("\n", stdout);
                        return ReadResult::Interrupted;
                    }
                    continue;
                }
                return line.empty() ? ReadResult::End : ReadResult::Line;
            }
            if (c == '\n') return ReadResult::Line;
            line += char(c);
        }
    }
};

#ifdef LIPQ_HAVE_LIBEDIT
std::string history_path() {
    const char* home = std::getenv("HOME");
    if (!home || !*home) return "";
    return std::string(home) + "/.lipq_history";
}

// Line editing through libedit. libedit's own read retries a read() that a
// signal interrupted once per key, so a single Ctrl-C at the prompt would
// sometimes be swallowed. We give it our own key reader instead: it waits on
// the terminal and on a self-pipe that the SIGINT handler writes to, so every
// Ctrl-C, whenever it arrives, ends the line being edited.
struct EditSource : LineSource {
    EditLine* el = nullptr;
    History* hist = nullptr;
    HistEvent ev;
    std::string prompt_;
    std::string path_;
    int wake_[2] = {-1, -1};
    std::mbstate_t mb_{};

    static EditSource* self_of(EditLine* e) {
        void* self = nullptr;
        el_get(e, EL_CLIENTDATA, &self);
        return static_cast<EditSource*>(self);
    }
    static char* prompt_fn(EditLine* e) { return const_cast<char*>(self_of(e)->prompt_.c_str()); }

    // One key (a whole UTF-8 character) from the terminal: 1 with *out set,
    // 0 at end of input, -1 when Ctrl-C was pressed.
    static int key_fn(EditLine* e, wchar_t* out) {
        EditSource* self = self_of(e);
        for (;;) {
            if (sigint_seen) return -1;
            pollfd p[2] = {{0, POLLIN, 0}, {self->wake_[0], POLLIN, 0}};
            if (poll(p, 2, -1) < 0) {
                if (errno == EINTR) continue;
                return -1;
            }
            if (p[1].revents) self->drain_wakeups();
            if (!(p[0].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            char c;
            ssize_t k = ::read(0, &c, 1);
            if (k == 0) return 0;
            if (k < 0) {
                if (errno == EINTR || errno == EAGAIN) continue;
                return -1;
            }
            wchar_t wc;
            size_t n = std::mbrtowc(&wc, &c, 1, &self->mb_);
            if (n == size_t(-2)) continue;   // more bytes of this character to come
            if (n == size_t(-1)) {           // not valid in this locale: pass the byte on
                self->mb_ = std::mbstate_t{};
                wc = wchar_t(static_cast<unsigned char>(c));
            }
            *out = wc;
            return 1;
        }
    }

    void drain_wakeups() {
        char buf[64];
        while (::read(wake_[0], buf, sizeof buf) > 0) {
        }
    }

    EditSource() {
        if (pipe2(wake_, O_NONBLOCK | O_CLOEXEC) == 0) wake_write_fd = wake_[1];
        el = el_init("lipq", stdin, stdout, stderr);
        hist = history_init();
        history(hist, &ev, H_SETSIZE, 2000);
        history(hist, &ev, H_SETUNIQUE, 1);
        el_set(el, EL_CLIENTDATA, this);
        el_set(el, EL_PROMPT, &EditSource::prompt_fn);
        el_set(el, EL_EDITOR, "emacs");
        el_set(el, EL_HIST, history, hist);
        if (wake_[0] >= 0) el_set(el, EL_GETCFN, &EditSource::key_fn);
        el_source(el, nullptr);   // ~/.editrc
        path_ = history_path();
        if (!path_.empty()) history(hist, &ev, H_LOAD, path_.c_str());
    }
    ~EditSource() override {
        wake_write_fd = -1;
        if (hist) history_end(hist);
        if (el) el_end(el);
        for (int fd : wake_)
            if (fd >= 0) close(fd);
    }
    ReadResult read(const char* prompt, std::string& line) override {
        prompt_ = prompt;
        // A Ctrl-C from before this prompt (it interrupted an evaluation, or
        // came between two lines) does not abandon the line about to be typed.
        sigint_seen = 0;
        if (wake_[0] >= 0) drain_wakeups();
        mb_ = std::mbstate_t{};
        // Raw mode before the prompt appears: libedit would switch only after
        // printing it, and a Ctrl-D typed in between (the terminal still
        // canonical) becomes an end-of-file that the mode switch discards.
        el_set(el, EL_PREP_TERM, 1);
        int count = 0;
        const char* s = el_gets(el, &count);
        if (!s) {
            if (sigint_seen || count < 0) {
                std::fputs("\n", stdout);
                std::fflush(stdout);
                return ReadResult::Interrupted;
            }
            return ReadResult::End;
        }
        line.assign(s, size_t(count));
        while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
        return ReadResult::Line;
    }
    void remember(const std::string& entry) override {
        history(hist, &ev, H_ENTER, entry.c_str());
        if (!path_.empty()) history(hist, &ev, H_SAVE, path_.c_str());
    }
};
#endif

bool incomplete_input(const std::string& msg) {
    return msg.find("end of input") != std::string::npos || msg.find("unterminated") != std::string::npos;
}

// Results print readably, with shared structure labelled, and broken over
// lines by the pretty printer when they do not fit.
std::string result_text(Interp& I, Value v) {
    return pprint_to_string(I, v);
}

// For the history: one line per entry.
std::string history_entry(const std::string& text) {
    std::string s;
    for (char c : text) s += (c == '\n' || c == '\t') ? ' ' : c;
    while (!s.empty() && s.back() == ' ') s.pop_back();
    size_t b = s.find_first_not_of(' ');
    return b == std::string::npos ? "" : s.substr(b);
}

// Returns the exit status: 0 normally, 1 when some form failed and the input
// was not a terminal (a piped session behaves like a script), or (exit n)'s n.
int repl(Interp& I) {
    bool tty = isatty(0) && isatty(1);
    std::unique_ptr<LineSource> src;
#ifdef LIPQ_HAVE_LIBEDIT
    if (tty) src = std::make_unique<EditSource>();
#endif
    if (!src) src = std::make_unique<PlainSource>(tty);
    if (tty) I.out("lipq 0.1.0 — (exit) or Ctrl-D to leave, Ctrl-C interrupts\n");

    std::string buf;          // text of the form(s) being typed
    std::string entry;        // the same, for the history
    bool any_error = false;
    bool exited = false;
    int code = 0;
    for (;;) {
        const char* prompt = buf.empty() ? "lipq> " : "  ... ";
        sigint_seen = 0;
        std::string line;
        ReadResult r = src->read(prompt, line);
        if (r == ReadResult::Interrupted) {
            buf.clear();
            entry.clear();
            I.interrupt_flag.store(false);
            continue;
        }
        if (r == ReadResult::End) {
            if (tty) I.out("\n");
            break;
        }
        if (I.dribble) {
            if (tty) std::fputs(prompt, I.dribble);
            std::fputs(line.c_str(), I.dribble);
            std::fputs("\n", I.dribble);
        }
        buf += line;
        buf += '\n';
        entry += line;
        entry += '\n';
        // Read and evaluate every complete form in the buffer.
        bool incomplete = false;
        bool ok = guarded(I, [&] {
            for (;;) {
                Reader rd(I, buf, I.file_id("<repl>"), true);
                Value form;
                try {
                    form = rd.read();
                } catch (LispError& e) {
                    if (incomplete_input(e.message)) {
                        incomplete = true;
                        return;
                    }
                    throw;
                }
                if (form == END_OF_FILE) return;
                buf.erase(0, rd.offset());
                Root f(I, form);
                I.current_toplevel_pos = rd.last_pos();
                I.interrupt_flag.store(false);
                Value v = I.eval(f);
                I.positions.clear();
                Root rv(I, v);
                // `*` as a variable reads %* (see compile.cpp): the symbol *
                // itself keeps the multiplication function.
                Symbol* last = I.intern_sym("%*");
                Value prev = is_function(last->value) && last->value == as_symbol(I.sym.star1)->value ? NIL : last->value;
                as_symbol(I.sym.star3)->value = as_symbol(I.sym.star2)->value;
                as_symbol(I.sym.star2)->value = prev;
                last->value = v;
                std::string text = result_text(I, v);
                if (I.out_column != 0) text = "\n" + text;
                I.out(text + "\n");
            }
        }, &exited, &code);
        I.positions.clear();
        if (exited) {
            std::string h = history_entry(entry);
            if (!h.empty()) src->remember(h);
            return code;
        }
        if (!ok) any_error = true;
        if (!incomplete) {
            std::string h = history_entry(entry);
            if (!h.empty()) src->remember(h);
            buf.clear();
            entry.clear();
        }
        std::fflush(stdout);
    }
    if (!buf.empty() && buf.find_first_not_of(" \t\r\n") != std::string::npos) {
        std::string msg = "error: unexpected end of input (an unfinished form)\n";
        if (I.write_err) I.write_err(msg);
        else std::fputs(msg.c_str(), stderr);
        any_error = true;
    }
    return (!tty && any_error) ? 1 : 0;
}

} // namespace

int run_main(Interp& I, const std::vector<std::string>& exprs, const std::vector<std::string>& preload,
             const std::string& script, const std::vector<std::string>& args) {
    bool exited = false;
    int code = 0;
    // Error output also goes to the dribble file.
    I.write_err = [&I](std::string_view s) {
        std::fflush(stdout);
        std::fwrite(s.data(), 1, s.size(), stderr);
        std::fflush(stderr);
        if (I.dribble) std::fwrite(s.data(), 1, s.size(), I.dribble);
    };
    {
        Root a(I, make_args(I, args));
        I.script_args = a;
        I.set_global("*args*", a);
        Value name = script.empty() ? NIL : I.make_string(script);
        I.set_global("*script*", name);
    }
    for (auto& f : preload) {
        if (!guarded(I, [&] { I.load_file(f); }, &exited, &code)) return code;
    }
    if (!exprs.empty()) {
        for (auto& e : exprs) {
            bool ok = guarded(I, [&] {
                Value v = I.eval_string(e, "<-e>");
                Root rv(I, v);
                std::string text = result_text(I, v);
                if (I.out_column != 0) text = "\n" + text;
                I.out(text + "\n");
            }, &exited, &code);
            if (!ok) {
                std::fflush(stdout);
                return code;
            }
        }
        std::fflush(stdout);
        return 0;
    }
    if (!script.empty()) {
        I.load_stack.push_back(script);
        bool ok = guarded(I, [&] { I.load_file(script); }, &exited, &code);
        std::fflush(stdout);
        return ok ? 0 : code;
    }
    return repl(I);
}

} // namespace lipq
