#include "viewer/plan_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <string>
#include <type_traits>


namespace murmur::viewer {
namespace {

constexpr std::array<const char*, 2> kPlanKeyHelp[] = {
    {"Space, or a click in the plan", "pause / resume (origin 003 pauses on a click)"},
    {"N", "one step while paused"},
    {"R / Shift+R", "grow the plan again, same seed / new seed"},
    {"S", "screenshot PNG (the rendered frame)"},
    {"V", "start / stop recording PNG frames"},
    {"H", "hide / show this panel"},
    {"F", "fit the canvas beside the panel (all the window when hidden)"},
    {"F11", "fullscreen on / off"},
    {"Esc", "quit"},
    {"scroll", "zoom at the cursor"},
    {"drag (left or middle)", "pan"},
};

// The causes of death in PlanDeath's order after Lives (docs/model.md, "One step of the plan").
constexpr const char* kDeathCauses[] = {"too slow", "too close to a path", "too many turns"};

// One table's keys, each by its widget.
template <class Table, class ForEach>
void key_fields(ScenarioDraft<PlanScenario>& draft, const std::string& prefix, Table& table,
                float world_side, ForEach for_each) {
  for_each([&](const auto& info) {
    using T = std::remove_cvref_t<decltype(info.default_value)>;
    if (info.widget.kind == params::Widget::Kind::None) return;
    const std::string name(info.key);
    T& value = table.*info.member;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, std::uint32_t>) {
      draft.field(prefix + name, [&] { return value_field(name, value, info.widget, world_side); });
    }
  });
}

}  // namespace

PlanPanelRequests PlanPanel::draw(const PlanPanelView& view, RenderSettings& render) {
  PlanPanelRequests requests;
  if (!begin_panel_window(span_)) return requests;
  statistics_section(view);
  const ScenarioFiles::Requests files = files_.draw(view.scenario.source);
  requests.load = files.load;
  requests.save = files.save;
  requests.reset_to_file = files.reset_to_file;
  if (section_header("Simulation", true)) {
    requests.steps_per_frame = steps_per_frame_field(view.steps_per_frame, view.step_rate);
    const SeedField::Requests seed = seed_.draw(view.scenario);
    requests.restart_with_seed = seed.restart_with_seed;
    requests.new_random_seed = seed.new_random_seed;
  }

  // Every key widget edits `work`, a copy; it is applied only if it validates.
  PlanScenario work = draft_.begin(view.scenario);
  work.world.seed = view.scenario.world.seed;
  plan_section(work);
  groups_section(work);
  requests.apply = draft_.end(std::move(work));
  draft_.show_invalid_notice();

  look_section(render);
  if (camera_section(render)) requests.fit_view = true;
  key_help_section(kPlanKeyHelp);
  end_panel_window();
  return requests;
}

void PlanPanel::statistics_section(const PlanPanelView& view) {
  if (!section_header("Statistics", true)) return;
  const std::uint32_t agents = view.scenario.plan.total_count();
  ImGui::Text("step %llu  |  %.1f fps  |  %.2f ms/step", static_cast<unsigned long long>(view.step),
              view.fps, view.ms_per_step);
  ImGui::Text("%u agents  |  %s%s", agents, view.paused ? "paused" : "running",
              view.recording ? "  |  REC" : "");
  if (!view.counts) {
    ImGui::TextColored(kDimColour, "counting ...");
  } else {
    const GpuPlanCounts& counts = *view.counts;
    ImGui::Text("living %u of %u (at step %llu)", counts.living, counts.agents,
                static_cast<unsigned long long>(counts.reached_step()));
    for (std::size_t c = 0; c < counts.died.size(); ++c)
      ImGui::Text("died %s: %u", kDeathCauses[c], counts.died[c]);
    ImGui::Text("points %u (room for %u)", counts.points, view.point_capacity);
    if (counts.living == 0) ImGui::TextUnformatted("complete: every agent has died");
    if (counts.stopped()) {
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextColored(kErrorColour, "stopped at step %u: the steering grid ran out of cells",
                         counts.error_step);
      ImGui::PopTextWrapPos();
    }
  }
  ImGui::TextColored(kDimColour, "%s", view.gl.renderer.c_str());
}

void PlanPanel::plan_section(PlanScenario& work) {
  if (!section_header("Plan", true)) return;
  ImGui::TextColored(kDimColour, "an edit grows the plan again from its seed;");
  ImGui::TextColored(kDimColour, "the two widths redraw it as it is");
  const float world_side = std::min(work.world.width, work.world.height);
  key_fields(draft_, "plan.", work.plan, world_side,
             [](auto&& visit) { for_each_plan_param(visit); });
}

void PlanPanel::groups_section(PlanScenario& work) {
  PlanParams& plan = work.plan;
  const std::string header = "Start groups (" + std::to_string(plan.groups.size()) + ")";
  if (!section_header(header.c_str())) return;
  const float world_side = std::min(work.world.width, work.world.height);
  for (std::size_t g = 0; g < plan.groups.size(); ++g) {
    const std::string prefix = "plan.group" + std::to_string(g) + ".";
    ImGui::Separator();
    ImGui::Text("group %zu", g);
    key_fields(draft_, prefix, plan.groups[g], world_side,
               [](auto&& visit) { for_each_plan_group_param(visit); });
  }
}

void PlanPanel::look_section(RenderSettings& render) {
  if (section_header("Look", true)) {
    auto blend = static_cast<std::uint32_t>(render.blend);
    if (choice_combo("blend", blend, kBlendModeNames)) render.blend = static_cast<BlendMode>(blend);
    if (render.blend == BlendMode::Ink) {
      colour_field("lines (ink)", render.plan.ink);
      colour_field("paper", render.paper);
    } else {
      colour_field("lines (glow)", render.plan.glow);
      colour_field("background", render.background);
    }
    ImGui::Checkbox("living agents", &render.plan.agents);
  }
  glow_section(render);
}

}  // namespace murmur::viewer
