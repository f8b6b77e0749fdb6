#pragma once
// "did you mean ...?" for a misspelt flag, command or scenario key: the accepted name nearest
// to what was typed, when one is near enough to be what was meant.
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace murmur {

// The number of single-character insertions, deletions, substitutions and swaps of two
// neighbouring characters that turn `a` into `b` (the optimal string alignment distance).
std::size_t edit_distance(std::string_view a, std::string_view b);

// The name of `names` nearest to `word` by edit_distance, the first of equally near ones, when
// it is at most 1 edit away for a word of up to 3 characters and at most 2 for a longer one
// (and fewer edits than the word has characters); otherwise none.
std::optional<std::string> nearest_name(std::string_view word, std::span<const std::string> names);

// `: did you mean "NAME"?` with the nearest name (quoted as `quote` says), or "".
std::string did_you_mean(std::string_view word, std::span<const std::string> names,
                         std::string_view quote = "\"");

}  // namespace murmur
