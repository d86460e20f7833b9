// process.cpp — see process.h.
#include "process.h"

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#ifndef LIPQ_BINARY
#error "LIPQ_BINARY must name the lipq executable"
#endif

namespace clitest {

namespace {
double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::vector<char*> make_argv(const std::vector<std::string>& args) {
    static std::string bin = LIPQ_BINARY;
    std::vector<char*> v;
    v.push_back(bin.data());
    for (auto& a : args) v.push_back(const_cast<char*>(a.c_str()));
    v.push_back(nullptr);
    return v;
}

int decode_status(int st) {
    if (WIFEXITED(st)) return WEXITSTATUS(st);
    if (WIFSIGNALED(st)) return 128 + WTERMSIG(st);
    return -1;
}
} // namespace

Result run_lipq(const std::vector<std::string>& args, const std::string& input, int interrupt_after_ms,
                double timeout_s) {
    int in[2], out[2], err[2];
    if (pipe(in) || pipe(out) || pipe(err)) throw std::runtime_error("pipe");
    std::vector<char*> argv = make_argv(args);
    pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork");
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        dup2(err[1], 2);
        for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) close(fd);
        execv(argv[0], argv.data());
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    close(err[1]);
    signal(SIGPIPE, SIG_IGN);
    size_t written = 0;
    if (input.empty()) close(in[1]), in[1] = -1;
    Result r;
    double start = now_s();
    bool interrupted = interrupt_after_ms < 0;
    int open_fds = 2;
    while (open_fds > 0) {
        if (!interrupted && (now_s() - start) * 1000 >= interrupt_after_ms) {
            kill(pid, SIGINT);
            interrupted = true;
        }
        if (now_s() - start > timeout_s) {
            kill(pid, SIGKILL);
            break;
        }
        pollfd p[3];
        int n = 0;
        if (out[0] >= 0) p[n++] = {out[0], POLLIN, 0};
        if (err[0] >= 0) p[n++] = {err[0], POLLIN, 0};
        if (in[1] >= 0) p[n++] = {in[1], POLLOUT, 0};
        poll(p, nfds_t(n), 20);
        for (int i = 0; i < n; i++) {
            if (!p[i].revents) continue;
            if (p[i].fd == in[1]) {
                ssize_t w = write(in[1], input.data() + written, input.size() - written);
                if (w > 0) written += size_t(w);
                if (w < 0 || written == input.size()) close(in[1]), in[1] = -1;
                continue;
            }
            char buf[4096];
            ssize_t k = read(p[i].fd, buf, sizeof buf);
            if (k > 0) {
                (p[i].fd == out[0] ? r.out : r.err).append(buf, size_t(k));
            } else {
                close(p[i].fd);
                (p[i].fd == out[0] ? out[0] : err[0]) = -1;
                open_fds--;
            }
        }
    }
    if (in[1] >= 0) close(in[1]);
    if (out[0] >= 0) close(out[0]);
    if (err[0] >= 0) close(err[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    r.status = decode_status(st);
    return r;
}

TempDir::TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "lipq-cli-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp");
    path = tmpl;
}
TempDir::~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
}
std::string TempDir::file(const std::string& name, const std::string& contents) const {
    std::string p = path + "/" + name;
    std::ofstream(p, std::ios::binary) << contents;
    return p;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

PtySession::PtySession(const std::vector<std::string>& args, const std::string& home) {
    std::vector<char*> argv = make_argv(args);
    struct winsize ws {};
    ws.ws_row = 40;
    ws.ws_col = 120;
    pid_ = forkpty(&fd_, nullptr, nullptr, &ws);
    if (pid_ < 0) throw std::runtime_error("forkpty");
    if (pid_ == 0) {
        setenv("HOME", home.c_str(), 1);
        setenv("TERM", "xterm", 1);
        execv(argv[0], argv.data());
        _exit(127);
    }
}

PtySession::~PtySession() {
    if (!exited_ && pid_ > 0) {
        kill(pid_, SIGKILL);
        int st;
        waitpid(pid_, &st, 0);
    }
    if (fd_ >= 0) close(fd_);
}

void PtySession::send(const std::string& keys) {
    size_t done = 0;
    while (done < keys.size()) {
        ssize_t w = write(fd_, keys.data() + done, keys.size() - done);
        if (w <= 0) break;
        done += size_t(w);
    }
}

void PtySession::pump(double timeout_s) {
    pollfd p{fd_, POLLIN, 0};
    if (poll(&p, 1, int(timeout_s * 1000)) > 0) {
        char buf[4096];
        ssize_t k = read(fd_, buf, sizeof buf);
        if (k > 0) out_.append(buf, size_t(k));
        else if (!exited_) {
            // EIO: the child closed the terminal.
            usleep(10000);
        }
    }
}

bool PtySession::expect(const std::string& text, double timeout_s) {
    double end = now_s() + timeout_s;
    for (;;) {
        size_t at = out_.find(text, mark_);
        if (at != std::string::npos) {
            mark_ = at + text.size();
            return true;
        }
        if (now_s() > end) return false;
        pump(0.05);
    }
}

int PtySession::wait_exit(double timeout_s) {
    double end = now_s() + timeout_s;
    while (now_s() < end) {
        pump(0.02);
        int st = 0;
        pid_t r = waitpid(pid_, &st, WNOHANG);
        if (r == pid_) {
            exited_ = true;
            status_ = decode_status(st);
            return status_;
        }
    }
    return -1;
}

} // namespace clitest
