// The viewer's panel (docs/viewer.md, "The panel"): statistics, the population plot, and the
// sections that edit the scenario live, each drawn by one Panel method.
//
// Sections: constants and the key help; the panel and its statistics; the scenario's sections:
// file, simulation, world, species; food; rendering; a 3D world's camera.
#include "viewer/panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <type_traits>

#include <glm/geometric.hpp>

#include "murmur/base/errors.hpp"
#include "murmur/flock/grid.hpp"
#include "murmur/render/orbit_camera.hpp"
#include "viewer/panel_widgets.hpp"
#include "viewer/population_plot.hpp"

namespace murmur::viewer {

// --- constants and the key help ----------------------------------------------------------------
namespace {

constexpr int kMaxCircleBoids = 64;
constexpr float kMinObstacleRadius = 0.5f;
constexpr float kMinAgeScaleSlider = 1;
constexpr float kMaxAgeScaleSlider = 100000;
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
// Typed values (Ctrl+Click) held within the slider's range too.
constexpr ImGuiSliderFlags kClamp = ImGuiSliderFlags_AlwaysClamp;
// A 3D camera's sliders: the yaw over a whole turn, the field of view within what a lens shows
// without a fisheye's distortion, the slow turn up to a turn in 10 s.
constexpr float kHalfTurnDegrees = 180;
constexpr float kMinFovSlider = 5;
constexpr float kMaxFovSlider = 120;
constexpr float kMaxTurnSpeedSlider = 36;

constexpr std::array<const char*, 2> kKeyHelp[] = {
    {"Space", "pause / resume"},
    {"N", "one step while paused"},
    {"R / Shift+R", "reset, same seed / new seed"},
    {"1 2 3 4", "free flight / alignment / + cohesion / all rules"},
    {"S", "screenshot PNG (the rendered frame)"},
    {"V", "start / stop recording PNG frames"},
    {"H", "hide / show this panel"},
    {"F", "fit the world beside the panel (all the window when hidden)"},
    {"F11", "fullscreen on / off"},
    {"Esc", "quit"},
    {"scroll", "zoom at the cursor"},
    {"drag (left or middle)", "pan"},
    {"left click", "drop an obstacle"},
    {"right click", "set the target"},
    {"Ctrl + left drag", "steer the boid nearest the cursor (and select it)"},
    {"3D: left drag", "orbit the camera about its target"},
    {"3D: Shift+drag, middle drag", "pan the camera"},
    {"3D: scroll", "dolly towards / away from the target"},
    {"3D: F / O", "the starting camera / turn by itself on and off"},
    {"3D: click / Ctrl + left drag", "select / steer the boid drawn nearest"},
};

}  // namespace

Panel::Panel(const std::filesystem::path& scenario_path) : files_(scenario_path) {}

// --- the panel and its statistics --------------------------------------------------------------
void Panel::set_message(std::string message, bool is_error) {
  files_.set_message(std::move(message), is_error);
}

void Panel::discard_draft() {
  draft_.discard();
  seed_.reset();
}

PanelRequests Panel::draw(const PanelView& view, PanelEdits& edits) {
  PanelRequests requests;
  if (!begin_panel_window(span_)) return requests;

  statistics_section(view, edits);
  // A volume is seen through the camera its mouse moves: its section comes near the top.
  if (is_3d(view.scenario)) orbit_camera_section(view, edits, requests);
  population_section(view);
  file_section(view, requests);
  simulation_section(view, requests);

  // Every scenario widget edits `work`, a copy; it is applied only if it validates.
  Scenario work = draft_.begin(view.scenario);
  // The draft holds species edits; obstacles, target and seed are always the running ones.
  work.obstacles = view.scenario.obstacles;
  work.target = view.scenario.target;
  work.world.seed = view.scenario.world.seed;
  world_section(view, requests);
  for (std::size_t s = 0; s < work.species.size(); ++s) species_section(view, work, s);
  food_section(work);
  requests.apply = draft_.end(std::move(work));
  draft_.show_invalid_notice();
  obstacles_section(view.scenario, edits, requests);

  render_section(view, edits, requests);
  key_help_section(kKeyHelp);
  end_panel_window();
  return requests;
}

void Panel::statistics_section(const PanelView& view, PanelEdits& edits) {
  if (!section_header("Statistics", true)) return;
  ImGui::Text("step %llu  |  %.1f fps  |  %.2f ms/step", static_cast<unsigned long long>(view.step),
              view.fps, view.ms_per_step);
  ImGui::Text("%s%s  |  mode %d: %s", view.paused ? "paused" : "running",
              view.recording ? "  |  REC" : "", static_cast<int>(view.mode),
              std::string(rule_mode_name(view.mode)).c_str());
  // The one live count (live_counts.hpp): the title, the status line and the plot show it too.
  ImGui::Text("%s, capacity %u",
              live_count_text(view.counts, view.scenario, view.step, false).c_str(),
              view.scenario.capacity());
  for (std::size_t s = 0; s < view.scenario.species.size(); ++s) {
    const SpeciesParams& species = view.scenario.species[s];
    ImGui::ColorButton(("##swatch" + species.name).c_str(),
                       ImVec4(species.colour.x, species.colour.y, species.colour.z, 1.0f),
                       ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_HDR);
    ImGui::SameLine();
    if (view.counts && s < view.counts->population.size()) {
      ImGui::Text("%s: %u boids", species.name.c_str(), view.counts->population[s]);
    } else {
      ImGui::TextColored(kDimColour, "%s: not counted", species.name.c_str());
    }
  }
  if (is_3d(view.scenario)) {
    // The GPU's summary is the plane's: a volume's shape comes from its state (compute_stats),
    // the state its counts come from.
    if (edits.live_stats && view.stats) {
      const FlockStats& stats = view.stats->stats;
      ImGui::Text("polarization %.3f  (3D, CPU)", stats.polarization);
      if (stats.milling) {
        ImGui::Text("milling      %.3f", *stats.milling);
      } else {
        ImGui::TextColored(kDimColour, "milling      n/a (wrap world, flock not compact)");
      }
      if (stats.state) {
        ImGui::Text("state        %s", std::string(state_name(*stats.state)).c_str());
      }
    } else {
      ImGui::TextColored(kDimColour, "counts, polarization, milling, state: CPU, below");
    }
  }
  if (view.summary) {
    // Of the counts' step: the same reduction counted them.
    const FlockSummary& summary = *view.summary;
    const bool no_boids = std::all_of(summary.population.begin(), summary.population.end(),
                                      [](std::uint32_t count) { return count == 0; });
    const char* why_not = no_boids ? "n/a (no boids)" : "n/a (wrap world, flock not compact)";
    ImGui::Text("polarization %.3f", summary.polarization);
    if (summary.milling) {
      ImGui::Text("milling      %.3f", *summary.milling);
    } else {
      ImGui::TextColored(kDimColour, "milling      %s", why_not);
    }
    // Tunstrøm et al. 2013's classification of the two (docs/model.md, "Flock statistics").
    if (summary.state) {
      ImGui::Text("state        %s", std::string(state_name(*summary.state)).c_str());
    } else {
      ImGui::TextColored(kDimColour, "state        %s", why_not);
    }
  }
  ImGui::Checkbox("nearest neighbour, clusters (CPU, twice a second)", &edits.live_stats);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("compute_stats on a state read back at most twice a second (less often for "
                      "a large flock);\nin 3D also the live counts, polarization, milling and "
                      "the state");
  }
  if (edits.live_stats && view.stats) {
    const StatsAtStep& latest = *view.stats;
    ImGui::Text("mean nearest neighbour %.2f  |  clusters %u", latest.stats.mean_nearest_neighbour,
                latest.stats.clusters);
    if (latest.counts.step != view.step) {
      ImGui::TextColored(kDimColour, "  of step %llu",
                         static_cast<unsigned long long>(latest.counts.step));
    }
  } else if (edits.live_stats) {
    ImGui::TextColored(kDimColour, "computing ...");
  }
  ImGui::TextColored(kDimColour, "%s", view.gl.renderer.c_str());
}

void Panel::population_section(const PanelView& view) {
  if (!section_header("Population", true)) return;
  if (is_3d(view.scenario)) {
    // Its samples come from the GPU summary and the ecosystem's counters, both the plane's.
    ImGui::TextColored(kDimColour, "the population plot is 2D only");
    return;
  }
  const PopulationHistory& history = view.history;
  ImGui::TextColored(kDimColour, "the last %zu samples, one every %llu steps", history.length(),
                     static_cast<unsigned long long>(history.steps_per_sample()));
  // Each species on its own range, ending at the live count above (population_plot.hpp).
  const std::vector<float> no_samples;
  for (std::size_t s = 0; s < view.scenario.species.size(); ++s) {
    const SpeciesParams& species = view.scenario.species[s];
    const PopulationPlot plot =
        population_plot(s < history.species_count() ? history.population(s) : no_samples,
                        history.last_step(), view.counts, s);
    const ImVec4 colour(species.colour.x, species.colour.y, species.colour.z, 1.0f);
    if (plot.series.empty()) {
      ImGui::TextColored(kDimColour, "%s: not counted yet", species.name.c_str());
    } else if (plot.steady) {
      // A flat line would say nothing the number does not.
      ImGui::TextColored(colour, "%s", species.name.c_str());
      ImGui::SameLine();
      ImGui::TextUnformatted(plot.label.c_str());
    } else {
      ImGui::PushStyleColor(ImGuiCol_PlotLines, colour);
      ImGui::PlotLines(species.name.c_str(), plot.series.data(),
                       static_cast<int>(plot.series.size()), 0, plot.label.c_str(), plot.low,
                       plot.high, ImVec2(0, kPlotHeight));
      ImGui::PopStyleColor();
    }
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
  ImGui::TextColored(kDimColour, "births and deaths by step %llu",
                     static_cast<unsigned long long>(view.ecosystem_step));
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

// --- the scenario's sections: file, simulation, world, species ---------------------------------
void Panel::file_section(const PanelView& view, PanelRequests& requests) {
  const ScenarioFiles::Requests files = files_.draw(view.scenario.source);
  requests.load = files.load;
  requests.save = files.save;
  requests.reset_to_file = files.reset_to_file;
}

void Panel::simulation_section(const PanelView& view, PanelRequests& requests) {
  if (!section_header("Simulation", true)) return;
  int mode = static_cast<int>(view.mode);
  for (int m = static_cast<int>(RuleMode::FreeFlight); m <= static_cast<int>(RuleMode::All); ++m) {
    if (m > static_cast<int>(RuleMode::FreeFlight)) ImGui::SameLine();
    char label[8];
    std::snprintf(label, sizeof label, "%d", m);
    if (ImGui::RadioButton(label, &mode, m)) requests.mode = static_cast<RuleMode>(m);
  }
  ImGui::SameLine();
  ImGui::TextUnformatted(std::string(rule_mode_name(view.mode)).c_str());
  requests.steps_per_frame = steps_per_frame_field(view.steps_per_frame, view.step_rate);
}

void Panel::world_section(const PanelView& view, PanelRequests& requests) {
  if (!section_header("World", true)) return;
  const SeedField::Requests seed = seed_.draw(view.scenario);
  requests.restart_with_seed = seed.restart_with_seed;
  requests.new_random_seed = seed.new_random_seed;
}

void Panel::species_section(const PanelView& view, Scenario& work, std::size_t index) {
  SpeciesParams& species = work.species[index];
  const std::string header = "Species " + std::to_string(index) + ": " + species.name;
  if (!section_header(header.c_str(), index == 0))
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
    // The keys of the other rules of motion do nothing for this species.
    if ((info.accepted.rules & rule_bit(species.rule)) == 0) return;
    const std::string name(info.key);
    T& value = species.*info.member;
    if constexpr (std::is_same_v<T, glm::vec3>) {
      draft_.field(key + name, [&] { return colour_field(name, value); });
    } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
      if (work.species.size() > 1) species_list_field(key + name, name, species.*info.member, species, work.species);
    } else {
      draft_.field(key + name, [&] { return value_field(name, value, widget, world_side); });
    }
    if constexpr (std::is_same_v<T, float>) {
      // On a line of its own: beside the widget it would pass the panel's edge.
      if (ruled.*info.member != value)
        ImGui::TextColored(kErrorColour, "  (0 in mode %d)", static_cast<int>(view.mode));
    }
  });
}

// --- food --------------------------------------------------------------------------------------
void Panel::food_section(Scenario& work) {
  if (!work.food) return;
  if (!section_header("Food")) return;
  FoodParams& food = *work.food;
  const float world_side = std::min(work.world.width, work.world.height);
  for_each_food_param([&](const auto& info) {
    using T = std::remove_cvref_t<decltype(info.default_value)>;
    if constexpr (std::is_same_v<T, float>) {
      if (info.widget.kind == params::Widget::Kind::None) return;
      const std::string name(info.key);
      draft_.field("food." + name, [&] {
        return value_field(name, food.*info.member, info.widget, world_side);
      });
    }
  });
  // What set_parameters does with the food already on the field (docs/viewer.md).
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextColored(kDimColour, "a new cell_size spreads the food over the new cells by area; "
                                 "a lower max_per_cell cuts every cell down to it");
  ImGui::PopTextWrapPos();
}

void Panel::species_list_field(const std::string& id, const std::string& key,
                               std::vector<std::string>& list, const SpeciesParams& species,
                               const std::vector<SpeciesParams>& all) {
  ImGui::Text("%s:", key.c_str());
  // flocks_with's empty list means "itself" (docs/scenarios.md); eats's means none.
  const bool empty_means_itself = &list == &species.flocks_with;
  for (const SpeciesParams& other : all) {
    ImGui::SameLine();
    draft_.field(id + "." + other.name, [&] {
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
  if (!section_header("Obstacles and target", true)) return;
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

// --- rendering ---------------------------------------------------------------------------------
void Panel::render_section(const PanelView& view, PanelEdits& edits, PanelRequests& requests) {
  RenderSettings& render = edits.render;
  if (section_header("Trails")) {
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
      optional_slider("trail width (texels)", render.trails.width_pixels,
                      render.trails.stamp_width_texels, kMinTrailWidthSlider,
                      kMaxTrailWidthSlider, "%.1f");
      optional_slider("trail intensity", render.trails.intensity, render.trails.stamp_intensity,
                      0.0f, kMaxTrailIntensitySlider, "%.2f");
      ImGui::SliderFloat("map intensity", &render.trails.map_intensity, 0.0f, 4.0f, "%.2f",
                         kClamp);
    }
  }
  glow_section(render);
  if (section_header("Colour")) {
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
      ImGui::SliderFloat("age scale", &render.heads.age_scale, kMinAgeScaleSlider,
                         kMaxAgeScaleSlider, "%.0f steps", kClamp | ImGuiSliderFlags_Logarithmic);
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("the age that looks old in a species without max_age");
    }
    if (view.scenario.food) ImGui::Checkbox("food boxes", &render.food.enabled);
  }
  if (section_header("Heads and dense flocks")) {
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
  if (section_header("Overlays")) {
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
        ImGui::SliderFloat("circle radius (units)", &radius.world_units,
                           kMinCircleRadiusSlider, kWorldFractionForSliders * world_side, "%.1f",
                           kClamp);
      }
    }
    ImGui::SliderInt("boids with circles", &render.overlays.circles_for_first_trail_slots, 0,
                     kMaxCircleBoids, "%d", kClamp);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("the boids of the first trail slots");
    ImGui::Checkbox("grid", &render.overlays.grid);
    ImGui::Checkbox("obstacles", &render.overlays.obstacles);
    ImGui::Checkbox("target", &render.overlays.target);
    if (view.selected_id) {
      ImGui::Text("selected boid %u (its circles)", *view.selected_id);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("sight, minimum distance and body");
      ImGui::SameLine();
      if (ImGui::SmallButton("clear")) requests.clear_selection = true;
    } else {
      ImGui::TextColored(kDimColour, "no boid selected (Ctrl + click picks one)");
    }
  }
  if (!is_3d(view.scenario) && camera_section(render)) requests.fit_view = true;
}

// --- a 3D world's camera -----------------------------------------------------------------------
void Panel::orbit_camera_section(const PanelView& view, PanelEdits& edits,
                                 PanelRequests& requests) {
  if (!section_header("Camera", true)) return;
  if (!edits.render.orbit_camera) return;  // made concrete by the viewer before the panel
  OrbitCamera& camera = *edits.render.orbit_camera;
  const float radius = glm::length(world_box(view.scenario)) / 2;
  ImGui::DragFloat3("target", &camera.target.x, radius / 100, 0.0f, 0.0f, "%.1f");
  ImGui::SliderFloat("distance", &camera.distance, kMinCameraDistanceRadii * radius,
                     kMaxCameraDistanceRadii * radius, "%.1f",
                     kClamp | ImGuiSliderFlags_Logarithmic);
  ImGui::SliderFloat("yaw", &camera.yaw_degrees, -kHalfTurnDegrees, kHalfTurnDegrees, "%.1f deg",
                     kClamp);
  ImGui::SliderFloat("pitch", &camera.pitch_degrees, -kMaxCameraPitchDegrees,
                     kMaxCameraPitchDegrees, "%.1f deg", kClamp);
  ImGui::SliderFloat("fov", &camera.fov_degrees, kMinFovSlider, kMaxFovSlider, "%.1f deg",
                     kClamp);
  bool turning = view.turning;
  if (ImGui::Checkbox("turn by itself (O)", &turning)) requests.toggle_turning = true;
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x / 2);
  ImGui::SliderFloat("deg/s", &camera.orbit_speed, -kMaxTurnSpeedSlider, kMaxTurnSpeedSlider,
                     "%.1f", kClamp);
  if (ImGui::Button("Fit: the starting camera (F)")) requests.fit_view = true;
}

}  // namespace murmur::viewer
