// The sweep a command line describes, and its jobs as processes (sweep_jobs.hpp).
#include "sweep_jobs.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "command_support.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/base/progress.hpp"

namespace murmur::cli {
namespace {

// The running binary, whatever its path or name.
constexpr const char* kSelf = "/proc/self/exe";
constexpr const char* kProgramName = "murmur";
constexpr std::size_t kReadChunk = 4096;
// A job's stderr kept for its error line: the end of it is enough.
constexpr std::size_t kKeptErrorBytes = 4096;

[[noreturn]] void system_failure(const std::string& what) {
  throw std::runtime_error(what + " (" + std::strerror(errno) + ")");
}

// One job while it runs: its process, the read ends of its stdout and stderr, and what has
// come from them.
struct Running {
  std::size_t job = 0;
  pid_t pid = -1;
  int out = -1;
  int err = -1;
  std::string pending_line;  // stdout after its last line break
  std::string error_text;    // the end of its stderr
};

Running start(std::size_t job, const std::vector<std::string>& words) {
  int out[2];
  int err[2];
  if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) system_failure("pipe2");
  // Made before the fork: the child only calls what is safe there.
  std::vector<std::string> arguments{kProgramName};
  arguments.insert(arguments.end(), words.begin(), words.end());
  std::vector<char*> argv;
  for (std::string& argument : arguments) argv.push_back(argument.data());
  argv.push_back(nullptr);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) system_failure("fork");
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(kExitInternalError);  // the parent died before prctl
    ::dup2(out[1], STDOUT_FILENO);
    ::dup2(err[1], STDERR_FILENO);
    ::execv(kSelf, argv.data());
    constexpr char kNoExec[] = "murmur: cannot run /proc/self/exe again\n";
    [[maybe_unused]] const ssize_t ignored = ::write(STDERR_FILENO, kNoExec, sizeof kNoExec - 1);
    ::_exit(kExitInternalError);
  }
  ::close(out[1]);
  ::close(err[1]);
  return {job, pid, out[0], err[0], {}, {}};
}

// The last line of a job's stderr, without the "murmur <command>: " its main put before it.
std::string error_line(std::string text, const std::string& command) {
  while (!text.empty() && text.back() == '\n') text.pop_back();
  const std::size_t last_break = text.rfind('\n');
  std::string line = last_break == std::string::npos ? text : text.substr(last_break + 1);
  const std::string prefix = std::string(kProgramName) + " " + command + ": ";
  if (line.starts_with(prefix)) line.erase(0, prefix.size());
  return line;
}

JobEnd wait_for(const Running& job, const std::string& command) {
  int status = 0;
  while (::waitpid(job.pid, &status, 0) < 0) {
    if (errno != EINTR) system_failure("waitpid");
  }
  if (WIFEXITED(status)) return {WEXITSTATUS(status), error_line(job.error_text, command)};
  return {kExitInternalError, "killed by signal " + std::to_string(WTERMSIG(status))};
}

// The jobs still running when this ends early (an exception): killed and reaped.
struct RunningJobs {
  std::vector<Running> jobs;
  ~RunningJobs() {
    for (Running& job : jobs) {
      ::kill(job.pid, SIGKILL);
      ::waitpid(job.pid, nullptr, 0);
      if (job.out >= 0) ::close(job.out);
      if (job.err >= 0) ::close(job.err);
    }
  }
};

// Reads what `fd` has; false at its end (then closed and set to -1).
bool read_some(int& fd, std::string& into) {
  char chunk[kReadChunk];
  const ssize_t count = ::read(fd, chunk, sizeof chunk);
  if (count < 0 && (errno == EINTR || errno == EAGAIN)) return true;
  if (count <= 0) {
    ::close(fd);
    fd = -1;
    return false;
  }
  into.append(chunk, static_cast<std::size_t>(count));
  return true;
}

}  // namespace

void run_jobs(const std::vector<std::vector<std::string>>& jobs, std::size_t at_once,
              const std::function<void(std::size_t job, std::string_view line)>& on_line,
              const std::function<void(std::size_t job, const JobEnd& end)>& on_end,
              const std::function<void()>& tick) {
  RunningJobs running;
  std::size_t next = 0;
  const int tick_ms = static_cast<int>(kProgressRedrawInterval.count());
  while (next < jobs.size() || !running.jobs.empty()) {
    while (next < jobs.size() && running.jobs.size() < at_once) {
      running.jobs.push_back(start(next, jobs[next]));
      ++next;
    }
    std::vector<pollfd> polled;
    for (const Running& job : running.jobs) {
      for (const int fd : {job.out, job.err}) {
        if (fd >= 0) polled.push_back({fd, POLLIN, 0});
      }
    }
    if (::poll(polled.data(), polled.size(), tick_ms) < 0 && errno != EINTR) {
      system_failure("poll");
    }
    tick();
    for (auto job = running.jobs.begin(); job != running.jobs.end();) {
      const auto ready = [&](int fd) {
        return std::any_of(polled.begin(), polled.end(), [fd](const pollfd& p) {
          return p.fd == fd && (p.revents & (POLLIN | POLLHUP | POLLERR)) != 0;
        });
      };
      if (job->out >= 0 && ready(job->out)) {
        read_some(job->out, job->pending_line);
        std::size_t line_break;
        while ((line_break = job->pending_line.find('\n')) != std::string::npos) {
          on_line(job->job, std::string_view(job->pending_line).substr(0, line_break));
          job->pending_line.erase(0, line_break + 1);
        }
      }
      if (job->err >= 0 && ready(job->err)) {
        read_some(job->err, job->error_text);
        if (job->error_text.size() > kKeptErrorBytes) {
          job->error_text.erase(0, job->error_text.size() - kKeptErrorBytes);
        }
      }
      if (job->out >= 0 || job->err >= 0) {
        ++job;
        continue;
      }
      const Running ended = *job;
      job = running.jobs.erase(job);
      on_end(ended.job, wait_for(ended, jobs[ended.job].front()));
    }
  }
}

study::SweepDefinition load_sweep(const FlagValues& options) {
  // The window first: its refusal names flags, before the scenario file is read.
  const study::SampleWindow window{options.steps, options.sweep_every, options.measure_from};
  study::check_window(window);
  study::SweepDefinition sweep =
      study::define_sweep(load_scenario(options.scenario),
                          study::sweep_axes(options.vary, options.vary_with), options.seeds,
                          window);
  // Told once by the sweep, not again by each of its jobs.
  if (!options.runs.empty()) return sweep;
  warn_if_dense(sweep.scenario);
  return sweep;
}

}  // namespace murmur::cli
