#pragma once
// The 1-4 keys: switch rules off to show what each contributes (free flight, then alignment,
// then cohesion, then separation added). The user's weights are kept; the flock is given a
// copy with the switched-off weights set to 0. Header-only so a unit test can check it.
#include <string_view>

#include "murmur/scenario/scenario.hpp"

namespace murmur::viewer {

enum class RuleMode {
  FreeFlight = 1,         // every weight 0: boids fly straight
  Alignment = 2,          // alignment only
  AlignmentCohesion = 3,  // alignment and cohesion
  All = 4,                // alignment, cohesion and separation: the scenario as written
};

constexpr std::string_view rule_mode_name(RuleMode mode) {
  switch (mode) {
    case RuleMode::FreeFlight: return "free flight";
    case RuleMode::Alignment: return "alignment only";
    case RuleMode::AlignmentCohesion: return "alignment + cohesion";
    case RuleMode::All: return "all rules";
  }
  return "?";
}

constexpr bool uses_alignment(RuleMode mode) { return mode >= RuleMode::Alignment; }
constexpr bool uses_cohesion(RuleMode mode) { return mode >= RuleMode::AlignmentCohesion; }
constexpr bool uses_separation(RuleMode mode) { return mode == RuleMode::All; }

// The scenario the flock is given in `mode`.
inline Scenario with_rule_mode(Scenario scenario, RuleMode mode) {
  for (SpeciesParams& species : scenario.species) {
    if (!uses_alignment(mode)) species.align_weight = 0;
    if (!uses_cohesion(mode)) species.cohesion_weight = 0;
    if (!uses_separation(mode)) species.separation_weight = 0;
  }
  return scenario;
}

}  // namespace murmur::viewer
