#pragma once
// Names for screenshots and recordings that never overwrite: the next free number in a
// directory (screenshot_000000.png, screenshot_000001.png, ...). Header-only for unit tests.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

namespace murmur::viewer {

inline constexpr std::string_view kScreenshotPrefix = "screenshot_";
inline constexpr std::string_view kScreenshotExtension = ".png";
inline constexpr std::string_view kRecordingPrefix = "recording_";

// "<prefix>000012<extension>" for number 12.
inline std::string numbered_name(std::string_view prefix, std::uint32_t number,
                                 std::string_view extension) {
  char digits[16];
  std::snprintf(digits, sizeof digits, "%06u", number);
  return std::string(prefix) + digits + std::string(extension);
}

// The first `dir/<prefix>NNNNNN<extension>` at or after `next` that does not exist; `next`
// moves past it, so names handed out but not yet written (a PNG still encoding) are not
// handed out again.
inline std::filesystem::path next_free_numbered(const std::filesystem::path& dir,
                                                std::string_view prefix,
                                                std::string_view extension, std::uint32_t& next) {
  std::error_code error;
  for (;; ++next) {
    std::filesystem::path candidate = dir / numbered_name(prefix, next, extension);
    if (!std::filesystem::exists(candidate, error)) {
      ++next;
      return candidate;
    }
  }
}

}  // namespace murmur::viewer
