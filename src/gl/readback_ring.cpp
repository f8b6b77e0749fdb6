// Fenced, persistently mapped readback buffers (include/murmur/gl/readback_ring.hpp).
#include "murmur/gl/readback_ring.hpp"

#include <stdexcept>
#include <utility>

#include "murmur/base/errors.hpp"

namespace murmur::gl {
namespace {

// Persistent and coherent: mapped once for the ring's life, and a signalled fence is all it
// takes for the GPU's copy to be visible through the mapping.
constexpr GLbitfield kMapFlags = GL_MAP_READ_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
// poll() asks whether a fence has signalled; it must never wait for one.
constexpr GLuint64 kNoWait = 0;

}  // namespace

ReadbackRing::ReadbackRing(std::string_view label, std::size_t slot_bytes, std::size_t slots)
    : slot_bytes_(slot_bytes) {
  if (slots == 0 || slot_bytes == 0)
    throw std::invalid_argument("ReadbackRing: needs at least one slot of at least one byte");
  slots_.resize(slots);
  for (std::size_t k = 0; k < slots; ++k) {
    Slot& slot = slots_[k];
    slot.buffer = Buffer(std::string(label) + " slot " + std::to_string(k), slot_bytes, nullptr,
                         kMapFlags);
    slot.mapped = static_cast<const std::byte*>(
        glMapNamedBufferRange(slot.buffer.id(), 0, static_cast<GLsizeiptr>(slot.buffer.size()),
                              kMapFlags));
    if (slot.mapped == nullptr)
      throw GpuError("ReadbackRing: cannot map buffer \"" + std::string(label) + "\"");
  }
}

ReadbackRing::~ReadbackRing() {
  discard();
  // The buffers unmap as they are deleted.
}

ReadbackRing::ReadbackRing(ReadbackRing&& other) noexcept
    : slots_(std::move(other.slots_)),
      slot_bytes_(std::exchange(other.slot_bytes_, 0)),
      oldest_(std::exchange(other.oldest_, 0)),
      in_flight_(std::exchange(other.in_flight_, 0)) {}

ReadbackRing& ReadbackRing::operator=(ReadbackRing&& other) noexcept {
  if (this != &other) {
    discard();
    slots_ = std::move(other.slots_);
    slot_bytes_ = std::exchange(other.slot_bytes_, 0);
    oldest_ = std::exchange(other.oldest_, 0);
    in_flight_ = std::exchange(other.in_flight_, 0);
  }
  return *this;
}

bool ReadbackRing::request(GLuint source, std::size_t offset, std::size_t bytes) {
  if (bytes > slot_bytes_) {
    throw std::out_of_range("ReadbackRing::request: " + std::to_string(bytes) +
                            " bytes, but slots hold " + std::to_string(slot_bytes_));
  }
  if (in_flight_ == slots_.size()) return false;
  Slot& slot = slots_[(oldest_ + in_flight_) % slots_.size()];
  if (bytes > 0) {
    glCopyNamedBufferSubData(source, slot.buffer.id(), static_cast<GLintptr>(offset), 0,
                             static_cast<GLsizeiptr>(bytes));
  }
  slot.fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  slot.bytes = bytes;
  ++in_flight_;
  // A fence that never reaches the GPU never signals: send it now (a flush does not wait).
  glFlush();
  return true;
}

std::optional<std::vector<std::byte>> ReadbackRing::poll() {
  if (in_flight_ == 0) return std::nullopt;
  Slot& slot = slots_[oldest_];
  const GLenum status = glClientWaitSync(slot.fence, 0, kNoWait);
  if (status == GL_TIMEOUT_EXPIRED) return std::nullopt;
  if (status == GL_WAIT_FAILED) throw GpuError("ReadbackRing: glClientWaitSync failed");
  std::vector<std::byte> bytes(slot.mapped, slot.mapped + slot.bytes);
  release(slot);
  oldest_ = (oldest_ + 1) % slots_.size();
  --in_flight_;
  return bytes;
}

void ReadbackRing::discard() {
  for (Slot& slot : slots_) release(slot);
  oldest_ = 0;
  in_flight_ = 0;
}

void ReadbackRing::release(Slot& slot) {
  if (slot.fence != nullptr) glDeleteSync(slot.fence);
  slot.fence = nullptr;
  slot.bytes = 0;
}

}  // namespace murmur::gl
