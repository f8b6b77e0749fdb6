// Scenarios out: a scenario of either kind written back as TOML that parse.cpp reads to the same
// values, every key of every table written (the defaults too), floats with enough digits to read
// back exactly.
//
// parse.cpp reads the tables and check.cpp checks them, both in the order of the top-level keys;
// the writer's order is older ([render] before [target], [[spawn]] before [food]) and kept, so
// that a written scenario stays the same bytes.
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include "murmur/scenario/scenario.hpp"
#include "scenario_internal.hpp"

namespace murmur {
namespace {

using scenario_internal::spawn_key_applies;

constexpr int kFloatDigits = 9;  // %.9g: enough to read every float32 back exactly

// %.9g without the locale (a viewer may have called setlocale).
std::string format_float(float value) {
  char buffer[64];
  const auto result =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, kFloatDigits);
  return std::string(buffer, result.ptr);
}

// A TOML float: %.9g, with ".0" added where %.9g prints an integer ("3", "-0") so that the
// value stays a float (and -0 keeps its sign).
std::string toml_float(float value) {
  std::string text = format_float(value);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

std::string toml_value(float value) { return toml_float(value); }
std::string toml_value(std::uint32_t value) { return std::to_string(value); }
std::string toml_value(int value) { return std::to_string(value); }
std::string toml_value(std::uint64_t value) { return std::to_string(value); }
std::string toml_value(bool value) { return value ? "true" : "false"; }
std::string toml_value(const std::string& value) { return toml_quote(value); }
template <class Enum>
  requires std::is_enum_v<Enum>
std::string toml_value(Enum value) {
  return toml_quote(names_of(value)[static_cast<std::size_t>(value)]);
}
std::string toml_value(const std::vector<std::string>& names) {
  std::string out = "[";
  for (std::size_t j = 0; j < names.size(); ++j) out += (j == 0 ? "" : ", ") + toml_quote(names[j]);
  return out + "]";
}
std::string toml_value(const CircleRadius& radius) {
  return radius.kind == CircleRadiusKind::WorldUnits
             ? toml_float(radius.world_units)
             : toml_quote(kCircleRadiusNames[static_cast<std::size_t>(radius.kind)]);
}
std::string toml_value(const FoodInitial& initial) {
  return initial.random ? toml_quote(kFoodInitialRandom) : toml_float(initial.fraction);
}
std::string toml_value(glm::vec3 colour) {
  return "[" + toml_float(colour.r) + ", " + toml_float(colour.g) + ", " + toml_float(colour.b) +
         "]";
}

}  // namespace

std::string toml_quote(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte < 0x20 || byte == 0x7f) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04x", byte);
      out += escape;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

namespace {

// The head and [world] table of either kind.
std::string world_toml(const ScenarioCommon& scenario) {
  std::string out;
  out += "# murmur scenario (docs/scenarios.md describes every key)\n";
  out += "[world]\n";
  for_each_world_param([&](const auto& info) {
    // A 2D file is written as it was before the third axis existed.
    if (!is_3d(scenario) && (info.key == params::world::dimensions.key ||
                             info.key == params::world::depth.key)) {
      return;
    }
    out += std::string(info.key) + " = " + toml_value(scenario.world.*info.member) + "\n";
  });
  return out;
}

// The [render] and [camera] tables, each when the scenario sets any of its keys.
std::string look_toml(const ScenarioCommon& scenario) {
  std::string out;
  if (!scenario.look.empty()) {
    out += "\n[render]\n";
    for_each_render_param([&](const auto& info) {
      const auto& value = scenario.look.*info.member;
      if (value) out += std::string(info.key) + " = " + toml_value(*value) + "\n";
    });
  }
  if (!scenario.camera.empty()) {
    out += "\n[camera]\n";
    for_each_camera_param([&](const auto& info) {
      const auto& value = scenario.camera.*info.member;
      if (value) out += std::string(info.key) + " = " + toml_value(*value) + "\n";
    });
  }
  return out;
}

}  // namespace

std::string scenario_to_toml(const FlockScenario& scenario) {
  std::string out = world_toml(scenario);
  for (const SpeciesParams& s : scenario.species) {
    out += "\n[[species]]\n";
    for_each_species_param([&](const auto& info) {
      out += std::string(info.key) + " = " + toml_value(s.*info.member) + "\n";
    });
  }
  for (const Obstacle& o : scenario.obstacles) {
    out += "\n[[obstacle]]\n";
    out += "x = " + toml_float(o.centre.x) + "\n";
    out += "y = " + toml_float(o.centre.y) + "\n";
    if (is_3d(scenario)) out += "z = " + toml_float(o.z) + "\n";  // 2D files keep their bytes
    out += "radius = " + toml_float(o.radius) + "\n";
  }
  out += look_toml(scenario);
  if (scenario.target) {
    out += "\n[target]\n";
    out += "x = " + toml_float(scenario.target->position.x) + "\n";
    out += "y = " + toml_float(scenario.target->position.y) + "\n";
    if (is_3d(scenario)) out += "z = " + toml_float(scenario.target->z) + "\n";
  }
  for (const SpawnRegion& spawn : scenario.spawns) {
    out += "\n[[spawn]]\n";
    for_each_spawn_param([&](const auto& info) {
      if (!spawn_key_applies(spawn.layout, info.key)) return;
      out += std::string(info.key) + " = " + toml_value(spawn.*info.member) + "\n";
    });
  }
  if (scenario.food) {
    out += "\n[food]\n";
    for_each_food_param([&](const auto& info) {
      out += std::string(info.key) + " = " + toml_value((*scenario.food).*info.member) + "\n";
    });
    for (const FoodPatch& patch : scenario.food->patches) {
      out += "\n[[food.patch]]\n";
      for_each_food_patch_param([&](const auto& info) {
        out += std::string(info.key) + " = " + toml_value(patch.*info.member) + "\n";
      });
    }
  }
  return out;
}

std::string scenario_to_toml(const PlanScenario& scenario) {
  std::string out = world_toml(scenario) + look_toml(scenario);
  out += "\n[plan]\n";
  for_each_plan_param([&](const auto& info) {
    out += std::string(info.key) + " = " + toml_value(scenario.plan.*info.member) + "\n";
  });
  for (const PlanGroup& group : scenario.plan.groups) {
    out += "\n[[plan.group]]\n";
    for_each_plan_group_param([&](const auto& info) {
      out += std::string(info.key) + " = " + toml_value(group.*info.member) + "\n";
    });
  }
  return out;
}

}  // namespace murmur
