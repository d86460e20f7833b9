// process.h — run the lipq binary for the CLI and REPL tests: through pipes
// (run_lipq) or in a pseudo-terminal, as a person at a keyboard (PtySession).
#pragma once
#include <string>
#include <vector>

#include <sys/types.h>

namespace clitest {

struct Result {
    int status = -1;        // exit status, or 128 + signal
    std::string out, err;
};

// Run lipq with args, feeding input on stdin. If interrupt_after_ms >= 0,
// send SIGINT that long after starting.
Result run_lipq(const std::vector<std::string>& args, const std::string& input = "",
                int interrupt_after_ms = -1, double timeout_s = 60);

// A scratch directory, removed at destruction.
struct TempDir {
    std::string path;
    TempDir();
    ~TempDir();
    std::string file(const std::string& name, const std::string& contents) const;   // writes, returns path
};

std::string read_file(const std::string& path);

class PtySession {
public:
    PtySession(const std::vector<std::string>& args, const std::string& home);
    ~PtySession();
    void send(const std::string& keys);
    // Wait until the output since the last mark contains text; false on timeout.
    bool expect(const std::string& text, double timeout_s = 10);
    void mark() { mark_ = out_.size(); }   // later expects look only after this point
    const std::string& output() const { return out_; }
    std::string since_mark() const { return out_.substr(mark_); }
    int wait_exit(double timeout_s = 30);   // exit status, -1 on timeout
private:
    void pump(double timeout_s);
    pid_t pid_ = -1;
    int fd_ = -1;
    std::string out_;
    size_t mark_ = 0;
    bool exited_ = false;
    int status_ = -1;
};

} // namespace clitest
