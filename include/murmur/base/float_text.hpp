#pragma once
// Floats as text that reads back to the same float32 (%.9g), without the locale: a viewer may
// have called setlocale, and a file must not change with it. Shared by the state files and the
// plan's exports.
#include <cstdint>
#include <string>

namespace murmur {

// Enough significant digits that every float32 reads back exactly.
inline constexpr int kFloatRoundTripDigits = 9;

void append_float(std::string& out, float value);
// The shortest text that reads back to the same double.
void append_double(std::string& out, double value);
void append_integer(std::string& out, std::uint64_t value);

}  // namespace murmur
