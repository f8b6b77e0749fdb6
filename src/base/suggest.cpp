#include "murmur/base/suggest.hpp"

#include <algorithm>
#include <vector>

namespace murmur {

namespace {
// Words this short are one typo from many others: only one edit is taken for them.
constexpr std::size_t kShortWord = 3;
constexpr std::size_t kShortWordEdits = 1;
constexpr std::size_t kLongWordEdits = 2;
}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // rows[i][j]: the distance between the first i characters of a and the first j of b.
  std::vector<std::vector<std::size_t>> rows(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) rows[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) rows[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution = a[i - 1] == b[j - 1] ? 0 : 1;
      rows[i][j] = std::min({rows[i - 1][j] + 1, rows[i][j - 1] + 1,
                             rows[i - 1][j - 1] + substitution});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        rows[i][j] = std::min(rows[i][j], rows[i - 2][j - 2] + 1);
      }
    }
  }
  return rows[a.size()][b.size()];
}

std::optional<std::string> nearest_name(std::string_view word, std::span<const std::string> names) {
  const std::size_t allowed = word.size() <= kShortWord ? kShortWordEdits : kLongWordEdits;
  std::optional<std::string> best;
  std::size_t best_distance = allowed + 1;
  for (const std::string& name : names) {
    const std::size_t distance = edit_distance(word, name);
    if (distance < best_distance && distance < word.size()) {
      best = name;
      best_distance = distance;
    }
  }
  return best;
}

std::string did_you_mean(std::string_view word, std::span<const std::string> names,
                         std::string_view quote) {
  const std::optional<std::string> nearest = nearest_name(word, names);
  if (!nearest) return {};
  return ": did you mean " + std::string(quote) + *nearest + std::string(quote) + "?";
}

}  // namespace murmur
