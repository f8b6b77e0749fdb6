#pragma once
// The vocabulary of the parameter tables (include/murmur/scenario/params/*.def): what a key accepts, how
// the viewer's panel shows it and how it reaches the GPU. Each table line becomes a ParamInfo;
// the parser, validator, TOML writer, panel, GPU record and docs table all read the same one.
// docs/parameters.md says how to add a key.
#include <cstdint>
#include <optional>
#include <string_view>

namespace murmur::params {

// One end of an accepted range: a number, half the smaller world side (radii and speeds must
// not reach across half a torus), or the value of another key of the same table.
struct Bound {
  enum class Kind : std::uint8_t { None, Value, HalfWorldSide, Key };
  Kind kind = Kind::None;
  bool inclusive = true;
  // Kind::Value. A long double holds every float32 and every integer key exactly (2^63 - 1,
  // the largest seed, needs its 64-bit mantissa on x86-64).
  long double value = 0;
  std::string_view key;   // Kind::Key
};
constexpr Bound at_least(long double value) { return {Bound::Kind::Value, true, value, {}}; }
constexpr Bound above(long double value) { return {Bound::Kind::Value, false, value, {}}; }
constexpr Bound at_most(long double value) { return {Bound::Kind::Value, true, value, {}}; }
constexpr Bound below(long double value) { return {Bound::Kind::Value, false, value, {}}; }
constexpr Bound below_half_world_side() { return {Bound::Kind::HalfWorldSide, false, 0, {}}; }
constexpr Bound at_most_key(std::string_view key) { return {Bound::Kind::Key, true, 0, key}; }

// Which rules of motion a species key belongs to: bit k for the Rule of value k
// (include/murmur/scenario/scenario.hpp: boids, vicsek, couzin).
inline constexpr std::uint8_t kBoidsOnly = 1u << 0;
inline constexpr std::uint8_t kVicsekOnly = 1u << 1;
inline constexpr std::uint8_t kCouzinOnly = 1u << 2;
inline constexpr std::uint8_t kVicsekAndCouzin = kVicsekOnly | kCouzinOnly;
inline constexpr std::uint8_t kEveryRule = kBoidsOnly | kVicsekOnly | kCouzinOnly;
// Which neighbourhoods (a species' `neighbours`) a species key belongs to: bit k for the
// Neighbours of value k (scenario.hpp: metric, topological).
inline constexpr std::uint8_t kMetricOnly = 1u << 0;
inline constexpr std::uint8_t kTopologicalOnly = 1u << 1;
inline constexpr std::uint8_t kEveryNeighbourhood = kMetricOnly | kTopologicalOnly;

// What a key accepts. Numbers lie between `lower` and `upper` (an end of kind None is open);
// a colour's components each do. Keys checked by code of their own (names) say so in `rule`,
// which the docs table shows instead of a range.
struct Accepted {
  Bound lower, upper;
  std::string_view rule;          // docs text of a check made by code of its own
  std::string_view default_text;  // docs text for a default that depends on the species
  std::string_view note;          // said in parentheses after the range in messages
  bool required = false;          // no default: a file must give the key
  // The rules of motion (a species' `rule`) the key belongs to, bit rule_bit(Rule), and the
  // neighbourhoods (its `neighbours`), bit neighbours_bit(Neighbours): a species outside
  // either leaves the key unchecked and unused (key_applies, scenario.hpp).
  std::uint8_t rules = kEveryRule;
  std::uint8_t neighbours = kEveryNeighbourhood;
};
constexpr Accepted between(Bound lower, Bound upper = {}) { return {lower, upper, {}, {}, {}, false}; }
// Every value of the key's type (an enum's names, a boolean).
constexpr Accepted any_value() { return {}; }
constexpr Accepted checked_by_code(std::string_view rule, std::string_view default_text) {
  return {{}, {}, rule, default_text, {}, false};
}
constexpr Accepted required(Accepted accepted) {
  accepted.required = true;
  return accepted;
}
constexpr Accepted for_rules(std::uint8_t rules, Accepted accepted) {
  accepted.rules = rules;
  return accepted;
}
constexpr Accepted for_neighbours(std::uint8_t neighbours, Accepted accepted) {
  accepted.neighbours = neighbours;
  return accepted;
}
constexpr Accepted noted(Accepted accepted, std::string_view note) {
  accepted.note = note;
  return accepted;
}

// How the viewer's panel edits a key (src/viewer/panel.cpp). Slider ranges are conveniences,
// not limits: Ctrl+Click types any value and the validator is the judge.
struct Widget {
  enum class Kind : std::uint8_t {
    None,           // not editable in the panel
    Slider,         // min .. max
    WorldSlider,    // min .. max times the smaller world side (radii and speeds)
    EnterInput,     // typed, applied on Enter (a new count re-allocates the flock)
    Input,          // typed
    Choice,         // a combo box of the enum's names
    Colour,         // an HDR colour editor
    SpeciesChoice,  // one checkbox per species of the scenario
    Checkbox,       // a boolean
  };
  Kind kind = Kind::None;
  float min = 0;
  float max = 0;
  const char* format = "";
  bool logarithmic = false;   // for weights that span orders of magnitude
  bool bounded_only = false;  // shown only for species held inside walls
};
enum class Scale : std::uint8_t { Linear, Logarithmic };
constexpr Widget slider(float min, float max, const char* format, Scale scale = Scale::Linear) {
  return {Widget::Kind::Slider, min, max, format, scale == Scale::Logarithmic, false};
}
constexpr Widget world_slider(float min, float max_fraction, const char* format,
                              Scale scale = Scale::Linear) {
  return {Widget::Kind::WorldSlider, min, max_fraction, format, scale == Scale::Logarithmic, false};
}
constexpr Widget walls_only(Widget widget) {
  widget.bounded_only = true;
  return widget;
}
constexpr Widget enter_input() { return {Widget::Kind::EnterInput, 0, 0, "%u", false, false}; }
constexpr Widget input() { return {Widget::Kind::Input, 0, 0, "%u", false, false}; }
constexpr Widget choice() { return {Widget::Kind::Choice}; }
constexpr Widget colour_editor() { return {Widget::Kind::Colour}; }
constexpr Widget species_checkboxes() { return {Widget::Kind::SpeciesChoice}; }
constexpr Widget checkbox() { return {Widget::Kind::Checkbox}; }
constexpr Widget not_in_panel() { return {}; }

// How a key reaches the GPU's per-species record (the generated gpu::Species and GLSL Species).
enum class Gpu : std::uint8_t {
  Copied,   // as is, under its own name (SpeciesModel and the record carry it)
  Derived,  // through fields the model code computes from it (species_models)
  None,     // not on the GPU
};

// The gpu column of a table is a bare word (Copied, Derived, None) so that the preprocessor
// can build structs of the copied keys: MURMUR_IF_GPU_COPIED(gpu, text) is text for Copied
// keys and nothing otherwise.
#define MURMUR_IF_GPU_COPIED(gpu, ...) MURMUR_IF_GPU_COPIED_##gpu(__VA_ARGS__)
#define MURMUR_IF_GPU_COPIED_Copied(...) __VA_ARGS__
#define MURMUR_IF_GPU_COPIED_Derived(...)
#define MURMUR_IF_GPU_COPIED_None(...)

// One key of a table whose records are `Owner` (SpeciesParams, ...), held in `member`.
template <class Owner, class T>
struct ParamInfo {
  std::string_view key;
  T default_value;
  Accepted accepted;
  std::string_view unit;
  Widget widget;
  Gpu gpu;
  std::string_view meaning;
  T Owner::*member;
};

// One key of a table whose keys are all optional (the [render] table): `member` is empty when
// the key is absent, and the default lives with whatever the key sets.
template <class Owner, class T>
struct OptionalParamInfo {
  std::string_view key;
  Accepted accepted;
  std::string_view meaning;
  std::optional<T> Owner::*member;
};

}  // namespace murmur::params
