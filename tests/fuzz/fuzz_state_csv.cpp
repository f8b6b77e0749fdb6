// libFuzzer target for the CSV state reader (docs/reliability.md). The scenario is fixed: two
// species, one on a torus and one walled in, so both position checks are reached, and the first
// has energy, so the energy range is checked against a positive and a zero cap. Any input
// may be rejected with InputError; anything else escaping or a sanitizer report is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "murmur/base/errors.hpp"
#include "murmur/scenario/scenario.hpp"
#include "murmur/flock/state.hpp"

namespace {

constexpr std::string_view kScenario = R"(
[world]
width = 100
height = 50
capacity = 8

[[species]]
name = "wrapped"
count = 2
topology = "wrap"
energy_max = 100
energy_initial = 50

[[species]]
name = "walled"
count = 2
topology = "bounded"
)";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const murmur::Scenario scenario = murmur::parse_scenario(kScenario, "fuzz-scenario");
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  murmur::FlockState state;
  try {
    state = murmur::parse_state_csv(text, "fuzz.csv", scenario);
  } catch (const murmur::InputError&) {
    return 0;
  }
  // What the reader accepts, the simulation trusts: known species, at most the capacity,
  // energies within their species' cap.
  if (state.boids.size() > scenario.capacity()) std::abort();
  for (const murmur::Boid& boid : state.boids) {
    if (boid.species >= scenario.species.size()) std::abort();
    const float cap = scenario.species[boid.species].energy_max;
    if (!(boid.energy >= 0.0f && boid.energy <= cap)) std::abort();
  }
  return 0;
}
