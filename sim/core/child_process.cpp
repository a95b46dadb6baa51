#include "sim/core/child_process.hpp"

#include <poll.h>
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

struct Child {
  pid_t pid = -1;
  int fd = -1;        // read end of the child's result pipe
  size_t index = 0;
  std::string message;
};

// Forks a child that runs fn and writes 'o'+result or 'e'+error text into a pipe.
Child spawn(const std::function<std::string()>& fn, size_t index) {
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
  return {pid, fds[0], index, {}};
}

// Reaps the child and turns its message into the result (or the matching exception).
std::string finish(Child& c) {
  ::close(c.fd);
  int wstatus = 0;
  ::waitpid(c.pid, &wstatus, 0);
  if (c.message.empty()) {
    if (WIFSIGNALED(wstatus))
      throw std::runtime_error("simulation process died with signal " + std::to_string(WTERMSIG(wstatus)));
    throw std::runtime_error("simulation process exited with status " + std::to_string(WEXITSTATUS(wstatus)) +
                             " without a result");
  }
  if (c.message[0] == 'e') throw UserError(c.message.substr(1));
  return c.message.substr(1);
}

// Reads what is available from each child; returns the position of one that finished, or -1.
int read_some(std::vector<Child>& running) {
  std::vector<pollfd> fds;
  for (const auto& c : running) fds.push_back({c.fd, POLLIN, 0});
  if (::poll(fds.data(), fds.size(), -1) < 0 && errno != EINTR)
    throw std::runtime_error(std::string("poll failed: ") + std::strerror(errno));
  for (size_t k = 0; k < running.size(); ++k) {
    if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    char buf[1 << 16];
    const ssize_t n = ::read(running[k].fd, buf, sizeof buf);
    if (n > 0) {
      running[k].message.append(buf, static_cast<size_t>(n));
    } else {
      return static_cast<int>(k);
    }
  }
  return -1;
}

}  // namespace

std::string call_in_child(const std::function<std::string()>& fn) {
  return call_in_children({fn}, 1, nullptr, nullptr).front();
}

std::vector<std::string> call_in_children(const std::vector<std::function<std::string()>>& fns, int parallel,
                                          const std::function<void(size_t)>& on_start,
                                          const std::function<void(size_t, const std::string&)>& on_done) {
  std::vector<std::string> results(fns.size());
  std::vector<Child> running;
  std::exception_ptr failure;
  size_t next = 0;
  while (!running.empty() || (next < fns.size() && !failure)) {
    while (!failure && next < fns.size() && static_cast<int>(running.size()) < std::max(1, parallel)) {
      if (on_start) on_start(next);
      running.push_back(spawn(fns[next], next));
      ++next;
    }
    const int done = read_some(running);
    if (done < 0) continue;
    Child child = running[static_cast<size_t>(done)];
    running.erase(running.begin() + done);
    try {
      results[child.index] = finish(child);
      if (on_done) on_done(child.index, results[child.index]);
    } catch (...) {
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
  return results;
}

}  // namespace trainsim
