#pragma once
// A field of a CSV file as RFC 4180 writes it: the statistics' headers name species, and a
// species name may hold a comma or a quote.
#include <string>
#include <string_view>

namespace murmur {

// `text` as is, or in double quotes with each quote doubled when it holds a comma, a quote or
// a line break.
inline std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

}  // namespace murmur
