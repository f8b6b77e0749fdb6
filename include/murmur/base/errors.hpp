#pragma once
// Error kinds and the exit status each maps to. Every user-facing failure is one line that
// names the flag, field or file at fault and the accepted range (see docs/commands.md, "Exit status").
#include <stdexcept>
#include <string>

namespace murmur {

enum ExitCode : int {
  kExitOk = 0,
  kExitCheckFailed = 1,  // `murmur compare` found a disagreement, `murmur soak` a broken invariant
  kExitBadInput = 2,     // bad flag, scenario or state file
  kExitOutputError = 3,  // output path unwritable, disk full, write failed
  kExitGpuError = 4,     // no GL 4.5 context, shader compile/link failure, GL error, or out of
                         // memory (a GPU buffer or a host allocation, or a run's estimate)
  kExitInternalError = 5,  // any other exception: a bug in murmur
};

// Bad command line, scenario or state file. The message is complete and user-facing.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// Could not write output (path named in the message).
struct OutputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// A run whose estimated memory does not fit in what the process may take (exit 4, as an
// allocation that fails): the message is memory_refusal's line (murmur/base/memory.hpp).
struct MemoryError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// No usable GL context, or a shader failed to compile or link.
struct GpuError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace murmur
