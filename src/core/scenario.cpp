// Scenario files: TOML in, validated Scenario out, and back (docs/scenarios.md is the user's
// reference for every key, default and range below).
#include "murmur/scenario.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <system_error>

#include <toml++/toml.h>

#include "murmur/errors.hpp"

namespace murmur {
namespace {

// Ids and counts stay exactly representable in a float32 (shaders may carry them as floats),
// and 2^24 boids already need ~400 MB of state and neighbour-grid buffers on the GPU.
constexpr std::uint64_t kMaxTotalBoids = std::uint64_t{1} << 24;
// Colours are linear HDR values for the additive, bloomed renderer: above 1 glows, and 16
// is already far past what the tone map can still tell apart.
constexpr float kMaxColourComponent = 16.0f;
constexpr std::size_t kMaxShownValueChars = 40;
constexpr int kFloatDigits = 9;  // %.9g: enough to read every float32 back exactly

// Defaults for keys left out of a [[species]] table (documented in docs/scenarios.md).
constexpr std::uint32_t kDefaultCount = 1000;
constexpr float kDefaultPerceptionRadius = 12.0f;
constexpr float kDefaultSeparationRadius = 5.0f;
constexpr float kDefaultAlignWeight = 0.05f;
constexpr float kDefaultCohesionWeight = 0.005f;
constexpr float kDefaultSeparationWeight = 0.5f;
constexpr float kDefaultMaxForce = 0.05f;
constexpr float kDefaultMinSpeed = 1.5f;
constexpr float kDefaultMaxSpeed = 3.0f;
constexpr std::uint64_t kDefaultSeed = 1;
// Strong enough that a flock parts around an obstacle (the force limit caps it), and a target
// that pulls with a fraction of the default force limit, so flocking still shows.
constexpr float kDefaultObstacleWeight = 0.5f;
constexpr float kDefaultTargetWeight = 0.01f;

SpeciesParams default_species(std::size_t index) {
  SpeciesParams s;
  s.name = "species" + std::to_string(index);
  s.count = kDefaultCount;
  s.topology = Topology::Wrap;
  s.perception_radius = kDefaultPerceptionRadius;
  s.separation_radius = kDefaultSeparationRadius;
  s.fov_degrees = kMaxFovDegrees;
  s.align_weight = kDefaultAlignWeight;
  s.cohesion_weight = kDefaultCohesionWeight;
  s.separation_weight = kDefaultSeparationWeight;
  s.max_force = kDefaultMaxForce;
  s.min_speed = kDefaultMinSpeed;
  s.max_speed = kDefaultMaxSpeed;
  s.edge_margin = 0.0f;
  s.edge_gain = 0.0f;
  s.obstacle_weight = kDefaultObstacleWeight;
  s.target_weight = kDefaultTargetWeight;
  s.flocks_with = {s.name};
  s.colour = glm::vec3(1.0f);
  return s;
}

struct FloatField {
  std::string_view key;
  float SpeciesParams::*member;
};
// The plain float keys of a species, in the order they are written and checked.
constexpr FloatField kSpeciesFloatFields[] = {
    {"perception_radius", &SpeciesParams::perception_radius},
    {"separation_radius", &SpeciesParams::separation_radius},
    {"fov_degrees", &SpeciesParams::fov_degrees},
    {"align_weight", &SpeciesParams::align_weight},
    {"cohesion_weight", &SpeciesParams::cohesion_weight},
    {"separation_weight", &SpeciesParams::separation_weight},
    {"max_force", &SpeciesParams::max_force},
    {"min_speed", &SpeciesParams::min_speed},
    {"max_speed", &SpeciesParams::max_speed},
    {"edge_margin", &SpeciesParams::edge_margin},
    {"edge_gain", &SpeciesParams::edge_gain},
    {"obstacle_weight", &SpeciesParams::obstacle_weight},
    {"target_weight", &SpeciesParams::target_weight},
};
constexpr std::string_view kWorldKeys = "width, height, seed";
constexpr std::string_view kSpeciesKeys =
    "name, count, topology, perception_radius, separation_radius, fov_degrees, align_weight, "
    "cohesion_weight, separation_weight, max_force, min_speed, max_speed, edge_margin, "
    "edge_gain, obstacle_weight, target_weight, flocks_with, colour";
constexpr std::string_view kObstacleKeys = "x, y, radius";
constexpr std::string_view kTargetKeys = "x, y";
constexpr std::string_view kRenderKeys =
    "trails, trail_length, trail_fade, colour_by, bloom, bloom_intensity, bloom_threshold, "
    "exposure, background";
constexpr std::string_view kTopLevelKeys = "world, species, obstacle, target, render";

// Names of the [render] table's enumerated values, in the enums' order.
constexpr std::string_view kTrailModeNames[] = {"none", "ribbons", "fade"};
constexpr std::string_view kColourModeNames[] = {"species", "heading", "speed"};

// ---- text helpers ----------------------------------------------------------------------

// %.9g without the locale (a viewer may have called setlocale).
std::string format_float(float value) {
  char buffer[64];
  const auto result =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, kFloatDigits);
  return std::string(buffer, result.ptr);
}

// The shortest text that reads back to `value`: for messages, where 0.1f should read "0.1".
std::string show_float(float value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

std::string show_double(double value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

std::string quote(std::string_view text) { return toml_quote(text); }

std::string show_node(const toml::node& node) {
  std::string shown;
  switch (node.type()) {
    case toml::node_type::string: shown = quote(node.as_string()->get()); break;
    case toml::node_type::integer: shown = std::to_string(node.as_integer()->get()); break;
    case toml::node_type::floating_point:
      shown = show_double(node.as_floating_point()->get());
      break;
    case toml::node_type::boolean: shown = node.as_boolean()->get() ? "true" : "false"; break;
    case toml::node_type::array: shown = "[...]"; break;
    case toml::node_type::table: shown = "{...}"; break;
    default: shown = "<date/time>"; break;
  }
  if (shown.size() > kMaxShownValueChars) shown = shown.substr(0, kMaxShownValueChars) + "...";
  return shown;
}

std::string_view type_name(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a float";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::array: return "an array";
    case toml::node_type::table: return "a table";
    default: return "a date/time";
  }
}

std::string_view topology_name(Topology topology) {
  return topology == Topology::Bounded ? "bounded" : "wrap";
}

// ---- where each value came from --------------------------------------------------------

// Source lines of one table's keys; 0 means "not from a file".
struct KeyLines {
  std::uint32_t table = 0;
  std::map<std::string, std::uint32_t, std::less<>> keys;
  // A key left out takes its default, which the table header stands for.
  std::uint32_t line_of(std::string_view key) const {
    const auto found = keys.find(key);
    return found != keys.end() ? found->second : table;
  }
};

struct ScenarioLines {
  KeyLines world;
  std::vector<KeyLines> species;
  std::vector<KeyLines> obstacles;
  KeyLines target;
  KeyLines render;
};

[[noreturn]] void fail(const std::string& source, std::uint32_t line, const std::string& what) {
  std::string message = source.empty() ? "<scenario>" : source;
  if (line != 0) message += ":" + std::to_string(line);
  throw InputError(message + ": " + what);
}

std::string species_label(std::size_t index, std::string_view name) {
  std::string label = "species[" + std::to_string(index) + "]";
  if (!name.empty()) label += " (" + std::string(name) + ")";
  return label;
}

// ---- validation (shared by files and in-memory scenarios) ------------------------------

class Validator {
 public:
  Validator(const Scenario& scenario, const ScenarioLines* lines)
      : scenario_(scenario), lines_(lines) {}

  void run() {
    check_world();
    check_species_list();
    for (std::size_t i = 0; i < scenario_.species.size(); ++i) check_species(i);
    check_total_count();
    check_obstacles();
    check_target();
    check_look();
  }

 private:
  std::uint32_t world_line(std::string_view key) const {
    return lines_ ? lines_->world.line_of(key) : 0;
  }
  std::uint32_t species_line(std::size_t i, std::string_view key) const {
    return lines_ && i < lines_->species.size() ? lines_->species[i].line_of(key) : 0;
  }

  void check_world() const {
    const WorldParams& world = scenario_.world;
    for (const auto& [key, value] : {std::pair<std::string_view, float>{"width", world.width},
                                     std::pair<std::string_view, float>{"height", world.height}}) {
      if (!std::isfinite(value) || !(value > 0.0f)) {
        fail(scenario_.source, world_line(key),
             "world." + std::string(key) + " = " + show_float(value) + ": must be > 0 and finite");
      }
    }
    if (world.seed > kMaxSeed) {
      fail(scenario_.source, world_line("seed"),
           "world.seed = " + std::to_string(world.seed) + ": must be >= 0 and <= " +
               std::to_string(kMaxSeed));
    }
  }

  void check_species_list() const {
    if (scenario_.species.empty()) {
      fail(scenario_.source, 0, "no [[species]] table: a scenario needs at least one species");
    }
    if (scenario_.species.size() > kMaxSpecies) {
      fail(scenario_.source, species_line(kMaxSpecies, "name"),
           species_label(kMaxSpecies, scenario_.species[kMaxSpecies].name) +
               ": too many species (" + std::to_string(scenario_.species.size()) + "): at most " +
               std::to_string(kMaxSpecies) + " share a world");
    }
  }

  [[noreturn]] void fail_species(std::size_t i, std::string_view key, const std::string& value,
                                 const std::string& requirement) const {
    fail(scenario_.source, species_line(i, key),
         species_label(i, scenario_.species[i].name) + "." + std::string(key) + " = " + value +
             ": " + requirement);
  }

  void check_species(std::size_t i) const {
    const SpeciesParams& s = scenario_.species[i];
    check_name(i);
    if (s.count > kMaxTotalBoids) {
      fail_species(i, "count", std::to_string(s.count),
                   "must be >= 0 and <= " + std::to_string(kMaxTotalBoids));
    }
    if (s.topology != Topology::Wrap && s.topology != Topology::Bounded) {
      fail_species(i, "topology", std::to_string(static_cast<std::uint32_t>(s.topology)),
                   "must be \"wrap\" or \"bounded\"");
    }
    for (const FloatField& field : kSpeciesFloatFields) {
      const float value = s.*field.member;
      if (!std::isfinite(value)) fail_species(i, field.key, show_float(value), "must be finite");
    }

    const float half_side = 0.5f * std::min(scenario_.world.width, scenario_.world.height);
    const std::string below_half_side =
        " and < " + show_float(half_side) + " (half the smaller world side)";
    auto require = [&](bool ok, std::string_view key, float value, const std::string& range) {
      if (!ok) fail_species(i, key, show_float(value), "must be " + range);
    };
    require(s.perception_radius > 0.0f && s.perception_radius < half_side, "perception_radius",
            s.perception_radius, "> 0" + below_half_side);
    require(s.separation_radius >= 0.0f && s.separation_radius <= s.perception_radius,
            "separation_radius", s.separation_radius,
            ">= 0 and <= perception_radius (" + show_float(s.perception_radius) + ")");
    require(s.fov_degrees > 0.0f && s.fov_degrees <= kMaxFovDegrees, "fov_degrees", s.fov_degrees,
            "> 0 and <= 360");
    require(s.align_weight >= 0.0f, "align_weight", s.align_weight, ">= 0");
    require(s.cohesion_weight >= 0.0f, "cohesion_weight", s.cohesion_weight, ">= 0");
    require(s.separation_weight >= 0.0f, "separation_weight", s.separation_weight, ">= 0");
    require(s.max_force > 0.0f, "max_force", s.max_force, "> 0");
    require(s.max_speed > 0.0f && s.max_speed < half_side, "max_speed", s.max_speed,
            "> 0" + below_half_side);
    require(s.min_speed >= 0.0f && s.min_speed <= s.max_speed, "min_speed", s.min_speed,
            ">= 0 and <= max_speed (" + show_float(s.max_speed) + ")");
    require(s.edge_margin >= 0.0f && s.edge_margin < half_side, "edge_margin", s.edge_margin,
            ">= 0" + below_half_side);
    require(s.edge_gain >= 0.0f, "edge_gain", s.edge_gain, ">= 0");
    require(s.obstacle_weight >= 0.0f, "obstacle_weight", s.obstacle_weight, ">= 0");
    require(s.target_weight >= 0.0f, "target_weight", s.target_weight, ">= 0");
    check_flocks_with(i);
    check_colour(i);
  }

  void check_name(std::size_t i) const {
    const std::string& name = scenario_.species[i].name;
    const std::string label = species_label(i, "") + ".name = " + quote(name);
    if (name.empty()) fail(scenario_.source, species_line(i, "name"), label + ": must not be empty");
    for (const char c : name) {
      const auto byte = static_cast<unsigned char>(c);
      if (byte < 0x20 || byte == 0x7f) {
        fail(scenario_.source, species_line(i, "name"),
             label + ": must not contain control characters");
      }
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (scenario_.species[j].name == name) {
        fail(scenario_.source, species_line(i, "name"),
             label + ": must be unique, species[" + std::to_string(j) + "] has the same name");
      }
    }
  }

  void check_flocks_with(std::size_t i) const {
    for (const std::string& name : scenario_.species[i].flocks_with) {
      bool known = false;
      for (const SpeciesParams& other : scenario_.species) known = known || other.name == name;
      if (!known) {
        std::string names;
        for (const SpeciesParams& other : scenario_.species) {
          names += (names.empty() ? "" : ", ") + quote(other.name);
        }
        fail_species(i, "flocks_with", quote(name), "no species has this name (species: " + names + ")");
      }
    }
  }

  void check_colour(std::size_t i) const {
    const glm::vec3 colour = scenario_.species[i].colour;
    for (int c = 0; c < 3; ++c) {
      if (!(colour[c] >= 0.0f && colour[c] <= kMaxColourComponent)) {
        fail_species(i, "colour",
                     "[" + show_float(colour.r) + ", " + show_float(colour.g) + ", " +
                         show_float(colour.b) + "]",
                     "each component must be >= 0 and <= " + show_float(kMaxColourComponent) +
                         " (linear RGB, > 1 glows)");
      }
    }
  }

  void check_total_count() const {
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < scenario_.species.size(); ++i) {
      total += scenario_.species[i].count;
      if (total > kMaxTotalBoids) {
        fail_species(i, "count", std::to_string(scenario_.species[i].count),
                     "the total over all species (" + std::to_string(total) +
                         ") must be <= " + std::to_string(kMaxTotalBoids));
      }
    }
    if (total == 0) {
      fail_species(0, "count", "0",
                   "the total over all species is 0: at least one boid is needed");
    }
  }

  std::uint32_t obstacle_line(std::size_t i, std::string_view key) const {
    return lines_ && i < lines_->obstacles.size() ? lines_->obstacles[i].line_of(key) : 0;
  }

  // A point of the world, walls included: [0, width] x [0, height].
  bool inside_world(glm::vec2 p) const {
    return p.x >= 0.0f && p.x <= scenario_.world.width && p.y >= 0.0f &&
           p.y <= scenario_.world.height;
  }

  std::string world_range() const {
    return "[0, " + show_float(scenario_.world.width) + "] x [0, " +
           show_float(scenario_.world.height) + "] (the world)";
  }

  void check_obstacles() const {
    if (scenario_.obstacles.size() > kMaxObstacles) {
      fail(scenario_.source, obstacle_line(kMaxObstacles, "x"),
           "obstacle[" + std::to_string(kMaxObstacles) + "]: too many obstacles (" +
               std::to_string(scenario_.obstacles.size()) + "): at most " +
               std::to_string(kMaxObstacles));
    }
    for (std::size_t i = 0; i < scenario_.obstacles.size(); ++i) {
      const Obstacle& o = scenario_.obstacles[i];
      const std::string label = "obstacle[" + std::to_string(i) + "]";
      if (!inside_world(o.centre)) {
        fail(scenario_.source, obstacle_line(i, "x"),
             label + " (x, y) = (" + show_float(o.centre.x) + ", " + show_float(o.centre.y) +
                 "): must lie in " + world_range());
      }
      if (!(o.radius > 0.0f) || !std::isfinite(o.radius)) {
        fail(scenario_.source, obstacle_line(i, "radius"),
             label + ".radius = " + show_float(o.radius) + ": must be > 0 and finite");
      }
    }
  }

  void check_target() const {
    if (!scenario_.target) return;
    const glm::vec2 p = scenario_.target->position;
    if (!inside_world(p)) {
      fail(scenario_.source, lines_ ? lines_->target.line_of("x") : 0,
           "target (x, y) = (" + show_float(p.x) + ", " + show_float(p.y) + "): must lie in " +
               world_range());
    }
  }

  [[noreturn]] void fail_render(std::string_view key, const std::string& value,
                                const std::string& requirement) const {
    fail(scenario_.source, lines_ ? lines_->render.line_of(key) : 0,
         "render." + std::string(key) + " = " + value + ": " + requirement);
  }

  void check_look() const {
    const LookParams& look = scenario_.look;
    if (look.trail_length && (*look.trail_length < kMinRibbonLength || *look.trail_length > kMaxRibbonLength)) {
      fail_render("trail_length", std::to_string(*look.trail_length),
                  "must be >= " + std::to_string(kMinRibbonLength) + " and <= " +
                      std::to_string(kMaxRibbonLength));
    }
    if (look.trail_fade && !(*look.trail_fade > 0.0f && *look.trail_fade < 1.0f)) {
      fail_render("trail_fade", show_float(*look.trail_fade), "must be > 0 and < 1 (the fraction kept per step)");
    }
    if (look.bloom_intensity && !(*look.bloom_intensity >= 0.0f && std::isfinite(*look.bloom_intensity))) {
      fail_render("bloom_intensity", show_float(*look.bloom_intensity), "must be >= 0 and finite");
    }
    if (look.bloom_threshold && !(*look.bloom_threshold >= 0.0f && std::isfinite(*look.bloom_threshold))) {
      fail_render("bloom_threshold", show_float(*look.bloom_threshold), "must be >= 0 and finite");
    }
    if (look.exposure && !(*look.exposure > 0.0f && std::isfinite(*look.exposure))) {
      fail_render("exposure", show_float(*look.exposure), "must be > 0 and finite");
    }
    if (look.background) {
      const glm::vec3 c = *look.background;
      for (int k = 0; k < 3; ++k) {
        if (!(c[k] >= 0.0f && c[k] <= kMaxColourComponent)) {
          fail_render("background",
                      "[" + show_float(c.r) + ", " + show_float(c.g) + ", " + show_float(c.b) + "]",
                      "each component must be >= 0 and <= " + show_float(kMaxColourComponent));
        }
      }
    }
  }

  const Scenario& scenario_;
  const ScenarioLines* lines_;
};

// ---- parsing ---------------------------------------------------------------------------

class Parser {
 public:
  explicit Parser(std::string source) { scenario_.source = std::move(source); }

  Scenario parse(std::string_view text) {
    const toml::table root = parse_toml(text);
    for (const auto& [key, node] : root) {
      if (key != "world" && key != "species" && key != "obstacle" && key != "target" &&
          key != "render") {
        fail(scenario_.source, key.source().begin.line,
             quote(key.str()) + ": unknown table or key (accepted: " + std::string(kTopLevelKeys) +
                 ")");
      }
    }
    const toml::node* world = root.get("world");
    if (world == nullptr) {
      fail(scenario_.source, 0, "no [world] table: it needs width and height");
    }
    parse_world(*world);
    if (const toml::node* species = root.get("species")) parse_species_list(*species);
    if (const toml::node* obstacles = root.get("obstacle")) parse_obstacles(*obstacles);
    if (const toml::node* target = root.get("target")) parse_target(*target);
    if (const toml::node* render = root.get("render")) parse_render(*render);
    Validator(scenario_, &lines_).run();
    return std::move(scenario_);
  }

 private:
  toml::table parse_toml(std::string_view text) {
#if TOML_EXCEPTIONS
    try {
      return toml::parse(text, scenario_.source);
    } catch (const toml::parse_error& error) {
      syntax_error(error);
    }
#else
    toml::parse_result result = toml::parse(text, scenario_.source);
    if (!result) syntax_error(result.error());
    return std::move(result).table();
#endif
  }

  [[noreturn]] void syntax_error(const toml::parse_error& error) const {
    const toml::source_position begin = error.source().begin;
    std::string description(error.description());
    // toml++ descriptions are one line already; keep the message one line regardless.
    for (char& c : description) {
      if (c == '\n' || c == '\r') c = ' ';
    }
    throw InputError((scenario_.source.empty() ? "<scenario>" : scenario_.source) + ":" +
                     std::to_string(begin.line) + ":" + std::to_string(begin.column) +
                     ": TOML syntax error: " + description);
  }

  [[noreturn]] void wrong_type(const std::string& label, const toml::node& node,
                               std::string_view expected) const {
    fail(scenario_.source, node.source().begin.line,
         label + " = " + show_node(node) + ": must be " + std::string(expected) + ", found " +
             std::string(type_name(node)));
  }

  // A number where a float is expected: integers are welcome, NaN, inf and values beyond
  // float32 range are not.
  float read_float(const std::string& label, const toml::node& node) const {
    double value = 0.0;
    if (const auto* integer = node.as_integer()) {
      value = static_cast<double>(integer->get());
    } else if (const auto* floating = node.as_floating_point()) {
      value = floating->get();
    } else {
      wrong_type(label, node, "a number");
    }
    const auto narrowed = static_cast<float>(value);
    if (!std::isfinite(narrowed)) {
      fail(scenario_.source, node.source().begin.line,
           label + " = " + show_node(node) + ": must be a finite number (|x| <= " +
               show_float(std::numeric_limits<float>::max()) + ")");
    }
    return narrowed;
  }

  std::int64_t read_integer(const std::string& label, const toml::node& node,
                            std::int64_t minimum, std::uint64_t maximum) const {
    const auto* integer = node.as_integer();
    if (integer == nullptr) wrong_type(label, node, "an integer");
    const std::int64_t value = integer->get();
    if (value < minimum || static_cast<std::uint64_t>(value) > maximum) {
      fail(scenario_.source, node.source().begin.line,
           label + " = " + std::to_string(value) + ": must be >= " + std::to_string(minimum) +
               " and <= " + std::to_string(maximum));
    }
    return value;
  }

  const std::string& read_string(const std::string& label, const toml::node& node) const {
    const auto* text = node.as_string();
    if (text == nullptr) wrong_type(label, node, "a string");
    return text->get();
  }

  void parse_world(const toml::node& node) {
    const toml::table* table = node.as_table();
    if (table == nullptr) wrong_type("world", node, "a table");
    lines_.world.table = node.source().begin.line;
    bool has_width = false;
    bool has_height = false;
    scenario_.world.seed = kDefaultSeed;
    for (const auto& [key, value] : *table) {
      const std::string label = "world." + std::string(key.str());
      lines_.world.keys[std::string(key.str())] = value.source().begin.line;
      if (key == "width") {
        scenario_.world.width = read_float(label, value);
        has_width = true;
      } else if (key == "height") {
        scenario_.world.height = read_float(label, value);
        has_height = true;
      } else if (key == "seed") {
        scenario_.world.seed = static_cast<std::uint64_t>(read_integer(label, value, 0, kMaxSeed));
      } else {
        fail(scenario_.source, key.source().begin.line,
             label + ": unknown key (accepted: " + std::string(kWorldKeys) + ")");
      }
    }
    for (const auto& [key, present] : {std::pair{"width", has_width}, std::pair{"height", has_height}}) {
      if (!present) {
        fail(scenario_.source, lines_.world.table,
             "world." + std::string(key) + " is missing: it has no default (a number > 0)");
      }
    }
  }

  void parse_species_list(const toml::node& node) {
    const toml::array* list = node.as_array();
    if (list == nullptr) wrong_type("species", node, "an array of tables ([[species]])");
    for (std::size_t i = 0; i < list->size(); ++i) {
      const toml::node& element = *list->get(i);
      const toml::table* table = element.as_table();
      if (table == nullptr) {
        wrong_type("species[" + std::to_string(i) + "]", element, "a table ([[species]])");
      }
      parse_species(i, *table);
    }
  }

  void parse_species(std::size_t index, const toml::table& table) {
    SpeciesParams species = default_species(index);
    KeyLines lines;
    lines.table = table.source().begin.line;
    bool has_flocks_with = false;
    // The name comes first so that every other message can show it.
    if (const toml::node* name = table.get("name")) {
      species.name = read_string(species_label(index, "") + ".name", *name);
    }
    for (const auto& [key, value] : table) {
      const std::string label = species_label(index, species.name) + "." + std::string(key.str());
      lines.keys[std::string(key.str())] = value.source().begin.line;
      if (key == "name") continue;
      if (key == "count") {
        species.count = static_cast<std::uint32_t>(read_integer(label, value, 0, kMaxTotalBoids));
      } else if (key == "topology") {
        const std::string& topology = read_string(label, value);
        if (topology == "wrap") {
          species.topology = Topology::Wrap;
        } else if (topology == "bounded") {
          species.topology = Topology::Bounded;
        } else {
          fail(scenario_.source, value.source().begin.line,
               label + " = " + quote(topology) + ": must be \"wrap\" or \"bounded\"");
        }
      } else if (key == "flocks_with") {
        species.flocks_with = read_names(label, value);
        has_flocks_with = true;
      } else if (key == "colour") {
        species.colour = read_colour(label, value);
      } else if (float* field = float_field(species, key.str())) {
        *field = read_float(label, value);
      } else {
        fail(scenario_.source, key.source().begin.line,
             label + ": unknown key (accepted: " + std::string(kSpeciesKeys) + ")");
      }
    }
    if (!has_flocks_with) species.flocks_with = {species.name};
    scenario_.species.push_back(std::move(species));
    lines_.species.push_back(std::move(lines));
  }

  // Reads a table whose keys are all required floats, in the order `names` gives them.
  template <std::size_t N>
  std::array<float, N> read_point_table(const std::string& label, const toml::table& table,
                                        const std::array<std::string_view, N>& names,
                                        std::string_view accepted, KeyLines& lines) const {
    std::array<float, N> values{};
    std::array<bool, N> present{};
    lines.table = table.source().begin.line;
    for (const auto& [key, value] : table) {
      const auto found = std::find(names.begin(), names.end(), key.str());
      if (found == names.end()) {
        fail(scenario_.source, key.source().begin.line,
             label + "." + std::string(key.str()) + ": unknown key (accepted: " +
                 std::string(accepted) + ")");
      }
      const auto k = static_cast<std::size_t>(found - names.begin());
      lines.keys[std::string(key.str())] = value.source().begin.line;
      values[k] = read_float(label + "." + std::string(key.str()), value);
      present[k] = true;
    }
    for (std::size_t k = 0; k < N; ++k) {
      if (!present[k]) {
        fail(scenario_.source, lines.table,
             label + "." + std::string(names[k]) + " is missing: it has no default (a number)");
      }
    }
    return values;
  }

  void parse_obstacles(const toml::node& node) {
    const toml::array* list = node.as_array();
    if (list == nullptr) wrong_type("obstacle", node, "an array of tables ([[obstacle]])");
    for (std::size_t i = 0; i < list->size(); ++i) {
      const std::string label = "obstacle[" + std::to_string(i) + "]";
      const toml::table* table = list->get(i)->as_table();
      if (table == nullptr) wrong_type(label, *list->get(i), "a table ([[obstacle]])");
      KeyLines lines;
      const auto [x, y, radius] = read_point_table<3>(label, *table, {"x", "y", "radius"},
                                                      kObstacleKeys, lines);
      scenario_.obstacles.push_back(Obstacle{{x, y}, radius});
      lines_.obstacles.push_back(std::move(lines));
    }
  }

  void parse_target(const toml::node& node) {
    const toml::table* table = node.as_table();
    if (table == nullptr) wrong_type("target", node, "a table ([target])");
    const auto [x, y] = read_point_table<2>("target", *table, {"x", "y"}, kTargetKeys, lines_.target);
    scenario_.target = Target{{x, y}};
  }

  // One of `names` (the enum's values in order); the message lists them.
  template <class Enum, std::size_t N>
  Enum read_choice(const std::string& label, const toml::node& node,
                   const std::string_view (&names)[N]) const {
    const std::string& text = read_string(label, node);
    for (std::size_t k = 0; k < N; ++k) {
      if (text == names[k]) return static_cast<Enum>(k);
    }
    std::string accepted;
    for (std::size_t k = 0; k < N; ++k) accepted += (k ? ", " : "") + quote(names[k]);
    fail(scenario_.source, node.source().begin.line,
         label + " = " + quote(text) + ": must be one of " + accepted);
  }

  void parse_render(const toml::node& node) {
    const toml::table* table = node.as_table();
    if (table == nullptr) wrong_type("render", node, "a table ([render])");
    lines_.render.table = node.source().begin.line;
    LookParams& look = scenario_.look;
    for (const auto& [key, value] : *table) {
      const std::string label = "render." + std::string(key.str());
      lines_.render.keys[std::string(key.str())] = value.source().begin.line;
      if (key == "trails") {
        look.trails = read_choice<TrailMode>(label, value, kTrailModeNames);
      } else if (key == "trail_length") {
        look.trail_length = static_cast<int>(
            read_integer(label, value, kMinRibbonLength, static_cast<std::uint64_t>(kMaxRibbonLength)));
      } else if (key == "trail_fade") {
        look.trail_fade = read_float(label, value);
      } else if (key == "colour_by") {
        look.colour_by = read_choice<ColourMode>(label, value, kColourModeNames);
      } else if (key == "bloom") {
        const auto* flag = value.as_boolean();
        if (flag == nullptr) wrong_type(label, value, "true or false");
        look.bloom = flag->get();
      } else if (key == "bloom_intensity") {
        look.bloom_intensity = read_float(label, value);
      } else if (key == "bloom_threshold") {
        look.bloom_threshold = read_float(label, value);
      } else if (key == "exposure") {
        look.exposure = read_float(label, value);
      } else if (key == "background") {
        look.background = read_colour(label, value);
      } else {
        fail(scenario_.source, key.source().begin.line,
             label + ": unknown key (accepted: " + std::string(kRenderKeys) + ")");
      }
    }
  }

  static float* float_field(SpeciesParams& species, std::string_view key) {
    for (const FloatField& field : kSpeciesFloatFields) {
      if (field.key == key) return &(species.*field.member);
    }
    return nullptr;
  }

  std::vector<std::string> read_names(const std::string& label, const toml::node& node) const {
    const toml::array* list = node.as_array();
    if (list == nullptr) wrong_type(label, node, "an array of species names");
    std::vector<std::string> names;
    for (std::size_t i = 0; i < list->size(); ++i) {
      names.push_back(read_string(label + "[" + std::to_string(i) + "]", *list->get(i)));
    }
    return names;
  }

  glm::vec3 read_colour(const std::string& label, const toml::node& node) const {
    const toml::array* list = node.as_array();
    if (list == nullptr || list->size() != 3) {
      wrong_type(label, node, "an array of 3 numbers [r, g, b]");
    }
    glm::vec3 colour;
    for (int c = 0; c < 3; ++c) {
      colour[c] = read_float(label + "[" + std::to_string(c) + "]", *list->get(static_cast<std::size_t>(c)));
    }
    return colour;
  }

  Scenario scenario_;
  ScenarioLines lines_;
};

// A TOML float: %.9g, with ".0" added where %.9g prints an integer ("3", "-0") so that the
// value stays a float (and -0 keeps its sign).
std::string toml_float(float value) {
  std::string text = format_float(value);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

}  // namespace

Scenario parse_scenario(std::string_view text, const std::string& source) {
  return Parser(source).parse(text);
}

Scenario load_scenario(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const int error = errno;
    throw InputError(path.string() + ": cannot read scenario file (" + std::strerror(error) + ")");
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    const int error = errno;
    throw InputError(path.string() + ": cannot read scenario file (" + std::strerror(error) + ")");
  }
  return parse_scenario(text.str(), path.string());
}

void validate_scenario(const Scenario& scenario) { Validator(scenario, nullptr).run(); }

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

std::string scenario_to_toml(const Scenario& scenario) {
  std::string out;
  out += "# murmur scenario (docs/scenarios.md describes every key)\n";
  out += "[world]\n";
  out += "width = " + toml_float(scenario.world.width) + "\n";
  out += "height = " + toml_float(scenario.world.height) + "\n";
  out += "seed = " + std::to_string(scenario.world.seed) + "\n";
  for (const SpeciesParams& s : scenario.species) {
    out += "\n[[species]]\n";
    out += "name = " + quote(s.name) + "\n";
    out += "count = " + std::to_string(s.count) + "\n";
    out += "topology = " + quote(topology_name(s.topology)) + "\n";
    for (const FloatField& field : kSpeciesFloatFields) {
      out += std::string(field.key) + " = " + toml_float(s.*field.member) + "\n";
    }
    out += "flocks_with = [";
    for (std::size_t j = 0; j < s.flocks_with.size(); ++j) {
      out += (j == 0 ? "" : ", ") + quote(s.flocks_with[j]);
    }
    out += "]\n";
    out += "colour = [" + toml_float(s.colour.r) + ", " + toml_float(s.colour.g) + ", " +
           toml_float(s.colour.b) + "]\n";
  }
  for (const Obstacle& o : scenario.obstacles) {
    out += "\n[[obstacle]]\n";
    out += "x = " + toml_float(o.centre.x) + "\n";
    out += "y = " + toml_float(o.centre.y) + "\n";
    out += "radius = " + toml_float(o.radius) + "\n";
  }
  const LookParams& look = scenario.look;
  if (!look.empty()) {
    out += "\n[render]\n";
    if (look.trails) out += "trails = " + quote(kTrailModeNames[static_cast<std::size_t>(*look.trails)]) + "\n";
    if (look.trail_length) out += "trail_length = " + std::to_string(*look.trail_length) + "\n";
    if (look.trail_fade) out += "trail_fade = " + toml_float(*look.trail_fade) + "\n";
    if (look.colour_by) {
      out += "colour_by = " + quote(kColourModeNames[static_cast<std::size_t>(*look.colour_by)]) + "\n";
    }
    if (look.bloom) out += std::string("bloom = ") + (*look.bloom ? "true" : "false") + "\n";
    if (look.bloom_intensity) out += "bloom_intensity = " + toml_float(*look.bloom_intensity) + "\n";
    if (look.bloom_threshold) out += "bloom_threshold = " + toml_float(*look.bloom_threshold) + "\n";
    if (look.exposure) out += "exposure = " + toml_float(*look.exposure) + "\n";
    if (look.background) {
      out += "background = [" + toml_float(look.background->r) + ", " + toml_float(look.background->g) +
             ", " + toml_float(look.background->b) + "]\n";
    }
  }
  if (scenario.target) {
    out += "\n[target]\n";
    out += "x = " + toml_float(scenario.target->position.x) + "\n";
    out += "y = " + toml_float(scenario.target->position.y) + "\n";
  }
  return out;
}

}  // namespace murmur
