// A flock scenario's keys by their names on a command line, `world.<key>` and
// `species.<name>.<key>` (`murmur sweep --vary`, docs/sweep.md): set from text as a file's line
// would be read (parse.cpp), and shown as text.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "murmur/scenario/scenario.hpp"
#include "param_text.hpp"
#include "scenario_internal.hpp"

namespace murmur {
namespace {

using params::show_float;
using scenario_internal::fail;
using scenario_internal::quote;

constexpr std::string_view kWorldPrefix = "world.";
constexpr std::string_view kSpeciesPrefix = "species.";

// Where a key lives: the world (no species) or one species, and its name in that table.
struct KeyPlace {
  std::optional<std::size_t> species;
  std::string_view key;
};

KeyPlace place_of(const FlockScenario& scenario, std::string_view name,
                  const std::string& origin) {
  const auto malformed = [&]() {
    fail(origin, 0, quote(name) + ": must be world.<key> or species.<name>.<key>");
  };
  if (name.starts_with(kWorldPrefix)) {
    const std::string_view key = name.substr(kWorldPrefix.size());
    if (key.empty()) malformed();
    return {std::nullopt, key};
  }
  if (!name.starts_with(kSpeciesPrefix)) malformed();
  // A species name may hold a dot; a key never does.
  const std::string_view rest = name.substr(kSpeciesPrefix.size());
  const std::size_t dot = rest.rfind('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == rest.size()) malformed();
  const std::string_view species_name = rest.substr(0, dot);
  std::string names;
  for (std::size_t i = 0; i < scenario.species.size(); ++i) {
    if (scenario.species[i].name == species_name) return {i, rest.substr(dot + 1)};
    names += (i == 0 ? "" : ", ") + quote(scenario.species[i].name);
  }
  fail(origin, 0,
       quote(name) + ": no species named " + quote(species_name) + " (the scenario's: " + names +
           ")");
}

std::string text_of(float value) { return show_float(value); }
std::string text_of(std::uint32_t value) { return std::to_string(value); }
std::string text_of(std::uint64_t value) { return std::to_string(value); }
std::string text_of(bool value) { return value ? "true" : "false"; }
std::string text_of(const std::string& value) { return value; }
template <class Enum>
  requires std::is_enum_v<Enum>
std::string text_of(Enum value) {
  return std::string(names_of(value)[static_cast<std::size_t>(value)]);
}
std::string text_of(const std::vector<std::string>& names) {
  std::string out = "[";
  for (std::size_t j = 0; j < names.size(); ++j) out += (j == 0 ? "" : ", ") + quote(names[j]);
  return out + "]";
}
std::string text_of(glm::vec3 colour) {
  return "[" + show_float(colour.r) + ", " + show_float(colour.g) + ", " + show_float(colour.b) +
         "]";
}

}  // namespace

void set_scenario_key(FlockScenario& scenario, std::string_view key, std::string_view value,
                      const std::string& origin) {
  const KeyPlace place = place_of(scenario, key, origin);
  scenario_internal::read_key(scenario, place.species, place.key, value, origin);
}

std::string scenario_key_text(const FlockScenario& scenario, std::string_view key) {
  const KeyPlace place = place_of(scenario, key, std::string(key));
  std::optional<std::string> text;
  const auto visit = [&](const auto& record) {
    return [&](const auto& info) {
      if (info.key == place.key) text = text_of(record.*info.member);
    };
  };
  if (place.species) {
    for_each_species_param(visit(scenario.species[*place.species]));
  } else {
    for_each_world_param(visit(scenario.world));
  }
  if (!text) fail(std::string(key), 0, "unknown key");
  return *text;
}

}  // namespace murmur
