#include "viewer/step_timer.hpp"

#include "murmur/gl/gl.hpp"

namespace murmur::viewer {
namespace {

// A pair is read two or three frames after it was queued; four leave room for a slow frame.
constexpr std::size_t kQueryPairs = 4;
constexpr double kNanosecondsPerMillisecond = 1e6;

gl::Handle<gl::delete_query> timestamp_query() {
  GLuint id = 0;
  glCreateQueries(GL_TIMESTAMP, 1, &id);
  return gl::Handle<gl::delete_query>(id);
}

}  // namespace

StepTimer::StepTimer() : pairs_(kQueryPairs) {
  for (Pair& pair : pairs_) {
    pair.start = timestamp_query();
    pair.stop = timestamp_query();
  }
}

void StepTimer::begin() {
  measuring_ = in_flight_ < pairs_.size();
  if (!measuring_) return;
  glQueryCounter(pairs_[(oldest_ + in_flight_) % pairs_.size()].start.id(), GL_TIMESTAMP);
}

void StepTimer::end(std::uint32_t steps) {
  if (!measuring_) return;
  measuring_ = false;
  Pair& pair = pairs_[(oldest_ + in_flight_) % pairs_.size()];
  glQueryCounter(pair.stop.id(), GL_TIMESTAMP);
  pair.steps = steps;
  ++in_flight_;
}

std::vector<StepTimer::Sample> StepTimer::collect() {
  std::vector<Sample> samples;
  while (in_flight_ > 0) {
    const Pair& pair = pairs_[oldest_];
    GLuint available = 0;
    glGetQueryObjectuiv(pair.stop.id(), GL_QUERY_RESULT_AVAILABLE, &available);
    if (available == 0) break;
    // Available, so _NO_WAIT returns the result (and no stall is counted).
    GLuint64 start = 0, stop = 0;
    glGetQueryObjectui64v(pair.start.id(), GL_QUERY_RESULT_NO_WAIT, &start);
    glGetQueryObjectui64v(pair.stop.id(), GL_QUERY_RESULT_NO_WAIT, &stop);
    samples.push_back({stop > start ? double(stop - start) / kNanosecondsPerMillisecond : 0.0,
                       pair.steps});
    oldest_ = (oldest_ + 1) % pairs_.size();
    --in_flight_;
  }
  return samples;
}

void StepTimer::discard() {
  oldest_ = 0;
  in_flight_ = 0;
  measuring_ = false;
}

}  // namespace murmur::viewer
