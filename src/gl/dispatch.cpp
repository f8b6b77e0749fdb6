#include "murmur/gl/dispatch.hpp"

#include "murmur/gl/gl.hpp"

namespace murmur::gl {

void dispatch(DispatchShape shape) {
  if (shape.groups() == 0) return;
  glDispatchCompute(shape.x, shape.y, 1);
}

}  // namespace murmur::gl
