// sigint_stress.cpp — Ctrl-C at random moments, many times, to a running lipq.
//
//   sigint_stress LIPQ_BINARY [ROUNDS] [SEED]
//
// 1. The REPL reading from a pipe: each round starts a computation (a loop, a
//    native search, a deep recursion, a big allocation, a save), sends SIGINT
//    after a random delay (0 to 300 ms, sometimes twice, sometimes while the
//    REPL is idle), then asks (+ k 1000000) and expects the answer: the
//    process must stay alive, consistent and responsive. At the end (exit 0)
//    must exit with status 0... or 130 if the last signal hit nothing.
// 2. Saves interrupted by SIGKILL: a script saves bigger and bigger results
//    to one file in a loop; it is killed at a random moment; the file must
//    then restore to one complete result (atomic save), never a cut one.
// Exit status 0 when every check passed.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct Child {
    pid_t pid = -1;
    int in = -1, out = -1, err = -1;
    std::string out_buf, err_buf;

    void start(const std::vector<std::string>& args) {
        int i[2], o[2], e[2];
        if (pipe(i) || pipe(o) || pipe(e)) { perror("pipe"); std::exit(2); }
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        pid = fork();
        if (pid == 0) {
            dup2(i[0], 0);
            dup2(o[1], 1);
            dup2(e[1], 2);
            for (int fd : {i[0], i[1], o[0], o[1], e[0], e[1]}) close(fd);
            execv(argv[0], argv.data());
            _exit(127);
        }
        close(i[0]);
        close(o[1]);
        close(e[1]);
        in = i[1];
        out = o[0];
        err = e[0];
        fcntl(out, F_SETFL, O_NONBLOCK);
        fcntl(err, F_SETFL, O_NONBLOCK);
    }
    void send(const std::string& s) {
        size_t done = 0;
        while (done < s.size()) {
            ssize_t w = write(in, s.data() + done, s.size() - done);
            if (w <= 0) return;
            done += size_t(w);
        }
    }
    void pump(double timeout_s) {
        pollfd p[2] = {{out, POLLIN, 0}, {err, POLLIN, 0}};
        poll(p, 2, int(timeout_s * 1000));
        char buf[65536];
        ssize_t k;
        while ((k = read(out, buf, sizeof buf)) > 0) out_buf.append(buf, size_t(k));
        while ((k = read(err, buf, sizeof buf)) > 0) err_buf.append(buf, size_t(k));
    }
    bool expect(const std::string& text, double timeout_s) {
        double end = now_s() + timeout_s;
        while (out_buf.find(text) == std::string::npos) {
            if (now_s() > end || !alive()) return out_buf.find(text) != std::string::npos;
            pump(0.02);
        }
        return true;
    }
    bool alive() { return pid > 0 && waitpid(pid, &status, WNOHANG) == 0; }
    int wait_exit(double timeout_s) {
        double end = now_s() + timeout_s;
        while (now_s() < end) {
            pid_t r = waitpid(pid, &status, WNOHANG);
            if (r == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            pump(0.02);
        }
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        return -1;
    }
    int status = 0;
};

int failures = 0;
void check(bool ok, const std::string& what) {
    if (!ok) {
        failures++;
        std::fprintf(stderr, "FAIL: %s\n", what.c_str());
    }
}

const char* const kWork[] = {
    "(let ((n 0)) (loop (setq n (1+ n))))",
    "(dfs 1 (lambda (n) (list (+ n 1) (+ n 2))) (lambda (n) nil))",
    "(nqueens-count 20 1)",
    "(length (permutations '(1 2 3 4 5 6 7 8 9 10 11)))",
    "(defun deep (n) (if (= n 0) 0 (+ 1 (deep (- n 1))))) (deep 900000)",
    "(let ((l nil)) (dotimes (i 3000000) (push (list i i) l)) (length l))",
    "(let ((h (make-hash-table 'equal))) (dotimes (i 2000000) (puthash (list i) i h)) (hash-table-count h))",
    "(unwind-protect (loop) (setq *cleanups* (1+ *cleanups*)))",
    "(save *tmp* (let ((l nil)) (dotimes (i 200000) (push (cons i l) l)) l))",
    "(errset (loop) nil)",
    "(+ 1 2)",
};

int repl_rounds(const std::string& lipq, int rounds, std::mt19937& rng) {
    Child c;
    c.start({lipq});
    std::string tmp = "/tmp/lipq-sigint-" + std::to_string(getpid()) + ".sav";
    c.send("(defvar *cleanups* 0)\n(defvar *tmp* \"" + tmp + "\")\n");
    // Wait for the REPL: a SIGINT that arrives before main() has installed
    // its handler (during exec and dynamic loading, ~10 ms on a slow VM)
    // kills any program, and that is not what this test is about. (Round 0
    // with a delay under ~5 ms failed here, "lipq died", seed 598992957.)
    check(c.expect("*tmp*\n", 30), "the REPL did not start");
    int cleanups_expected = 0;
    for (int k = 0; k < rounds; k++) {
        size_t w = rng() % (sizeof kWork / sizeof kWork[0]);
        c.send(std::string(kWork[w]) + "\n");
        if (w == 7) cleanups_expected++;
        int delay_ms = int(rng() % 300);
        std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
        kill(c.pid, SIGINT);
        if (rng() % 4 == 0) {   // a second Ctrl-C soon after
            std::this_thread::sleep_for(std::chrono::milliseconds(rng() % 50));
            kill(c.pid, SIGINT);
        }
        // Work that was not interrupted (it ended first) may still be running:
        // wait for the marker, interrupting again if it does not come.
        std::string marker = std::to_string(1000000 + k);
        c.send("(+ " + std::to_string(k) + " 1000000)\n");
        bool answered = c.expect(marker + "\n", 5);
        for (int again = 0; !answered && again < 3 && c.alive(); again++) {
            kill(c.pid, SIGINT);
            answered = c.expect(marker + "\n", 5);
        }
        check(c.alive(), "round " + std::to_string(k) + ": lipq died (" + kWork[w] + ")");
        check(answered, "round " + std::to_string(k) + ": no answer after the interrupt (" + kWork[w] + ")");
        if (!c.alive()) break;
    }
    // The cleanups ran (every interrupted unwind-protect ran its cleanup form).
    c.send("(list 'cleanups *cleanups*)\n");
    check(c.expect("(cleanups " + std::to_string(cleanups_expected) + ")", 10),
          "cleanups: expected " + std::to_string(cleanups_expected) + "; output tail: " +
              c.out_buf.substr(c.out_buf.size() > 300 ? c.out_buf.size() - 300 : 0));
    c.send("(length (permutations '(1 2 3 4 5)))\n");
    check(c.expect("120\n", 10), "still computing after the interrupts");
    c.send("(exit 0)\n");
    int st = c.wait_exit(20);
    check(st == 0, "exit status " + std::to_string(st));
    check(c.err_buf.find("AddressSanitizer") == std::string::npos &&
              c.err_buf.find("runtime error") == std::string::npos,
          "sanitizer report:\n" + c.err_buf);
    std::remove(tmp.c_str());
    return 0;
}

// A script that saves ever longer lists (i, i-1, ..., 0) in a loop.
int killed_saves(const std::string& lipq, int rounds, std::mt19937& rng) {
    std::string dir = "/tmp/lipq-killsave-" + std::to_string(getpid());
    std::string file = dir + "/result.sav";
    std::string script = dir + "/saver.lisp";
    std::string check_script = dir + "/check.lisp";
    std::system(("mkdir -p " + dir).c_str());
    {
        FILE* f = std::fopen(script.c_str(), "w");
        std::fprintf(f,
                     "(let ((l nil) (i 0))\n"
                     "  (loop (dotimes (k 5000) (push i l) (setq i (1+ i)))\n"
                     "        (save \"%s\" (list (length l) l (vector l)))))\n",
                     file.c_str());
        std::fclose(f);
        f = std::fopen(check_script.c_str(), "w");
        std::fprintf(f,
                     "(let* ((r (restore \"%s\")) (n (car r)) (l (cadr r)))\n"
                     "  (print (if (and (= n (length l)) (eq l (aref (caddr r) 0))\n"
                     "                  (or (null l) (= (car l) (1- n))))\n"
                     "             'intact 'corrupt)))\n",
                     file.c_str());
        std::fclose(f);
    }
    int restored = 0;
    for (int k = 0; k < rounds; k++) {
        Child c;
        c.start({lipq, script});
        std::this_thread::sleep_for(std::chrono::milliseconds(100 + rng() % 400));
        kill(c.pid, k % 3 == 0 ? SIGINT : SIGKILL);
        c.wait_exit(10);
        if (access(file.c_str(), F_OK) != 0) continue;   // killed before the first save
        Child v;
        v.start({lipq, check_script});
        v.wait_exit(60);
        v.pump(0);
        check(v.out_buf == "intact\n", "round " + std::to_string(k) + ": after the kill the save file reads as: " +
                                           v.out_buf + v.err_buf);
        restored++;
    }
    check(restored > 0, "no save completed before the kills");
    std::system(("rm -rf " + dir).c_str());
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: sigint_stress LIPQ_BINARY [ROUNDS] [SEED]\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    std::string lipq = argv[1];
    int rounds = argc > 2 ? std::atoi(argv[2]) : 40;
    unsigned seed = argc > 3 ? unsigned(std::atoi(argv[3])) : unsigned(std::random_device{}());
    std::printf("sigint_stress: %d rounds, seed %u\n", rounds, seed);
    std::mt19937 rng(seed);
    repl_rounds(lipq, rounds, rng);
    killed_saves(lipq, std::max(4, rounds / 4), rng);
    std::printf("%s: %d failures\n", failures ? "FAILED" : "ok", failures);
    return failures ? 1 : 0;
}
