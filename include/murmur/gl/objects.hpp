#pragma once
// Move-only owners of GL objects, created with GL 4.5 direct state access and labelled
// (glObjectLabel) so debug output and captures name them.
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include "murmur/gl/gl.hpp"

namespace murmur::gl {

// Owns one GL name; Deleter is a function deleting one name of that kind.
template <void (*Delete)(GLuint)>
class Handle {
 public:
  Handle() = default;
  explicit Handle(GLuint id) : id_(id) {}
  ~Handle() { reset(); }
  Handle(Handle&& other) noexcept : id_(std::exchange(other.id_, 0)) {}
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = std::exchange(other.id_, 0);
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;

  GLuint id() const { return id_; }
  explicit operator bool() const { return id_ != 0; }
  void reset() {
    if (id_ != 0) Delete(id_);
    id_ = 0;
  }

 private:
  GLuint id_ = 0;
};

void delete_buffer(GLuint id);
void delete_texture(GLuint id);
void delete_framebuffer(GLuint id);
void delete_renderbuffer(GLuint id);
void delete_vertex_array(GLuint id);
void delete_query(GLuint id);
void delete_program(GLuint id);

// An immutable-storage buffer (glNamedBufferStorage).
class Buffer {
 public:
  Buffer() = default;
  // `flags` as for glNamedBufferStorage; GL_DYNAMIC_STORAGE_BIT lets upload() work.
  Buffer(std::string_view label, std::size_t bytes, const void* data = nullptr,
         GLbitfield flags = GL_DYNAMIC_STORAGE_BIT);

  GLuint id() const { return handle_.id(); }
  std::size_t size() const { return size_; }
  void upload(std::size_t offset, std::size_t bytes, const void* data);
  void download(std::size_t offset, std::size_t bytes, void* out) const;
  void bind_storage(GLuint binding) const;  // GL_SHADER_STORAGE_BUFFER at `binding`
  void clear_to_zero();                     // every byte 0 (glClearNamedBufferData, R32UI)

 private:
  Handle<delete_buffer> handle_;
  std::size_t size_ = 0;
};

class Texture {
 public:
  Texture() = default;
  // A 2D texture with immutable storage: `levels` mip levels of `internal_format`.
  Texture(std::string_view label, GLenum internal_format, int width, int height, int levels = 1);
  GLuint id() const { return handle_.id(); }
  int width() const { return width_; }
  int height() const { return height_; }

 private:
  Handle<delete_texture> handle_;
  int width_ = 0, height_ = 0;
};

// A buffer texture (GL_TEXTURE_BUFFER): `buffer`'s bytes read by texelFetch as texels of
// `internal_format` (GL_R32UI, GL_R32F, GL_RG32UI, GL_RG32F, GL_RGBA32UI or GL_RGBA32F), with no
// copy.
// The buffer must outlive the view. Throws GpuError naming the label when the buffer holds more
// texels than GL_MAX_TEXTURE_BUFFER_SIZE.
class BufferTexture {
 public:
  BufferTexture() = default;
  BufferTexture(std::string_view label, GLenum internal_format, const Buffer& buffer);
  GLuint id() const { return handle_.id(); }
  void bind(GLuint unit) const;  // glBindTextureUnit

 private:
  Handle<delete_texture> handle_;
};

class Framebuffer {
 public:
  Framebuffer() = default;
  explicit Framebuffer(std::string_view label);
  GLuint id() const { return handle_.id(); }
  void attach_colour(const Texture& texture, int attachment = 0, int level = 0);
  // Throws GpuError naming the label when incomplete.
  void check_complete() const;

 private:
  Handle<delete_framebuffer> handle_;
  std::string label_;  // owned: callers may label with a temporary
};

class VertexArray {
 public:
  VertexArray() = default;
  explicit VertexArray(std::string_view label);
  GLuint id() const { return handle_.id(); }

 private:
  Handle<delete_vertex_array> handle_;
};

}  // namespace murmur::gl
