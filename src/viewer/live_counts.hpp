#pragma once
// The live boids of each species at one step: the one count the flock's viewer shows
// (docs/viewer.md, "One count"). The status line, the window title, the panel's statistics and
// species rows and the population plot's labels all show the same LiveCounts, which comes back
// from the GPU (or, in 3D, from the state the CPU statistics read) with the step it is of;
// nothing else counts boids. Header-only, so tests/core/test_viewer_logic.cpp tests it without
// a window.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "murmur/scenario/scenario.hpp"

namespace murmur::viewer {

struct LiveCounts {
  std::uint64_t step = 0;                 // the viewer's step the counts are of
  std::vector<std::uint32_t> population;  // live boids per species, in the scenario's order
  std::uint32_t total() const {
    return std::accumulate(population.begin(), population.end(), std::uint32_t{0});
  }
};

// "124 boids", then with `per_species` and more than one species " (grazers 71, hunters 53)",
// then " at step 1198" when the counts are of an earlier step than `now` (running, they come
// back a frame or two after their step). Without counts (the first frames, or a 3D world whose
// live statistics are off) "boids not counted": never the scenario's starting count.
inline std::string live_count_text(const std::optional<LiveCounts>& counts,
                                   const Scenario& scenario, std::uint64_t now,
                                   bool per_species) {
  if (!counts) return "boids not counted";
  std::string text = std::to_string(counts->total()) + " boids";
  const std::size_t species = std::min(counts->population.size(), scenario.species.size());
  if (per_species && species > 1) {
    text += " (";
    for (std::size_t s = 0; s < species; ++s) {
      if (s > 0) text += ", ";
      text += scenario.species[s].name + " " + std::to_string(counts->population[s]);
    }
    text += ")";
  }
  if (counts->step != now) text += " at step " + std::to_string(counts->step);
  return text;
}

}  // namespace murmur::viewer
