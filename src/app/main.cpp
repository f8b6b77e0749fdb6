// murmur: parses `murmur <command> [flags]` (cli.hpp, the commands of commands.hpp), runs the
// command, and maps each kind of error to its exit status (docs/commands.md, "Exit status").
#include <cstdio>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "cli.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/base/memory.hpp"
#include "murmur/gl/window.hpp"

namespace {

// "murmur step: " for a known command, "murmur: " before one is known.
void report(const std::string& prefix, const char* message) {
  std::fprintf(stderr, "%s: %s\n", prefix.c_str(), message);
}

int run(murmur::cli::Program& program, const std::vector<std::string>& words) {
  try {
    const murmur::cli::Command* command = program.parse(words);
    if (command == nullptr) return murmur::kExitOk;  // --help or --version
    return command->run();
  } catch (const murmur::InputError& error) {
    report(program.prefix(), error.what());
    return murmur::kExitBadInput;
  } catch (const murmur::OutputError& error) {
    report(program.prefix(), error.what());
    return murmur::kExitOutputError;
  } catch (const murmur::MemoryError& error) {
    report(program.prefix(), error.what());
    return murmur::kExitGpuError;
  } catch (const murmur::GpuError& error) {
    report(program.prefix(), error.what());
    return murmur::kExitGpuError;
  } catch (const murmur::HostAllocationError& error) {
    report(program.prefix(), murmur::out_of_host_memory_message(error.bytes()).c_str());
    return murmur::kExitGpuError;
  } catch (const std::bad_alloc&) {
    report(program.prefix(), murmur::out_of_host_memory_message(std::nullopt).c_str());
    return murmur::kExitGpuError;
  } catch (const std::exception& error) {
    report(program.prefix(), ("internal error: " + std::string(error.what())).c_str());
    return murmur::kExitInternalError;
  }
}

}  // namespace

int main(int argc, char** argv) {
  murmur::cli::Program program;
  const std::vector<std::string> words(argv + 1, argv + argc);
  if (words.empty()) {
    // At a desktop, `murmur` alone opens the viewer. Without a display, scripts that forget
    // the command should fail loudly, not succeed doing nothing.
    if (murmur::gl::display_available()) return run(program, {"view"});
    std::fputs(program.help().c_str(), stderr);
    return murmur::kExitBadInput;
  }
  return run(program, words);
}
