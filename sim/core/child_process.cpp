#include "sim/core/child_process.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "sim/core/error.hpp"

namespace trainsim {
namespace {

void write_all(int fd, const std::string& data) {
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

std::string read_all(int fd) {
  std::string out;
  char buf[1 << 16];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  return out;
}

}  // namespace

std::string call_in_child(const std::function<std::string()>& fn) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error(std::string("pipe failed: ") + std::strerror(errno));
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
  if (pid == 0) {
    ::close(fds[0]);
    // A crash in the child must end the child, not run handlers the parent installed (a test
    // framework's, say) that would report on the parent's behalf.
    for (int sig : {SIGABRT, SIGSEGV, SIGILL, SIGFPE, SIGBUS, SIGTERM, SIGINT}) ::signal(sig, SIG_DFL);
    char status = 'o';
    std::string payload;
    try {
      payload = fn();
    } catch (const std::exception& e) {
      status = 'e';
      payload = e.what();
    }
    write_all(fds[1], std::string(1, status) + payload);
    ::close(fds[1]);
    std::fflush(nullptr);
    ::_exit(0);
  }
  ::close(fds[1]);
  const std::string message = read_all(fds[0]);
  ::close(fds[0]);
  int wstatus = 0;
  ::waitpid(pid, &wstatus, 0);
  if (message.empty()) {
    if (WIFSIGNALED(wstatus))
      throw std::runtime_error("simulation process died with signal " + std::to_string(WTERMSIG(wstatus)));
    throw std::runtime_error("simulation process exited with status " + std::to_string(WEXITSTATUS(wstatus)) +
                             " without a result");
  }
  if (message[0] == 'e') throw UserError(message.substr(1));
  return message.substr(1);
}

}  // namespace trainsim
