// What several commands share besides their flags (command_support.hpp).
#include "command_support.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <system_error>

#include "murmur/base/errors.hpp"
#include "murmur/flock/grid.hpp"

namespace murmur::cli {

Progress command_progress(const std::string& command, const std::string& unit,
                          std::uint64_t total, bool quiet) {
  return Progress("murmur " + command, unit, total, progress_display_for(stderr, quiet));
}

FlockState start_state(const Scenario& scenario, const std::optional<std::string>& in) {
  return in ? read_state_csv(*in, scenario) : seeded_start(scenario);
}

std::optional<FlockState> flock_start_state(const FlockScenario& scenario,
                                            const std::optional<std::string>& in) {
  return start_state(scenario, in);
}

std::optional<FlockState> flock_start_state(const PlanScenario& scenario,
                                            const std::optional<std::string>& in) {
  if (in) {
    throw InputError("--in " + *in + ": " + scenario.source +
                     " is a plan scenario, which starts from its [[plan.group]] tables");
  }
  return std::nullopt;
}

void warn_if_dense(const FlockScenario& scenario) {
  const std::string warning = density_warning(scenario, scenario.capacity());
  if (!warning.empty()) std::fprintf(stderr, "warning: %s\n", warning.c_str());
}

AnyScenario load_any_scenario_with_seed(const std::string& path,
                                        std::optional<std::uint64_t> seed) {
  AnyScenario scenario = load_any_scenario(path);
  if (seed) common_of(scenario).world.seed = *seed;
  if (const auto* flock = std::get_if<FlockScenario>(&scenario)) warn_if_dense(*flock);
  return scenario;
}

FlockScenario load_scenario_with_seed(const std::string& path, std::optional<std::uint64_t> seed) {
  FlockScenario scenario = load_scenario(path);
  if (seed) scenario.world.seed = *seed;
  warn_if_dense(scenario);
  return scenario;
}

PlanScenario load_plan_scenario_with_seed(const std::string& path,
                                          std::optional<std::uint64_t> seed) {
  PlanScenario scenario = load_plan_scenario(path);
  if (seed) scenario.world.seed = *seed;
  return scenario;
}

void check_output_file(const std::filesystem::path& path, std::string_view flag) {
  namespace fs = std::filesystem;
  const fs::path directory = path.has_parent_path() ? path.parent_path() : fs::path(".");
  std::error_code error;
  const std::string problem = [&]() -> std::string {
    if (fs::is_directory(path, error)) return "it is a directory";
    if (!fs::exists(directory, error)) return "directory " + directory.string() + " does not exist";
    if (!fs::is_directory(directory, error)) return directory.string() + " is not a directory";
    if (::access(directory.c_str(), W_OK | X_OK) != 0) {
      return "directory " + directory.string() + " is not writable (" + std::strerror(errno) + ")";
    }
    // access() says yes to root everywhere, and to anyone on a read-only mount or in /proc:
    // only a file made there proves that the output can be.
    const fs::path probe = directory / (".murmur-write-probe-" + std::to_string(::getpid()));
    const int descriptor = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (descriptor < 0) {
      return "cannot create a file in " + directory.string() + " (" + std::strerror(errno) + ")";
    }
    ::close(descriptor);
    ::unlink(probe.c_str());
    return {};
  }();
  if (!problem.empty()) {
    throw OutputError("cannot write " + std::string(flag) + " " + path.string() + ": " + problem);
  }
}

}  // namespace murmur::cli
