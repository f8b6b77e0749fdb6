#pragma once
// Counts the GL calls that make the CPU wait for the GPU: glFinish, reads of GPU memory into
// client memory (glGetNamedBufferSubData, glGetBufferSubData, glReadPixels, glGetTextureImage,
// glGetTexImage), glClientWaitSync with a non-zero timeout, and query results read with
// GL_QUERY_RESULT. A ReadbackRing makes none of them. The viewer uses the counts to prove that
// its frame loop does not stall the GPU (docs/viewer.md, "Never waiting on the GPU").
#include <cstdint>

namespace murmur::gl {

struct StallCounts {
  std::uint64_t finishes = 0;   // glFinish
  std::uint64_t readbacks = 0;  // every other call in the list above
  std::uint64_t total() const { return finishes + readbacks; }
  StallCounts operator-(const StallCounts& earlier) const {
    return {finishes - earlier.finishes, readbacks - earlier.readbacks};
  }
  StallCounts& operator+=(const StallCounts& more) {
    finishes += more.finishes;
    readbacks += more.readbacks;
    return *this;
  }
};

// Routes the current context's entry points for those calls through counters (one relaxed
// atomic increment each). Call after the context's GL functions were loaded; loading them
// again (another context) removes the counters until this is called again.
void count_stalls();
// The calls counted since the program started (zero before count_stalls()).
StallCounts stall_counts();

}  // namespace murmur::gl
