#pragma once
// Text of numbers, choices and accepted ranges, shared by the scenario's error messages
// (parse.cpp, check.cpp) and the generated docs tables (param_docs.cpp), so that both say the
// same.
#include <charconv>
#include <cstddef>
#include <string>
#include <string_view>

#include "murmur/scenario/params/param_info.hpp"

namespace murmur::params {

// The shortest text that reads back to `value`: 0.1f reads "0.1".
inline std::string show_float(float value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

inline std::string show_double(double value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

// `"wrap" or "bounded"`, or `one of "none", "ribbons", "fade"`; `mark` wraps each name
// (a backtick in markdown).
template <std::size_t N>
std::string choice_text(const std::string_view (&names)[N], std::string_view mark = "") {
  const auto shown = [&](std::string_view name) {
    return std::string(mark) + "\"" + std::string(name) + "\"" + std::string(mark);
  };
  if (N == 2) return shown(names[0]) + " or " + shown(names[1]);
  std::string text = "one of ";
  for (std::size_t k = 0; k < N; ++k) text += (k ? ", " : "") + shown(names[k]);
  return text;
}

// ">= 0", "> 0" and "<= 360", "< x": the comparison an end of a range asks for.
inline std::string_view lower_operator(const Bound& bound) { return bound.inclusive ? ">= " : "> "; }
inline std::string_view upper_operator(const Bound& bound) { return bound.inclusive ? "<= " : "< "; }

// Joins the texts of a range's two ends ("> 0 and < 40"); either may be empty (open end).
inline std::string join_range(const std::string& lower, const std::string& upper) {
  if (lower.empty()) return upper;
  if (upper.empty()) return lower;
  return lower + " and " + upper;
}

}  // namespace murmur::params
