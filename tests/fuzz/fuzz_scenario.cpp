// libFuzzer target for parse_any_scenario (docs/reliability.md), either kind. Any input may be
// rejected with InputError; anything else escaping, a sanitizer report or a broken round trip
// is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <variant>

#include "murmur/base/errors.hpp"
#include "murmur/scenario/scenario.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  murmur::AnyScenario scenario;
  try {
    scenario = murmur::parse_any_scenario(text, "fuzz.toml");
  } catch (const murmur::InputError&) {
    return 0;
  }
  // A scenario that was accepted must survive its own writer: scenario_to_toml promises text
  // that the parser reads back to the same values (and kind), so writing that again gives the
  // same text.
  const auto write = [](const auto& kind) { return murmur::scenario_to_toml(kind); };
  const std::string written = std::visit(write, scenario);
  const murmur::AnyScenario reread = murmur::parse_any_scenario(written, "fuzz-roundtrip.toml");
  if (reread.index() != scenario.index() || std::visit(write, reread) != written) std::abort();
  return 0;
}
