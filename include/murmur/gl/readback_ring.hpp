#pragma once
// Reading GPU buffers back without waiting for the GPU. Each request copies the bytes into one
// of a few persistently mapped buffers and fences the copy; the bytes are handed out only once
// their fence has signalled (glClientWaitSync with a zero timeout), typically a frame or two
// later. A frame loop that reads through a ring never stalls the GPU or the CPU.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "murmur/gl/gl.hpp"
#include "murmur/gl/objects.hpp"

namespace murmur::gl {

class ReadbackRing {
 public:
  // Three slots: one being filled by the GPU, one ready, one spare for a late reader.
  static constexpr std::size_t kDefaultSlots = 3;

  ReadbackRing() = default;
  // `slots` buffers of `slot_bytes` each, labelled "<label> slot k".
  ReadbackRing(std::string_view label, std::size_t slot_bytes, std::size_t slots = kDefaultSlots);
  ~ReadbackRing();
  ReadbackRing(ReadbackRing&& other) noexcept;
  ReadbackRing& operator=(ReadbackRing&& other) noexcept;
  ReadbackRing(const ReadbackRing&) = delete;
  ReadbackRing& operator=(const ReadbackRing&) = delete;

  std::size_t slot_bytes() const { return slot_bytes_; }
  std::size_t slot_count() const { return slots_.size(); }
  std::size_t in_flight() const { return in_flight_; }

  // Queues a copy of `bytes` of buffer `source` from `offset`. Shader writes to `source` must
  // be made visible to it first (glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT)): that is left
  // to the caller, who knows whether shaders wrote it, because on llvmpipe a barrier waits for
  // all queued work. Returns false and queues nothing when every slot is still in flight (the
  // caller asks again on a later frame). Throws std::out_of_range when `bytes` exceeds
  // slot_bytes().
  bool request(GLuint source, std::size_t offset, std::size_t bytes);
  // The bytes of the oldest request whose copy has finished, or nothing while it has not:
  // never waits. Each request's bytes come back once, in request order.
  std::optional<std::vector<std::byte>> poll();
  // Forgets every request in flight (their bytes are no longer wanted, e.g. the flock they
  // came from was replaced).
  void discard();

 private:
  struct Slot {
    Buffer buffer;
    const std::byte* mapped = nullptr;
    GLsync fence = nullptr;
    std::size_t bytes = 0;  // of the request in flight
  };
  void release(Slot& slot);

  std::vector<Slot> slots_;
  std::size_t slot_bytes_ = 0;
  std::size_t oldest_ = 0;     // the slot poll() looks at
  std::size_t in_flight_ = 0;  // requests queued and not yet polled, from oldest_ on
};

}  // namespace murmur::gl
