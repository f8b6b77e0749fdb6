#pragma once
// The one-line message of an input that must be refused, for the tests of the scenario's
// checks.
#include <functional>
#include <string>

#include <catch2/catch.hpp>

#include "murmur/base/errors.hpp"

namespace murmur::test {

// The InputError message of `action`, or a test failure when it does not throw one.
inline std::string input_error(const std::function<void()>& action) {
  try {
    action();
  } catch (const InputError& error) {
    const std::string message = error.what();
    CHECK(message.find('\n') == std::string::npos);  // messages are one line
    return message;
  }
  FAIL("expected an InputError");
  return {};
}

}  // namespace murmur::test
