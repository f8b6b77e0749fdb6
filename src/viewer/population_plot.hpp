#pragma once
// What the panel's population plot draws for one species (docs/viewer.md, "The population
// plot"): its samples ending at the live count the panel shows above the plot (live_counts.hpp),
// on the series' own range with that range in the label, so that a change shows however small
// it is beside the count; and for a series that never changed, which has no range to scale to,
// no line at all but "steady at N". Header-only, so tests/core/test_viewer_logic.cpp tests it
// without a window.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "live_counts.hpp"

namespace murmur::viewer {

struct PopulationPlot {
  std::vector<float> series;  // oldest first; empty: nothing counted yet
  bool steady = false;        // one value throughout: the label alone, no line
  float low = 0;              // the y range: the series' least and greatest values
  float high = 0;
  std::string label;          // "71 (range 47 to 80)" over the line, or "steady at 30000"
};

// The plot of species `species`: `samples` (PopulationHistory::population, the newest of step
// `last_sample_step`), then the live count of `counts` when it is of a later step.
inline PopulationPlot population_plot(const std::vector<float>& samples,
                                      std::optional<std::uint64_t> last_sample_step,
                                      const std::optional<LiveCounts>& counts,
                                      std::size_t species) {
  PopulationPlot plot;
  plot.series = samples;
  const bool counted = counts && species < counts->population.size();
  if (counted && (!last_sample_step || counts->step > *last_sample_step))
    plot.series.push_back(static_cast<float>(counts->population[species]));
  if (plot.series.empty()) return plot;
  const auto [low, high] = std::minmax_element(plot.series.begin(), plot.series.end());
  plot.low = *low;
  plot.high = *high;
  plot.steady = plot.low == plot.high;
  const auto whole = [](float value) { return std::to_string(static_cast<std::uint64_t>(value)); };
  if (plot.steady) {
    plot.label = "steady at " + whole(plot.low);
  } else {
    plot.label = whole(plot.series.back()) + " (range " + whole(plot.low) + " to " +
                 whole(plot.high) + ")";
  }
  return plot;
}

}  // namespace murmur::viewer
