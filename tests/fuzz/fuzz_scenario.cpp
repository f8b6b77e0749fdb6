// libFuzzer target for parse_scenario (docs/reliability.md). Any input may be rejected with
// InputError; anything else escaping, a sanitizer report or a broken round trip is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "murmur/base/errors.hpp"
#include "murmur/scenario/scenario.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  murmur::Scenario scenario;
  try {
    scenario = murmur::parse_scenario(text, "fuzz.toml");
  } catch (const murmur::InputError&) {
    return 0;
  }
  // A scenario that was accepted must survive its own writer: scenario_to_toml promises text
  // that parse_scenario reads back to the same values, so writing that again gives the same text.
  const std::string written = murmur::scenario_to_toml(scenario);
  const murmur::Scenario reread = murmur::parse_scenario(written, "fuzz-roundtrip.toml");
  if (murmur::scenario_to_toml(reread) != written) std::abort();
  return 0;
}
