#pragma once
// A run's summary over its window of samples (docs/sweep.md, "The columns"): for each numeric
// column of the flock statistics (flock_stats_columns) its mean and standard deviation, the
// polarization's Binder cumulant beside them, and for each column of words its most frequent
// value. GL-free: the core tests hold it to its definitions.
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "murmur/flock/stats.hpp"

namespace murmur::study {

struct MeanAndStd {
  double mean = 0;
  double std = 0;
};

// The mean and the standard deviation of `values` over their count n (the spread of these
// samples, numpy's default), or nothing when there are none.
std::optional<MeanAndStd> mean_and_std(std::span<const double> values);

// The Binder cumulant 1 - <x^4> / (3 <x^2>^2) of `values`: 2/3 for a constant series, near 0
// for Gaussian noise about 0. Nothing when there are none, or when <x^2> is 0.
std::optional<double> binder_cumulant(std::span<const double> values);

// The value that occurs most often, empty ones left out; among equally frequent values the
// one whose last occurrence comes latest (the state the run was in most recently). Nothing
// when every value is empty.
std::optional<std::string> most_frequent(std::span<const std::string> values);

// The statistics column whose Binder cumulant the summary gives, after its mean and std.
inline constexpr std::string_view kBinderColumn = "polarization";

// The samples of one run's window, column by column, and their summary.
class WindowSummary {
 public:
  explicit WindowSummary(std::vector<StatsColumn> columns);

  void add(const StatsSample& sample);
  std::size_t samples() const { return samples_; }

  // The summary's column names, in order: <column>_mean and <column>_std for a numeric column
  // (then polarization_binder after polarization's), <column>_mode for a column of words.
  std::vector<std::string> header() const;
  // Its cells, in the header's order: numbers as the statistics write them, empty where a
  // column had no value in the window.
  std::vector<std::string> cells() const;

 private:
  std::vector<std::pair<std::string, std::string>> named_cells() const;

  std::vector<StatsColumn> columns_;
  // Per column, the values of its samples: numbers (empty cells left out) or words.
  std::vector<std::vector<double>> numbers_;
  std::vector<std::vector<std::string>> words_;
  std::size_t samples_ = 0;
};

}  // namespace murmur::study
