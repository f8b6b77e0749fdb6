#include "murmur/study/summary.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace murmur::study {

std::optional<MeanAndStd> mean_and_std(std::span<const double> values) {
  if (values.empty()) return std::nullopt;
  const auto n = static_cast<double>(values.size());
  double sum = 0;
  for (const double x : values) sum += x;
  const double mean = sum / n;
  // Two passes: the squares of the deviations, not <x^2> - <x>^2, which cancels.
  double squares = 0;
  for (const double x : values) squares += (x - mean) * (x - mean);
  return MeanAndStd{mean, std::sqrt(squares / n)};
}

std::optional<double> binder_cumulant(std::span<const double> values) {
  if (values.empty()) return std::nullopt;
  double second = 0;
  double fourth = 0;
  for (const double x : values) {
    second += x * x;
    fourth += x * x * x * x;
  }
  const auto n = static_cast<double>(values.size());
  second /= n;
  fourth /= n;
  if (second == 0) return std::nullopt;
  return 1.0 - fourth / (3.0 * second * second);
}

std::optional<std::string> most_frequent(std::span<const std::string> values) {
  struct Seen {
    std::size_t count = 0;
    std::size_t last = 0;
  };
  std::map<std::string_view, Seen> seen;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i].empty()) continue;
    Seen& value = seen[values[i]];
    ++value.count;
    value.last = i;
  }
  const auto best = std::max_element(seen.begin(), seen.end(), [](const auto& a, const auto& b) {
    return a.second.count != b.second.count ? a.second.count < b.second.count
                                            : a.second.last < b.second.last;
  });
  if (best == seen.end()) return std::nullopt;
  return std::string(best->first);
}

WindowSummary::WindowSummary(std::vector<StatsColumn> columns)
    : columns_(std::move(columns)), numbers_(columns_.size()), words_(columns_.size()) {}

void WindowSummary::add(const StatsSample& sample) {
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    StatsValue value = columns_[c].value(sample);
    if (columns_[c].kind == StatsColumn::Kind::Word) {
      words_[c].push_back(std::move(value.text));
    } else if (value.number) {
      numbers_[c].push_back(*value.number);
    }
  }
  ++samples_;
}

std::vector<std::pair<std::string, std::string>> WindowSummary::named_cells() const {
  const auto text = [](std::optional<double> number) {
    return number ? stats_number_text(*number) : std::string();
  };
  std::vector<std::pair<std::string, std::string>> cells;
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    const std::string& name = columns_[c].name;
    if (columns_[c].kind == StatsColumn::Kind::Word) {
      // A column of words is summarised by one value, under its own name (`state`).
      cells.emplace_back(name, most_frequent(words_[c]).value_or(""));
      continue;
    }
    const std::optional<MeanAndStd> moments = mean_and_std(numbers_[c]);
    cells.emplace_back(name + "_mean", text(moments ? std::optional(moments->mean) : std::nullopt));
    cells.emplace_back(name + "_std", text(moments ? std::optional(moments->std) : std::nullopt));
    if (name == kBinderColumn) {
      cells.emplace_back(name + "_binder", text(binder_cumulant(numbers_[c])));
    }
  }
  return cells;
}

std::vector<std::string> WindowSummary::header() const {
  std::vector<std::string> names;
  for (auto& [name, cell] : named_cells()) names.push_back(name);
  return names;
}

std::vector<std::string> WindowSummary::cells() const {
  std::vector<std::string> texts;
  for (auto& [name, cell] : named_cells()) texts.push_back(cell);
  return texts;
}

}  // namespace murmur::study
