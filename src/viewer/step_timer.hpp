#pragma once
// The GPU time of each frame's simulation steps, for the status line's ms/step without
// glFinish: a GL_TIMESTAMP query before and after the steps, read a frame or more later once
// GL_QUERY_RESULT_AVAILABLE says the pair has finished (never waiting for it).
#include <cstdint>
#include <vector>

#include "murmur/gl/objects.hpp"

namespace murmur::viewer {

class StepTimer {
 public:
  struct Sample {
    double milliseconds = 0;
    std::uint32_t steps = 0;
  };

  StepTimer();
  // Around one frame's steps. A frame whose pair cannot start (every pair still in flight)
  // goes unmeasured.
  void begin();
  void end(std::uint32_t steps);
  // The measurements that finished since the last call, oldest first. Never waits.
  std::vector<Sample> collect();
  // Forgets the pairs in flight.
  void discard();

 private:
  struct Pair {
    gl::Handle<gl::delete_query> start, stop;
    std::uint32_t steps = 0;
  };
  std::vector<Pair> pairs_;
  std::size_t oldest_ = 0;
  std::size_t in_flight_ = 0;
  bool measuring_ = false;
};

}  // namespace murmur::viewer
