// A GPU allocation that the driver refuses is a GpuError naming the buffer and its size at
// the allocation, not a crash or garbage later: `murmur` turns it into one line and exit 4.
#include <cstddef>
#include <memory>
#include <string>

#include <catch2/catch.hpp>

#include "murmur/base/errors.hpp"
#include "murmur/gl/context.hpp"
#include "murmur/gl/objects.hpp"

namespace {

using Catch::Matchers::Contains;

// Far beyond any device's memory (and this machine's), so every driver refuses it.
constexpr std::size_t kImpossibleBytes = std::size_t{1} << 46;

}  // namespace

TEST_CASE("a buffer the driver cannot allocate is a GpuError naming the buffer and its size") {
  const auto context = murmur::gl::create_headless_context({.debug = true});
  try {
    murmur::gl::Buffer huge("the huge test buffer", kImpossibleBytes);
    FAIL("a " << kImpossibleBytes << "-byte buffer was allocated");
  } catch (const murmur::GpuError& error) {
    const std::string message = error.what();
    CHECK_THAT(message, Contains("buffer 'the huge test buffer'") &&
                            Contains(std::to_string(kImpossibleBytes) + " bytes"));
    CHECK(message.find('\n') == std::string::npos);
  }
  // The context stays usable.
  murmur::gl::Buffer small("a small buffer after it", 16);
  CHECK(small.size() == 16);
}
