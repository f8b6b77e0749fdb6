// The markdown key tables of docs/scenarios.md, written from the parameter tables.
#include "murmur/scenario/params/param_docs.hpp"

#include <cstdint>
#include <type_traits>

#include "murmur/base/errors.hpp"
#include "murmur/scenario/scenario.hpp"
#include "param_text.hpp"

namespace murmur::params {
namespace {

template <class T>
std::string_view type_text() {
  if constexpr (std::is_same_v<T, float>) return "number";
  else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) return "integer";
  else if constexpr (std::is_same_v<T, bool>) return "boolean";
  else if constexpr (std::is_enum_v<T> || std::is_same_v<T, std::string>) return "string";
  else if constexpr (std::is_same_v<T, std::vector<std::string>>) return "array of strings";
  else if constexpr (std::is_same_v<T, glm::vec3>) return "array of 3 numbers";
  else if constexpr (std::is_same_v<T, FoodInitial> || std::is_same_v<T, CircleRadius>)
    return "number or string";
  else static_assert(sizeof(T) == 0, "a table key of a type the docs cannot name");
}

std::string code(const std::string& text) { return "`" + text + "`"; }

template <class T>
std::string default_text(const T& value) {
  if constexpr (std::is_same_v<T, float>) return code(show_float(value));
  else if constexpr (std::is_same_v<T, bool>) return code(value ? "true" : "false");
  else if constexpr (std::is_integral_v<T>) return code(std::to_string(value));
  else if constexpr (std::is_enum_v<T>) {
    return code("\"" + std::string(names_of(value)[static_cast<std::size_t>(value)]) + "\"");
  } else if constexpr (std::is_same_v<T, glm::vec3>) {
    return code("[" + show_float(value.r) + ", " + show_float(value.g) + ", " +
                show_float(value.b) + "]");
  } else if constexpr (std::is_same_v<T, CircleRadius>) {
    return value.kind == CircleRadiusKind::WorldUnits
               ? code(show_float(value.world_units))
               : code("\"" + std::string(kCircleRadiusNames[static_cast<std::size_t>(value.kind)]) +
                      "\"");
  } else if constexpr (std::is_same_v<T, FoodInitial>) {
    return value.random ? code("\"" + std::string(kFoodInitialRandom) + "\"")
                        : code(show_float(value.fraction));
  } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
    std::string list;
    for (const std::string& name : value) list += (list.empty() ? "\"" : ", \"") + name + "\"";
    return code("[" + list + "]");
  } else {
    return code("\"" + value + "\"");
  }
}

// One end of a range as the docs show it: "< min(width, height) / 2", "<= `max_speed`".
std::string bound_text(const Bound& bound, std::string_view op, bool integer) {
  switch (bound.kind) {
    case Bound::Kind::Value:
      return std::string(op) + (integer ? std::to_string(static_cast<std::int64_t>(bound.value))
                                        : show_float(static_cast<float>(bound.value)));
    case Bound::Kind::HalfWorldSide: return std::string(op) + "min(width, height) / 2";
    case Bound::Kind::Key: return std::string(op) + code(std::string(bound.key));
    case Bound::Kind::None: break;
  }
  return {};
}

template <class T>
std::string accepted_text(const Accepted& accepted) {
  if (!accepted.rule.empty()) return std::string(accepted.rule);
  if constexpr (std::is_enum_v<T>) {
    return choice_text(names_of(T{}), "`");
  } else if constexpr (std::is_same_v<T, bool>) {
    return "`true` or `false`";
  } else {
    constexpr bool integer = std::is_integral_v<T>;
    const std::string range =
        join_range(bound_text(accepted.lower, lower_operator(accepted.lower), integer),
                   bound_text(accepted.upper, upper_operator(accepted.upper), integer));
    if constexpr (std::is_same_v<T, glm::vec3>) return "each " + range;
    return range;
  }
}

// "; `vicsek` and `couzin` species only": the rules of motion a key belongs to, when not all.
std::string rules_text(std::uint8_t rules) {
  if (rules == kEveryRule) return {};
  std::string names;
  std::size_t shown = 0, total = 0;
  for (std::size_t k = 0; k < std::size(kRuleNames); ++k) total += (rules >> k) & 1u;
  for (std::size_t k = 0; k < std::size(kRuleNames); ++k) {
    if (((rules >> k) & 1u) == 0) continue;
    names += (shown == 0 ? "" : shown + 1 == total ? " and " : ", ") +
             code(std::string(kRuleNames[k]));
    ++shown;
  }
  return "; " + names + " species only";
}

constexpr std::string_view kTableHeader =
    "| key | type | default | accepted | unit | meaning |\n"
    "|---|---|---|---|---|---|\n";

// A table whose every key has a default, unit and meaning (species, world).
template <class ForEachParam>
std::string keys_table(ForEachParam for_each_param) {
  std::string text(kTableHeader);
  for_each_param([&](const auto& info) {
    using T = std::remove_cvref_t<decltype(info.default_value)>;
    std::string default_shown = default_text(info.default_value);
    if (info.accepted.required) default_shown = "required";
    if (!info.accepted.default_text.empty()) default_shown = info.accepted.default_text;
    text += "| " + code(std::string(info.key)) + " | " + std::string(type_text<T>()) + " | " +
            default_shown + " | " + accepted_text<T>(info.accepted) +
            rules_text(info.accepted.rules) +
            (info.accepted.neighbours == kTopologicalOnly ? "; `topological` species only" : "") +
            " | " + (info.unit.empty() ? std::string("–") : std::string(info.unit)) + " | " +
            std::string(info.meaning) + " |\n";
  });
  return text;
}

// A table of optional keys: each one's default from `defaults` (the renderer's, or the
// camera's), else the text its accepted range gives, else "–".
template <class Table, class ForEachParam>
std::string optional_keys_table(const Table& defaults, ForEachParam for_each_param) {
  std::string text =
      "| key | type | default | accepted | meaning |\n"
      "|---|---|---|---|---|\n";
  for_each_param([&](const auto& info) {
    using T = std::remove_cvref_t<decltype(*(defaults.*info.member))>;
    const auto& value = defaults.*info.member;
    const std::string default_shown =
        value ? default_text(*value)
              : (info.accepted.default_text.empty() ? std::string("–")
                                                    : std::string(info.accepted.default_text));
    text += "| " + code(std::string(info.key)) + " | " + std::string(type_text<T>()) + " | " +
            default_shown + " | " + accepted_text<T>(info.accepted) + " | " +
            std::string(info.meaning) + " |\n";
  });
  return text;
}

}  // namespace

std::vector<DocSection> generated_doc_sections(const LookParams& render_defaults) {
  return {{"world keys", "include/murmur/scenario/params/world_params.def",
           keys_table([](auto&& visit) { for_each_world_param(visit); })},
          {"species keys", "include/murmur/scenario/params/species_params.def",
           keys_table([](auto&& visit) { for_each_species_param(visit); })},
          {"render keys", "include/murmur/scenario/params/render_params.def",
           optional_keys_table(render_defaults,
                               [](auto&& visit) { for_each_render_param(visit); })},
          {"camera keys", "include/murmur/scenario/params/camera_params.def",
           optional_keys_table(camera_defaults(),
                               [](auto&& visit) { for_each_camera_param(visit); })},
          {"food keys", "include/murmur/scenario/params/food_params.def",
           keys_table([](auto&& visit) { for_each_food_param(visit); })},
          {"food patch keys", "include/murmur/scenario/params/food_params.def",
           keys_table([](auto&& visit) { for_each_food_patch_param(visit); })},
          {"spawn keys", "include/murmur/scenario/params/spawn_params.def",
           keys_table([](auto&& visit) { for_each_spawn_param(visit); })},
          {"plan keys", "include/murmur/scenario/params/plan_params.def",
           keys_table([](auto&& visit) { for_each_plan_param(visit); })},
          {"plan group keys", "include/murmur/scenario/params/plan_params.def",
           keys_table([](auto&& visit) { for_each_plan_group_param(visit); })}};
}

std::string with_generated_sections(std::string_view document, const std::string& document_name,
                                    const LookParams& render_defaults) {
  std::string out(document);
  for (const DocSection& section : generated_doc_sections(render_defaults)) {
    const std::string begin = "<!-- BEGIN " + section.name + ":";
    const std::string end = "<!-- END " + section.name + " -->";
    const std::size_t begin_at = out.find(begin);
    if (begin_at == std::string::npos) {
      throw InputError(document_name + ": no line starting \"" + begin +
                       "\": the generated " + section.name + " table needs one");
    }
    const std::size_t text_at = out.find('\n', begin_at);
    const std::size_t end_at = out.find(end, begin_at);
    if (text_at == std::string::npos || end_at == std::string::npos) {
      throw InputError(document_name + ": no line \"" + end + "\" after \"" + begin + "\"");
    }
    out.replace(text_at + 1, end_at - (text_at + 1), section.text);
  }
  return out;
}

}  // namespace murmur::params
