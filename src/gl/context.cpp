// What every context provider shares: KHR_debug output and its check points.
#include "murmur/gl/context.hpp"

#include "murmur/gl/debug.hpp"

namespace murmur::gl {

Context::Context() = default;

Context::~Context() = default;

void Context::check_gl_errors(std::string_view during) {
  if (debug_output_) debug_output_->throw_if_errors(during);
}

void Context::install_debug_output(bool synchronous) {
  debug_output_ = std::make_unique<DebugMessenger>(/*verbose=*/false, synchronous);
}

void Context::remove_debug_output(bool context_is_current) {
  if (debug_output_ && !context_is_current) debug_output_->forget_context();
  debug_output_.reset();
}

}  // namespace murmur::gl
