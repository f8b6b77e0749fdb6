// Counting wrappers over glad's entry points (include/murmur/gl/stall_counter.hpp).
#include "murmur/gl/stall_counter.hpp"

#include <atomic>

#include "murmur/gl/gl.hpp"

namespace murmur::gl {
namespace {

std::atomic<std::uint64_t> finishes{0};
std::atomic<std::uint64_t> readbacks{0};

void count_finish() { finishes.fetch_add(1, std::memory_order_relaxed); }
void count_readback() { readbacks.fetch_add(1, std::memory_order_relaxed); }

// The entry points the wrappers forward to.
PFNGLFINISHPROC real_finish = nullptr;
PFNGLGETNAMEDBUFFERSUBDATAPROC real_get_named_buffer_sub_data = nullptr;
PFNGLGETBUFFERSUBDATAPROC real_get_buffer_sub_data = nullptr;
PFNGLREADPIXELSPROC real_read_pixels = nullptr;
PFNGLGETTEXTUREIMAGEPROC real_get_texture_image = nullptr;
PFNGLGETTEXIMAGEPROC real_get_tex_image = nullptr;
PFNGLCLIENTWAITSYNCPROC real_client_wait_sync = nullptr;
PFNGLGETQUERYOBJECTIVPROC real_get_query_object_iv = nullptr;
PFNGLGETQUERYOBJECTUIVPROC real_get_query_object_uiv = nullptr;
PFNGLGETQUERYOBJECTI64VPROC real_get_query_object_i64v = nullptr;
PFNGLGETQUERYOBJECTUI64VPROC real_get_query_object_ui64v = nullptr;

// GL_QUERY_RESULT waits for the result; GL_QUERY_RESULT_AVAILABLE and _NO_WAIT do not.
void count_query_read(GLenum pname) {
  if (pname == GL_QUERY_RESULT) count_readback();
}

void GLAD_API_PTR finish() {
  count_finish();
  real_finish();
}
void GLAD_API_PTR get_named_buffer_sub_data(GLuint buffer, GLintptr offset, GLsizeiptr size,
                                            void* data) {
  count_readback();
  real_get_named_buffer_sub_data(buffer, offset, size, data);
}
void GLAD_API_PTR get_buffer_sub_data(GLenum target, GLintptr offset, GLsizeiptr size,
                                      void* data) {
  count_readback();
  real_get_buffer_sub_data(target, offset, size, data);
}
void GLAD_API_PTR read_pixels(GLint x, GLint y, GLsizei width, GLsizei height, GLenum format,
                              GLenum type, void* pixels) {
  count_readback();
  real_read_pixels(x, y, width, height, format, type, pixels);
}
void GLAD_API_PTR get_texture_image(GLuint texture, GLint level, GLenum format, GLenum type,
                                    GLsizei size, void* pixels) {
  count_readback();
  real_get_texture_image(texture, level, format, type, size, pixels);
}
void GLAD_API_PTR get_tex_image(GLenum target, GLint level, GLenum format, GLenum type,
                                void* pixels) {
  count_readback();
  real_get_tex_image(target, level, format, type, pixels);
}
GLenum GLAD_API_PTR client_wait_sync(GLsync sync, GLbitfield flags, GLuint64 timeout) {
  if (timeout > 0) count_readback();
  return real_client_wait_sync(sync, flags, timeout);
}
void GLAD_API_PTR get_query_object_iv(GLuint id, GLenum pname, GLint* params) {
  count_query_read(pname);
  real_get_query_object_iv(id, pname, params);
}
void GLAD_API_PTR get_query_object_uiv(GLuint id, GLenum pname, GLuint* params) {
  count_query_read(pname);
  real_get_query_object_uiv(id, pname, params);
}
void GLAD_API_PTR get_query_object_i64v(GLuint id, GLenum pname, GLint64* params) {
  count_query_read(pname);
  real_get_query_object_i64v(id, pname, params);
}
void GLAD_API_PTR get_query_object_ui64v(GLuint id, GLenum pname, GLuint64* params) {
  count_query_read(pname);
  real_get_query_object_ui64v(id, pname, params);
}

// Puts `wrapper` in front of glad's pointer, once: calling count_stalls() twice must not make
// the wrapper call itself.
template <class Proc>
void wrap(Proc& entry_point, Proc& real, Proc wrapper) {
  if (entry_point == nullptr || entry_point == wrapper) return;
  real = entry_point;
  entry_point = wrapper;
}

}  // namespace

void count_stalls() {
  wrap(glad_glFinish, real_finish, &finish);
  wrap(glad_glGetNamedBufferSubData, real_get_named_buffer_sub_data, &get_named_buffer_sub_data);
  wrap(glad_glGetBufferSubData, real_get_buffer_sub_data, &get_buffer_sub_data);
  wrap(glad_glReadPixels, real_read_pixels, &read_pixels);
  wrap(glad_glGetTextureImage, real_get_texture_image, &get_texture_image);
  wrap(glad_glGetTexImage, real_get_tex_image, &get_tex_image);
  wrap(glad_glClientWaitSync, real_client_wait_sync, &client_wait_sync);
  wrap(glad_glGetQueryObjectiv, real_get_query_object_iv, &get_query_object_iv);
  wrap(glad_glGetQueryObjectuiv, real_get_query_object_uiv, &get_query_object_uiv);
  wrap(glad_glGetQueryObjecti64v, real_get_query_object_i64v, &get_query_object_i64v);
  wrap(glad_glGetQueryObjectui64v, real_get_query_object_ui64v, &get_query_object_ui64v);
}

StallCounts stall_counts() {
  return {finishes.load(std::memory_order_relaxed), readbacks.load(std::memory_order_relaxed)};
}

}  // namespace murmur::gl
