// Floats and integers as locale-free text (include/murmur/base/float_text.hpp).
#include "murmur/base/float_text.hpp"

#include <charconv>

namespace murmur {

void append_float(std::string& out, float value) {
  char buffer[32];  // "-1.17549435e-38" is the longest: 15 characters
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value,
                                    std::chars_format::general, kFloatRoundTripDigits);
  out.append(buffer, result.ptr);
}

void append_double(std::string& out, double value) {
  char buffer[32];  // "-2.2250738585072014e-308" is the longest: 24 characters
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

void append_integer(std::string& out, std::uint64_t value) {
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

}  // namespace murmur
