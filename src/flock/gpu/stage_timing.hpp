#pragma once
// The clocks of GpuFlock's timed steps (`murmur bench`'s stage tables): each stage of a step
// ends with lap(slot), which adds the stage's time to that slot of GridStageTimes.
#include <chrono>
#include <cstddef>
#include <vector>

#include "murmur/gl/gl.hpp"
#include "murmur/gl/objects.hpp"

namespace murmur {

// Ends a stage for step_timed(): waits for the GPU, adds the stage's wall time to `slot`.
class StageClock {
 public:
  void lap(double& slot) {
    glFinish();
    const auto now = std::chrono::steady_clock::now();
    slot += std::chrono::duration<double, std::milli>(now - last_).count();
    last_ = now;
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

// Ends a stage for step_gpu_timed(): a GL_TIMESTAMP query, no wait; resolve() reads them all
// after the step and adds each stage's GPU time to its slot.
class StageQueries {
 public:
  explicit StageQueries(std::vector<gl::Handle<gl::delete_query>>& pool) : pool_(pool) {
    mark();
  }
  void lap(double& slot) {
    mark();
    slots_.push_back(&slot);
  }
  void resolve() {
    std::vector<GLuint64> stamps(used_);
    for (std::size_t k = 0; k < used_; ++k) {
      glGetQueryObjectui64v(pool_[k].id(), GL_QUERY_RESULT, &stamps[k]);
    }
    constexpr double kNanosecondsPerMillisecond = 1e6;
    for (std::size_t k = 0; k < slots_.size(); ++k) {
      const GLuint64 from = stamps[k], to = stamps[k + 1];
      *slots_[k] += to > from ? double(to - from) / kNanosecondsPerMillisecond : 0.0;
    }
  }

 private:
  void mark() {
    if (used_ == pool_.size()) {
      GLuint id = 0;
      glCreateQueries(GL_TIMESTAMP, 1, &id);
      pool_.emplace_back(id);
    }
    glQueryCounter(pool_[used_++].id(), GL_TIMESTAMP);
  }
  std::vector<gl::Handle<gl::delete_query>>& pool_;
  std::size_t used_ = 0;
  std::vector<double*> slots_;
};

}  // namespace murmur
