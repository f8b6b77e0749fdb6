#include "viewer/panel.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdio>
#include <type_traits>

#include "murmur/errors.hpp"
#include "murmur/grid.hpp"

namespace murmur::viewer {
namespace {

constexpr float kPanelWidth = 420;
constexpr float kPanelMargin = 8;
const ImVec4 kErrorColour{1.0f, 0.35f, 0.3f, 1.0f};
const ImVec4 kErrorFrameColour{0.55f, 0.08f, 0.06f, 1.0f};
const ImVec4 kDimColour{0.6f, 0.6f, 0.6f, 1.0f};

constexpr int kMaxCircleBoids = 64;
constexpr std::uint32_t kMaxStepsPerFrameSlider = 32;
constexpr float kMinObstacleRadius = 0.5f;
constexpr float kMinAgeScaleSlider = 1;
constexpr float kMaxAgeScaleSlider = 100000;
constexpr float kMinBloomRadiusSlider = 0.25f;
constexpr float kMinTrailWidthSlider = 1;
constexpr float kMaxTrailWidthSlider = 8;
constexpr float kMaxTrailIntensitySlider = 2;
// Heads longer than this are rare enough to type into the scenario (kMaxHeadSize is the limit).
constexpr float kMaxHeadSizeSlider = 64;
constexpr float kPlotHeight = 60;
// The new-obstacle slider reaches a quarter of the smaller world side.
constexpr float kWorldFractionForSliders = 0.25f;

// The panel's words for the trail modes (the TOML names are kTrailModeNames).
const char* const kTrailModeLabels[] = {"none", "ribbons", "fade map"};
// The circle radius choices: the TOML words (kCircleRadiusNames), then a number.
const char* const kCircleRadiusLabels[] = {"sight", "separation", "world units"};
constexpr float kMinCircleRadiusSlider = 0.5f;

const char* const kKeyHelp[][2] = {
    {"Space", "pause / resume"},
    {"N", "one step while paused"},
    {"R / Shift+R", "reset, same seed / new seed"},
    {"1 2 3 4", "free flight / alignment / + cohesion / all rules"},
    {"S", "screenshot PNG (the rendered frame)"},
    {"V", "start / stop recording PNG frames"},
    {"H", "hide / show this panel"},
    {"F", "fit the world in the window"},
    {"F11", "fullscreen on / off"},
    {"Esc", "quit"},
    {"scroll", "zoom at the cursor"},
    {"drag (left or middle)", "pan"},
    {"left click", "drop an obstacle"},
    {"right click", "set the target"},
    {"Ctrl + left drag", "steer the boid nearest the cursor (and select it)"},
};

// A combo box over an enum's TOML names (the scenario tables' choices).
template <std::size_t N>
bool choice_combo(const char* label, std::uint32_t& value, const std::string_view (&names)[N]) {
  bool changed = false;
  if (!ImGui::BeginCombo(label, value < N ? names[value].data() : "?")) return false;
  for (std::size_t k = 0; k < N; ++k) {
    if (ImGui::Selectable(names[k].data(), k == value)) {
      changed = changed || k != value;
      value = static_cast<std::uint32_t>(k);
    }
  }
  ImGui::EndCombo();
  return changed;
}

// The panel's editor of one species key, by the key's type and its table widget.
bool value_field(const std::string& name, float& value, const params::Widget& widget,
                        float world_side) {
  const float max = widget.kind == params::Widget::Kind::WorldSlider ? widget.max * world_side
                                                                     : widget.max;
  return ImGui::SliderFloat(name.c_str(), &value, widget.min, max, widget.format,
                            widget.logarithmic ? ImGuiSliderFlags_Logarithmic : 0);
}

bool value_field(const std::string& name, std::uint32_t& value,
                        const params::Widget& widget, float) {
  if (widget.kind == params::Widget::Kind::EnterInput) {
    return ImGui::InputScalar((name + " (Enter)").c_str(), ImGuiDataType_U32, &value, nullptr,
                              nullptr, widget.format, ImGuiInputTextFlags_EnterReturnsTrue);
  }
  return ImGui::InputScalar(name.c_str(), ImGuiDataType_U32, &value, nullptr, nullptr,
                            widget.format);
}

template <class Enum>
  requires std::is_enum_v<Enum>
bool value_field(const std::string& name, Enum& value, const params::Widget&, float) {
  auto index = static_cast<std::uint32_t>(value);
  if (!choice_combo(name.c_str(), index, names_of(value))) return false;
  value = static_cast<Enum>(index);
  return true;
}

bool value_field(const std::string& name, bool& value, const params::Widget&, float) {
  return ImGui::Checkbox(name.c_str(), &value);
}

bool value_field(const std::string& name, std::string& value, const params::Widget&, float) {
  return ImGui::InputText(name.c_str(), &value, ImGuiInputTextFlags_EnterReturnsTrue);
}

bool colour_field(const std::string& name, glm::vec3& colour) {
  float rgb[3] = {colour.x, colour.y, colour.z};
  if (!ImGui::ColorEdit3(name.c_str(), rgb, ImGuiColorEditFlags_HDR | ImGuiColorEditFlags_Float))
    return false;
  colour = {rgb[0], rgb[1], rgb[2]};
  return true;
}

// A slider for a setting that may be unset (a [render] key the renderer falls back from):
// shows the fallback until moved, then sets the value.
bool optional_slider(const char* label, std::optional<float>& value, float fallback, float min,
                     float max, const char* format) {
  float shown = value.value_or(fallback);
  if (!ImGui::SliderFloat(label, &shown, min, max, format, ImGuiSliderFlags_AlwaysClamp))
    return false;
  value = shown;
  return true;
}

bool combo(const char* label, std::uint32_t& value, const char* const* names, int count) {
  int index = static_cast<int>(value);
  if (!ImGui::Combo(label, &index, names, count)) return false;
  value = static_cast<std::uint32_t>(index);
  return true;
}

}  // namespace

Panel::Panel(const std::filesystem::path& scenario_path)
    : load_path_(scenario_path.string()), save_path_("my-scenario.toml") {}

void Panel::set_message(std::string message, bool is_error) {
  message_ = std::move(message);
  message_is_error_ = is_error;
}

void Panel::discard_draft() {
  draft_.reset();
  error_.clear();
  error_field_.clear();
  seed_field_set_ = false;
}

template <typename Widget>
void Panel::scenario_field(const std::string& id, Widget widget) {
  const bool invalid = draft_.has_value() && error_field_ == id;
  if (invalid) ImGui::PushStyleColor(ImGuiCol_FrameBg, kErrorFrameColour);
  ImGui::PushID(id.c_str());
  if (widget()) edited_field_ = id;
  ImGui::PopID();
  if (invalid) {
    ImGui::PopStyleColor();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(kErrorColour, "%s", error_.c_str());
    ImGui::PopTextWrapPos();
  }
}

PanelRequests Panel::draw(const PanelView& view, PanelEdits& edits) {
  PanelRequests requests;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - kPanelWidth - kPanelMargin, kPanelMargin),
                          ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(kPanelWidth, io.DisplaySize.y - 2 * kPanelMargin),
                           ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("murmur (H hides)")) {
    ImGui::End();
    return requests;
  }
  ImGui::PushItemWidth(-ImGui::GetFontSize() * 11);

  statistics_section(view, edits);
  population_section(view);
  file_section(view, requests);
  simulation_section(view, requests);

  // Every scenario widget edits `work`, a copy; it is applied only if it validates.
  Scenario work = view.scenario;
  if (draft_) {
    // The draft holds species edits; obstacles, target and seed are always the running ones.
    work = *draft_;
    work.obstacles = view.scenario.obstacles;
    work.target = view.scenario.target;
    work.world.seed = view.scenario.world.seed;
  }
  edited_field_.clear();
  world_section(view, work, requests);
  for (std::size_t s = 0; s < work.species.size(); ++s) species_section(view, work, s);
  food_section(work);
  if (!edited_field_.empty()) {
    try {
      validate_scenario(work);
      draft_.reset();
      error_.clear();
      requests.apply = std::move(work);
    } catch (const InputError& error) {
      draft_ = std::move(work);
      error_ = error.what();
      error_field_ = edited_field_;
    }
  }
  if (draft_) {
    ImGui::TextColored(kErrorColour, "Not applied: the flock keeps the last valid settings.");
    if (ImGui::Button("Discard the invalid edit")) discard_draft();
  }
  obstacles_section(view.scenario, edits, requests);

  render_section(view, edits, requests);
  keys_section();
  ImGui::PopItemWidth();
  ImGui::End();
  return requests;
}

void Panel::statistics_section(const PanelView& view, PanelEdits& edits) {
  if (!ImGui::CollapsingHeader("Statistics", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::Text("%u boids  |  %.1f fps  |  %.2f ms/step  |  step %llu", view.scenario.total_count(),
              view.fps, view.ms_per_step, static_cast<unsigned long long>(view.step));
  ImGui::Text("%s%s  |  mode %d: %s", view.paused ? "paused" : "running",
              view.recording ? "  |  REC" : "", static_cast<int>(view.mode),
              std::string(rule_mode_name(view.mode)).c_str());
  if (view.summary) {
    const FlockSummary& summary = *view.summary;
    ImGui::Text("polarization %.3f", summary.polarization);
    if (summary.milling) {
      ImGui::Text("milling      %.3f", *summary.milling);
    } else {
      ImGui::TextColored(kDimColour, "milling      n/a (a species wraps)");
    }
  }
  ImGui::Checkbox("nearest neighbours and clusters (CPU, twice a second)", &edits.live_stats);
  if (edits.live_stats && view.stats) {
    ImGui::Text("mean nearest neighbour %.2f  |  clusters %u", view.stats->mean_nearest_neighbour,
                view.stats->clusters);
  } else if (edits.live_stats) {
    ImGui::TextColored(kDimColour, "computing ...");
  }
  if (view.summary) {
    // Deaths by max_age (and births) change it; the GPU counts it in the summary pass.
    std::uint32_t live = 0;
    for (const std::uint32_t count : view.summary->population) live += count;
    ImGui::Text("live boids   %u of capacity %u", live, view.scenario.capacity());
  }
  for (std::size_t s = 0; s < view.scenario.species.size(); ++s) {
    const SpeciesParams& species = view.scenario.species[s];
    ImGui::ColorButton(("##swatch" + species.name).c_str(),
                       ImVec4(species.colour.x, species.colour.y, species.colour.z, 1.0f),
                       ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_HDR);
    ImGui::SameLine();
    // The live population as the GPU counts it (the scenario's count less the dead).
    const std::uint32_t population =
        view.summary && s < view.summary->population.size() ? view.summary->population[s] : species.count;
    ImGui::Text("%s: %u boids", species.name.c_str(), population);
  }
  ImGui::TextColored(kDimColour, "%s", view.gl.renderer.c_str());
}

void Panel::population_section(const PanelView& view) {
  if (!ImGui::CollapsingHeader("Population", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const PopulationHistory& history = view.history;
  ImGui::TextColored(kDimColour, "the last %zu samples, one every %llu steps", history.length(),
                     static_cast<unsigned long long>(history.steps_per_sample()));
  // One scale for every species, from 0, so the plots compare by eye.
  const float top = std::max(history.max_population(), 1.0f);
  const std::size_t species_count =
      std::min(history.species_count(), view.scenario.species.size());
  for (std::size_t s = 0; s < species_count; ++s) {
    const SpeciesParams& species = view.scenario.species[s];
    const std::vector<float>& series = history.population(s);
    const std::string now =
        series.empty() ? "" : std::to_string(static_cast<long long>(series.back()));
    ImGui::PushStyleColor(ImGuiCol_PlotLines,
                          ImVec4(species.colour.x, species.colour.y, species.colour.z, 1.0f));
    ImGui::PlotLines(species.name.c_str(), series.data(), static_cast<int>(series.size()), 0,
                     now.c_str(), 0.0f, top, ImVec2(0, kPlotHeight));
    ImGui::PopStyleColor();
  }
  if (view.scenario.food && !history.food().empty()) {
    const std::vector<float>& food = history.food();
    const std::uint32_t cells =
        food_grid_shape(*view.scenario.food, view.scenario.size()).cell_count();
    char now[32];
    std::snprintf(now, sizeof now, "%.1f", food.back());
    ImGui::PlotLines("food", food.data(), static_cast<int>(food.size()), 0, now, 0.0f,
                     view.scenario.food->max_per_cell * static_cast<float>(cells),
                     ImVec2(0, kPlotHeight));
  }
  // Births and deaths since the flock was made, as the GPU counts them.
  if (!view.ecosystem) return;
  const std::vector<SpeciesTotals>& totals = view.ecosystem->totals;
  if (!ImGui::BeginTable("events", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchSame))
    return;
  for (const char* heading : {"species", "born", "dropped", "died"}) {
    ImGui::TableNextColumn();
    ImGui::TextColored(kDimColour, "%s", heading);
  }
  for (std::size_t s = 0; s < std::min(totals.size(), view.scenario.species.size()); ++s) {
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(view.scenario.species[s].name.c_str());
    for (const std::uint64_t count : {totals[s].born, totals[s].dropped, totals[s].died}) {
      ImGui::TableNextColumn();
      ImGui::Text("%llu", static_cast<unsigned long long>(count));
    }
  }
  ImGui::EndTable();
}

void Panel::file_section(const PanelView& view, PanelRequests& requests) {
  if (!ImGui::CollapsingHeader("Scenario file", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::TextColored(kDimColour, "now: %s", view.scenario.source.c_str());
  ImGui::InputText("##load path", &load_path_);
  ImGui::SameLine();
  if (ImGui::Button("Load")) requests.load = std::filesystem::path(load_path_);
  ImGui::InputText("##save path", &save_path_);
  ImGui::SameLine();
  if (ImGui::Button("Save")) requests.save = std::filesystem::path(save_path_);
  if (ImGui::Button("Reset to file")) requests.reset_to_file = true;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Re-read the current scenario file and restart");
  if (!message_.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    if (message_is_error_) {
      ImGui::TextColored(kErrorColour, "%s", message_.c_str());
    } else {
      ImGui::TextUnformatted(message_.c_str());
    }
    ImGui::PopTextWrapPos();
  }
}

void Panel::simulation_section(const PanelView& view, PanelRequests& requests) {
  if (!ImGui::CollapsingHeader("Simulation", ImGuiTreeNodeFlags_DefaultOpen)) return;
  int mode = static_cast<int>(view.mode);
  for (int m = static_cast<int>(RuleMode::FreeFlight); m <= static_cast<int>(RuleMode::All); ++m) {
    if (m > static_cast<int>(RuleMode::FreeFlight)) ImGui::SameLine();
    char label[8];
    std::snprintf(label, sizeof label, "%d", m);
    if (ImGui::RadioButton(label, &mode, m)) requests.mode = static_cast<RuleMode>(m);
  }
  ImGui::SameLine();
  ImGui::TextUnformatted(std::string(rule_mode_name(view.mode)).c_str());
  if (view.steps_per_frame > 0) {
    int steps = static_cast<int>(view.steps_per_frame);
    if (ImGui::SliderInt("steps per frame", &steps, 1, kMaxStepsPerFrameSlider, "%d",
                         ImGuiSliderFlags_AlwaysClamp)) {
      requests.steps_per_frame = static_cast<std::uint32_t>(steps);
    }
  } else {
    ImGui::Text("step rate %.1f Hz (--step-rate)", view.step_rate);
  }
}

void Panel::world_section(const PanelView& view, Scenario& work, PanelRequests& requests) {
  if (!ImGui::CollapsingHeader("World", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::Text("%g x %g world units", work.world.width, work.world.height);
  if (!seed_field_set_) {
    seed_field_ = view.scenario.world.seed;
    seed_field_set_ = true;
  }
  ImGui::InputScalar("seed", ImGuiDataType_U64, &seed_field_);
  if (ImGui::Button("Restart with this seed")) {
    requests.restart_with_seed = std::min(seed_field_, kMaxSeed);
    seed_field_set_ = false;
  }
  ImGui::SameLine();
  if (ImGui::Button("New random seed")) {
    requests.new_random_seed = true;
    seed_field_set_ = false;
  }
  if (seed_field_ != view.scenario.world.seed && seed_field_set_ && !ImGui::IsAnyItemActive()) {
    ImGui::TextColored(kDimColour, "running seed %llu",
                       static_cast<unsigned long long>(view.scenario.world.seed));
  }
}

void Panel::species_section(const PanelView& view, Scenario& work, std::size_t index) {
  SpeciesParams& species = work.species[index];
  const std::string header = "Species " + std::to_string(index) + ": " + species.name;
  if (!ImGui::CollapsingHeader(header.c_str(), index == 0 ? ImGuiTreeNodeFlags_DefaultOpen : 0))
    return;
  const std::string key = "species" + std::to_string(index) + ".";
  const float world_side = std::min(work.world.width, work.world.height);
  // What the flock receives in the current rule mode: a weight the mode switches off says so.
  const SpeciesParams ruled = with_rule_mode(work, view.mode).species[index];

  for_each_species_param([&](const auto& info) {
    using T = std::remove_cvref_t<decltype(info.default_value)>;
    const params::Widget& widget = info.widget;
    if (widget.kind == params::Widget::Kind::None) return;
    if (widget.bounded_only && species.topology != Topology::Bounded) return;
    const std::string name(info.key);
    T& value = species.*info.member;
    if constexpr (std::is_same_v<T, glm::vec3>) {
      scenario_field(key + name, [&] { return colour_field(name, value); });
    } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
      if (work.species.size() > 1) species_list_field(key + name, name, species.*info.member, species, work.species);
    } else {
      scenario_field(key + name, [&] { return value_field(name, value, widget, world_side); });
    }
    if constexpr (std::is_same_v<T, float>) {
      if (ruled.*info.member != value) {
        ImGui::SameLine();
        ImGui::TextColored(kErrorColour, "(0 in mode %d)", static_cast<int>(view.mode));
      }
    }
  });
}

void Panel::food_section(Scenario& work) {
  if (!work.food) return;
  if (!ImGui::CollapsingHeader("Food")) return;
  FoodParams& food = *work.food;
  const float world_side = std::min(work.world.width, work.world.height);
  for_each_food_param([&](const auto& info) {
    using T = std::remove_cvref_t<decltype(info.default_value)>;
    if constexpr (std::is_same_v<T, float>) {
      if (info.widget.kind == params::Widget::Kind::None) return;
      const std::string name(info.key);
      scenario_field("food." + name, [&] {
        return value_field(name, food.*info.member, info.widget, world_side);
      });
    }
  });
  // What set_parameters does with the food already on the field (docs/viewer.md).
  ImGui::TextColored(kDimColour, "a new cell_size spreads the food over the new cells by area;");
  ImGui::TextColored(kDimColour, "a lower max_per_cell cuts every cell down to it");
}

void Panel::species_list_field(const std::string& id, const std::string& key,
                               std::vector<std::string>& list, const SpeciesParams& species,
                               const std::vector<SpeciesParams>& all) {
  ImGui::Text("%s:", key.c_str());
  // flocks_with's empty list means "itself" (docs/scenarios.md); eats's means none.
  const bool empty_means_itself = &list == &species.flocks_with;
  for (const SpeciesParams& other : all) {
    ImGui::SameLine();
    scenario_field(id + "." + other.name, [&] {
      if (list.empty() && empty_means_itself) list.push_back(species.name);
      const auto found = std::find(list.begin(), list.end(), other.name);
      bool member = found != list.end();
      if (!ImGui::Checkbox(other.name.c_str(), &member)) return false;
      if (member) {
        list.push_back(other.name);
      } else {
        list.erase(std::find(list.begin(), list.end(), other.name));
      }
      return true;
    });
  }
}

void Panel::obstacles_section(const Scenario& scenario, PanelEdits& edits,
                              PanelRequests& requests) {
  if (!ImGui::CollapsingHeader("Obstacles and target", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const float max_radius =
      std::min(scenario.world.width, scenario.world.height) * kWorldFractionForSliders;
  ImGui::SliderFloat("new obstacle radius", &edits.obstacle_radius, kMinObstacleRadius,
                     max_radius, "%.1f", ImGuiSliderFlags_AlwaysClamp);
  ImGui::Text("%zu of %zu obstacles (left click drops one)", scenario.obstacles.size(),
              kMaxObstacles);
  for (std::size_t i = 0; i < scenario.obstacles.size(); ++i) {
    const Obstacle& obstacle = scenario.obstacles[i];
    ImGui::PushID(static_cast<int>(i));
    if (ImGui::SmallButton("remove")) requests.remove_obstacle = i;
    ImGui::PopID();
    ImGui::SameLine();
    ImGui::Text("(%.1f, %.1f) radius %.1f", obstacle.centre.x, obstacle.centre.y, obstacle.radius);
  }
  if (!scenario.obstacles.empty() && ImGui::Button("Clear obstacles"))
    requests.clear_obstacles = true;
  if (scenario.target) {
    ImGui::Text("target at (%.1f, %.1f)", scenario.target->position.x,
                scenario.target->position.y);
    ImGui::SameLine();
    if (ImGui::SmallButton("clear target")) requests.clear_target = true;
  } else {
    ImGui::TextColored(kDimColour, "no target (right click sets one)");
  }
}

void Panel::render_section(const PanelView& view, PanelEdits& edits, PanelRequests& requests) {
  RenderSettings& render = edits.render;
  constexpr ImGuiSliderFlags kClamp = ImGuiSliderFlags_AlwaysClamp;
  if (ImGui::CollapsingHeader("Trails")) {
    auto mode = static_cast<std::uint32_t>(render.trails.mode);
    if (combo("trail mode", mode, kTrailModeLabels, IM_ARRAYSIZE(kTrailModeLabels)))
      render.trails.mode = static_cast<TrailMode>(mode);
    if (render.trails.mode == TrailMode::Ribbons) {
      ImGui::SliderInt("ribbon length", &render.trails.ribbon_length, kMinRibbonLength,
                       kMaxRibbonLength, "%d", kClamp);
      optional_slider("trail width px", render.trails.width_pixels,
                      render.trails.ribbon_width_pixels, kMinTrailWidthSlider, kMaxTrailWidthSlider,
                      "%.1f");
      optional_slider("trail intensity", render.trails.intensity, render.trails.ribbon_intensity,
                      0.0f, kMaxTrailIntensitySlider, "%.2f");
    } else if (render.trails.mode == TrailMode::FadeMap) {
      ImGui::SliderFloat("fade per step", &render.trails.fade_per_step, 0.5f, 0.999f, "%.3f",
                         kClamp);
      optional_slider("trail width (map texels)", render.trails.width_pixels,
                      render.trails.stamp_width_texels, kMinTrailWidthSlider,
                      kMaxTrailWidthSlider, "%.1f");
      optional_slider("trail intensity", render.trails.intensity, render.trails.stamp_intensity,
                      0.0f, kMaxTrailIntensitySlider, "%.2f");
      ImGui::SliderFloat("map intensity", &render.trails.map_intensity, 0.0f, 4.0f, "%.2f",
                         kClamp);
    }
  }
  if (ImGui::CollapsingHeader("Glow")) {
    auto blend = static_cast<std::uint32_t>(render.blend);
    if (choice_combo("blend", blend, kBlendModeNames)) render.blend = static_cast<BlendMode>(blend);
    if (render.blend == BlendMode::Ink) {
      colour_field("paper", render.paper);
      ImGui::TextColored(kDimColour, "ink: no bloom, no automatic exposure");
    }
    ImGui::Checkbox("bloom", &render.bloom.enabled);
    ImGui::SliderFloat("intensity", &render.bloom.intensity, 0.0f, 4.0f, "%.2f", kClamp);
    ImGui::SliderFloat("threshold", &render.bloom.threshold, 0.0f, 2.0f, "%.3f", kClamp);
    ImGui::SliderFloat("soft knee", &render.bloom.soft_knee, 0.0f, 1.0f, "%.2f", kClamp);
    ImGui::SliderInt("levels", &render.bloom.levels, kMinBloomLevels, kMaxBloomLevels, "%d",
                     kClamp);
    ImGui::SliderFloat("radius", &render.bloom.radius, kMinBloomRadiusSlider, kMaxBloomRadius,
                       "%.2f", kClamp);
    ImGui::SliderFloat("exposure", &render.exposure, 0.1f, 8.0f, "%.2f",
                       kClamp | ImGuiSliderFlags_Logarithmic);
  }
  if (ImGui::CollapsingHeader("Colour")) {
    auto mode = static_cast<std::uint32_t>(render.colour.mode);
    if (choice_combo("colour by", mode, kColourModeNames))
      render.colour.mode = static_cast<ColourMode>(mode);
    ImGui::SliderFloat("per-boid variation", &render.colour.per_boid_variation, 0.0f, 1.0f,
                       "%.2f", kClamp);
    if (render.colour.mode == ColourMode::Drift) {
      ImGui::SliderFloat("drift phase per id", &render.colour.drift_phase_per_id,
                         -kMaxDriftPhase, kMaxDriftPhase, "%.3f", kClamp);
      ImGui::SliderFloat("drift phase per step", &render.colour.drift_phase_per_step,
                         -kMaxDriftPhase, kMaxDriftPhase, "%.5f",
                         kClamp | ImGuiSliderFlags_Logarithmic);
      colour_field("drift from (b = 0)", render.colour.drift_from);
      colour_field("drift to (b = 1)", render.colour.drift_to);
    }
    ImGui::SliderFloat("head min px", &render.heads.min_length_pixels, 1.0f, 16.0f, "%.1f",
                       kClamp);
    ImGui::Checkbox("age look (circles grow and fill with age)", &render.heads.age_look);
    if (render.heads.age_look) {
      ImGui::SliderFloat("age scale (no max_age)", &render.heads.age_scale, kMinAgeScaleSlider,
                         kMaxAgeScaleSlider, "%.0f steps", kClamp | ImGuiSliderFlags_Logarithmic);
    }
    if (view.scenario.food) ImGui::Checkbox("food boxes", &render.food.enabled);
  }
  if (ImGui::CollapsingHeader("Heads and dense flocks")) {
    auto shape = static_cast<std::uint32_t>(render.heads.shape);
    if (choice_combo("head shape", shape, kHeadShapeNames))
      render.heads.shape = static_cast<HeadShape>(shape);
    ImGui::SliderFloat("head size (0: auto)", &render.heads.size, 0.0f, kMaxHeadSizeSlider,
                       "%.1f", kClamp | ImGuiSliderFlags_Logarithmic);
    auto units = static_cast<std::uint32_t>(render.heads.size_units);
    if (choice_combo("head size units", units, kHeadSizeUnitsNames))
      render.heads.size_units = static_cast<HeadSizeUnits>(units);
    ImGui::Checkbox("dim by boids per pixel (density scale)", &render.density_scale);
  }
  if (ImGui::CollapsingHeader("Overlays")) {
    auto circles = static_cast<std::uint32_t>(render.overlays.circles);
    if (choice_combo("circles", circles, kCircleModeNames))
      render.overlays.circles = static_cast<CircleMode>(circles);
    if (render.overlays.circles == CircleMode::All) {
      CircleRadius& radius = render.overlays.circle_radius;
      auto kind = static_cast<std::uint32_t>(radius.kind);
      if (combo("circle radius", kind, kCircleRadiusLabels, IM_ARRAYSIZE(kCircleRadiusLabels))) {
        radius.kind = static_cast<CircleRadiusKind>(kind);
        // A number starts at the first species' sight radius, so the circles do not vanish.
        if (radius.kind == CircleRadiusKind::WorldUnits && !(radius.world_units > 0) &&
            !view.scenario.species.empty())
          radius.world_units = view.scenario.species.front().perception_radius;
      }
      if (radius.kind == CircleRadiusKind::WorldUnits) {
        const float world_side = std::min(view.scenario.world.width, view.scenario.world.height);
        ImGui::SliderFloat("circle radius (world units)", &radius.world_units,
                           kMinCircleRadiusSlider, kWorldFractionForSliders * world_side, "%.1f",
                           kClamp);
      }
    }
    ImGui::SliderInt("circles for first trail slots",
                     &render.overlays.circles_for_first_trail_slots, 0, kMaxCircleBoids, "%d",
                     kClamp);
    ImGui::Checkbox("grid", &render.overlays.grid);
    ImGui::Checkbox("obstacles", &render.overlays.obstacles);
    ImGui::Checkbox("target", &render.overlays.target);
    if (view.selected_id) {
      ImGui::Text("selected boid %u: sight, minimum distance, body", *view.selected_id);
      ImGui::SameLine();
      if (ImGui::SmallButton("clear")) requests.clear_selection = true;
    } else {
      ImGui::TextColored(kDimColour, "no boid selected (Ctrl + click picks one)");
    }
  }
  if (ImGui::CollapsingHeader("Camera")) {
    ImGui::SliderFloat("zoom", &render.camera.zoom, kMinCameraZoom, kMaxCameraZoom, "%.2f",
                       kClamp | ImGuiSliderFlags_Logarithmic);
    if (render.camera.centre) {
      ImGui::Text("centre (%.1f, %.1f)", render.camera.centre->x, render.camera.centre->y);
    } else {
      ImGui::TextUnformatted("centre: the world's centre");
    }
    if (ImGui::Button("Fit view (F)")) requests.fit_view = true;
  }
}

void Panel::keys_section() {
  if (!ImGui::CollapsingHeader("Keys and mouse")) return;
  if (!ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg)) return;
  for (const auto& row : kKeyHelp) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(row[0]);
    ImGui::TableSetColumnIndex(1);
    ImGui::TextUnformatted(row[1]);
  }
  ImGui::EndTable();
}

}  // namespace murmur::viewer
