// GL object owners, created with direct state access (no binding to edit state).
#include "murmur/gl/objects.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "murmur/base/errors.hpp"

namespace murmur::gl {
namespace {

// GL_MAX_LABEL_LENGTH is at least 256 and a label must be shorter than it; longer labels are
// cut rather than rejected, since a label only names things in debug output.
constexpr std::size_t kMaxPortableLabelLength = 255;
// Buffer storage is rounded up to whole 32-bit words: glNamedBufferStorage rejects size 0,
// and clear_to_zero clears with GL_R32UI, which needs a size that is a multiple of 4.
constexpr std::size_t kBufferWordBytes = 4;

void label_object(GLenum kind, GLuint id, std::string_view label) {
  const auto length = static_cast<GLsizei>(std::min(label.size(), kMaxPortableLabelLength));
  glObjectLabel(kind, id, length, label.data());
}

std::size_t storage_bytes(std::size_t requested) {
  const std::size_t words = std::max<std::size_t>(1, (requested + kBufferWordBytes - 1) / kBufferWordBytes);
  return words * kBufferWordBytes;
}

void check_range(const char* operation, std::size_t offset, std::size_t bytes, std::size_t size) {
  if (offset > size || bytes > size - offset) {
    throw std::out_of_range(std::string("Buffer::") + operation + ": bytes [" +
                            std::to_string(offset) + ", " + std::to_string(offset + bytes) +
                            ") outside a buffer of " + std::to_string(size) + " bytes");
  }
}

const char* framebuffer_status_name(GLenum status) {
  switch (status) {
    case GL_FRAMEBUFFER_UNDEFINED: return "GL_FRAMEBUFFER_UNDEFINED";
    case GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT: return "GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT";
    case GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT:
      return "GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT";
    case GL_FRAMEBUFFER_INCOMPLETE_DRAW_BUFFER: return "GL_FRAMEBUFFER_INCOMPLETE_DRAW_BUFFER";
    case GL_FRAMEBUFFER_INCOMPLETE_READ_BUFFER: return "GL_FRAMEBUFFER_INCOMPLETE_READ_BUFFER";
    case GL_FRAMEBUFFER_UNSUPPORTED: return "GL_FRAMEBUFFER_UNSUPPORTED";
    case GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE: return "GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE";
    case GL_FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS:
      return "GL_FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS";
    default: return "unknown status";
  }
}

}  // namespace

void delete_buffer(GLuint id) { glDeleteBuffers(1, &id); }
void delete_texture(GLuint id) { glDeleteTextures(1, &id); }
void delete_framebuffer(GLuint id) { glDeleteFramebuffers(1, &id); }
void delete_renderbuffer(GLuint id) { glDeleteRenderbuffers(1, &id); }
void delete_vertex_array(GLuint id) { glDeleteVertexArrays(1, &id); }
void delete_query(GLuint id) { glDeleteQueries(1, &id); }
void delete_program(GLuint id) { glDeleteProgram(id); }

// --- Buffer ------------------------------------------------------------------------------

Buffer::Buffer(std::string_view label, std::size_t bytes, const void* data, GLbitfield flags)
    : size_(bytes) {
  GLuint id = 0;
  glCreateBuffers(1, &id);
  handle_ = Handle<delete_buffer>(id);
  label_object(GL_BUFFER, id, label);
  const std::size_t allocated = storage_bytes(bytes);
  if (data == nullptr || allocated == bytes) {
    glNamedBufferStorage(id, static_cast<GLsizeiptr>(allocated), data, flags);
  } else {
    // GL would read `allocated` bytes from `data`: hand it a zero-padded copy instead.
    std::vector<unsigned char> padded(allocated, 0);
    std::memcpy(padded.data(), data, bytes);
    glNamedBufferStorage(id, static_cast<GLsizeiptr>(allocated), padded.data(), flags);
  }
  // A refused allocation (GL_OUT_OF_MEMORY, or a size past the driver's limit) leaves a buffer
  // with no storage, which later calls would map, bind or fill as garbage (or crash on): fail
  // here, naming the buffer, while the cause is known. Allocations happen at set-up, so the
  // query's wait costs no step.
  GLint64 stored = 0;
  glGetNamedBufferParameteri64v(id, GL_BUFFER_SIZE, &stored);
  if (stored != static_cast<GLint64>(allocated)) {
    throw GpuError("cannot allocate " + std::to_string(allocated) + " bytes of GPU memory for " +
                   "buffer '" + std::string(label) + "' (the driver refused the allocation)");
  }
}

void Buffer::upload(std::size_t offset, std::size_t bytes, const void* data) {
  check_range("upload", offset, bytes, size_);
  if (bytes == 0) return;
  glNamedBufferSubData(id(), static_cast<GLintptr>(offset), static_cast<GLsizeiptr>(bytes), data);
}

void Buffer::download(std::size_t offset, std::size_t bytes, void* out) const {
  check_range("download", offset, bytes, size_);
  if (bytes == 0) return;
  glGetNamedBufferSubData(id(), static_cast<GLintptr>(offset), static_cast<GLsizeiptr>(bytes),
                          out);
}

void Buffer::bind_storage(GLuint binding) const {
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, id());
}

void Buffer::clear_to_zero() {
  // A null data pointer clears to zero; R32UI works for every content since zero bits are zero.
  glClearNamedBufferData(id(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, nullptr);
}

// --- Texture -----------------------------------------------------------------------------

Texture::Texture(std::string_view label, GLenum internal_format, int width, int height, int levels)
    : width_(width), height_(height) {
  GLuint id = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &id);
  handle_ = Handle<delete_texture>(id);
  label_object(GL_TEXTURE, id, label);
  glTextureStorage2D(id, levels, internal_format, width, height);
}

// --- BufferTexture -----------------------------------------------------------------------

namespace {
std::size_t texel_bytes(GLenum internal_format) {
  switch (internal_format) {
    case GL_R32UI:
    case GL_R32F: return 4;
    case GL_RG32UI:
    case GL_RG32F: return 8;
    case GL_RGBA32UI:
    case GL_RGBA32F: return 16;
    default: throw std::logic_error("BufferTexture: unsupported internal format");
  }
}
}  // namespace

BufferTexture::BufferTexture(std::string_view label, GLenum internal_format, const Buffer& buffer) {
  GLint max_texels = 0;
  glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &max_texels);
  const std::size_t texels = buffer.size() / texel_bytes(internal_format);
  if (texels > static_cast<std::size_t>(max_texels)) {
    throw GpuError("buffer texture '" + std::string(label) + "' needs " + std::to_string(texels) +
                   " texels; the driver's GL_MAX_TEXTURE_BUFFER_SIZE is " +
                   std::to_string(max_texels));
  }
  GLuint id = 0;
  glCreateTextures(GL_TEXTURE_BUFFER, 1, &id);
  handle_ = Handle<delete_texture>(id);
  label_object(GL_TEXTURE, id, label);
  glTextureBuffer(id, internal_format, buffer.id());
}

void BufferTexture::bind(GLuint unit) const { glBindTextureUnit(unit, id()); }

// --- Framebuffer -------------------------------------------------------------------------

Framebuffer::Framebuffer(std::string_view label) : label_(label) {
  GLuint id = 0;
  glCreateFramebuffers(1, &id);
  handle_ = Handle<delete_framebuffer>(id);
  label_object(GL_FRAMEBUFFER, id, label);
}

void Framebuffer::attach_colour(const Texture& texture, int attachment, int level) {
  glNamedFramebufferTexture(id(), GL_COLOR_ATTACHMENT0 + static_cast<GLenum>(attachment),
                            texture.id(), level);
}

void Framebuffer::check_complete() const {
  const GLenum status = glCheckNamedFramebufferStatus(id(), GL_FRAMEBUFFER);
  if (status != GL_FRAMEBUFFER_COMPLETE) {
    throw GpuError("framebuffer '" + label_ + "' is incomplete: " +
                   framebuffer_status_name(status));
  }
}

// --- VertexArray -------------------------------------------------------------------------

VertexArray::VertexArray(std::string_view label) {
  GLuint id = 0;
  glCreateVertexArrays(1, &id);
  handle_ = Handle<delete_vertex_array>(id);
  label_object(GL_VERTEX_ARRAY, id, label);
}

}  // namespace murmur::gl
