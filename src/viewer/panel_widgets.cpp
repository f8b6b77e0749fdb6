#include "viewer/panel_widgets.hpp"

#include <imgui_stdlib.h>

#include <algorithm>

#include "murmur/base/errors.hpp"

namespace murmur::viewer {
namespace {

constexpr float kPanelMargin = 8;
// The labels' room right of the widgets: the longest key, cohesion_min_distance, fits.
constexpr float kLabelFontSizes = 12;
constexpr std::uint32_t kMaxStepsPerFrameSlider = 32;
constexpr float kMinBloomRadiusSlider = 0.25f;
// The exposure keys' sliders: mean linear luminances, 0 (off) to a frame far brighter than
// any default look.
constexpr float kMaxExposureKeySlider = 4.0f;
constexpr ImGuiSliderFlags kClamp = ImGuiSliderFlags_AlwaysClamp;

bool every_section_open = false;

}  // namespace

bool begin_panel_window(std::optional<PanelSpan>& span) {
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - kPanelWidth - kPanelMargin, kPanelMargin),
                          ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(kPanelWidth, io.DisplaySize.y - 2 * kPanelMargin),
                           ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("murmur (H hides)")) {
    ImGui::End();
    span.reset();
    return false;
  }
  const float left = ImGui::GetWindowPos().x;
  span = PanelSpan{left, left + ImGui::GetWindowSize().x};
  ImGui::PushItemWidth(-ImGui::GetFontSize() * kLabelFontSizes);
  return true;
}

bool section_header(const char* label, bool open_at_first) {
  if (every_section_open) ImGui::SetNextItemOpen(true);
  return ImGui::CollapsingHeader(label, open_at_first ? ImGuiTreeNodeFlags_DefaultOpen : 0);
}

void open_every_section(bool open) { every_section_open = open; }

void end_panel_window() {
  ImGui::PopItemWidth();
  ImGui::End();
}

bool value_field(const std::string& name, float& value, const params::Widget& widget,
                 float world_side) {
  const float max = widget.kind == params::Widget::Kind::WorldSlider ? widget.max * world_side
                                                                     : widget.max;
  return ImGui::SliderFloat(name.c_str(), &value, widget.min, max, widget.format,
                            widget.logarithmic ? ImGuiSliderFlags_Logarithmic : 0);
}

bool value_field(const std::string& name, std::uint32_t& value, const params::Widget& widget,
                 float) {
  if (widget.kind == params::Widget::Kind::EnterInput) {
    return ImGui::InputScalar((name + " (Enter)").c_str(), ImGuiDataType_U32, &value, nullptr,
                              nullptr, widget.format, ImGuiInputTextFlags_EnterReturnsTrue);
  }
  return ImGui::InputScalar(name.c_str(), ImGuiDataType_U32, &value, nullptr, nullptr,
                            widget.format);
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

bool optional_slider(const char* label, std::optional<float>& value, float fallback, float min,
                     float max, const char* format) {
  float shown = value.value_or(fallback);
  if (!ImGui::SliderFloat(label, &shown, min, max, format, kClamp)) return false;
  value = shown;
  return true;
}

bool combo(const char* label, std::uint32_t& value, const char* const* names, int count) {
  int index = static_cast<int>(value);
  if (!ImGui::Combo(label, &index, names, count)) return false;
  value = static_cast<std::uint32_t>(index);
  return true;
}

ScenarioFiles::ScenarioFiles(const std::filesystem::path& scenario_path)
    : load_path_(scenario_path.string()), save_path_("my-scenario.toml") {}

ScenarioFiles::Requests ScenarioFiles::draw(const std::string& source) {
  Requests requests;
  if (!section_header("Scenario file", true)) return requests;
  ImGui::PushTextWrapPos(0.0f);  // a long path goes on to a second line
  ImGui::TextColored(kDimColour, "now: %s", source.c_str());
  ImGui::PopTextWrapPos();
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
  return requests;
}

void ScenarioFiles::set_message(std::string message, bool is_error) {
  message_ = std::move(message);
  message_is_error_ = is_error;
}

SeedField::Requests SeedField::draw(const ScenarioCommon& running) {
  Requests requests;
  if (is_3d(running)) {
    ImGui::Text("%g x %g x %g world units", running.world.width, running.world.height,
                running.world.depth);
  } else {
    ImGui::Text("%g x %g world units", running.world.width, running.world.height);
  }
  if (!set_) {
    seed_ = running.world.seed;
    set_ = true;
  }
  ImGui::InputScalar("seed", ImGuiDataType_U64, &seed_);
  if (ImGui::Button("Restart with this seed")) {
    requests.restart_with_seed = std::min(seed_, kMaxSeed);
    set_ = false;
  }
  ImGui::SameLine();
  if (ImGui::Button("New random seed")) {
    requests.new_random_seed = true;
    set_ = false;
  }
  if (seed_ != running.world.seed && set_ && !ImGui::IsAnyItemActive()) {
    ImGui::TextColored(kDimColour, "running seed %llu",
                       static_cast<unsigned long long>(running.world.seed));
  }
  return requests;
}

std::optional<std::uint32_t> steps_per_frame_field(std::uint32_t steps_per_frame,
                                                   double step_rate) {
  if (steps_per_frame == 0) {
    ImGui::Text("step rate %.1f Hz (--step-rate)", step_rate);
    return std::nullopt;
  }
  int steps = static_cast<int>(steps_per_frame);
  if (!ImGui::SliderInt("steps per frame", &steps, 1, kMaxStepsPerFrameSlider, "%d", kClamp))
    return std::nullopt;
  return static_cast<std::uint32_t>(steps);
}

void glow_section(RenderSettings& render) {
  if (!section_header("Glow")) return;
  auto blend = static_cast<std::uint32_t>(render.blend);
  if (choice_combo("blend", blend, kBlendModeNames)) render.blend = static_cast<BlendMode>(blend);
  if (render.blend == BlendMode::Ink) {
    colour_field("paper", render.paper);
    ImGui::TextColored(kDimColour, "ink: no bloom, no automatic exposure");
  } else {
    colour_field("background", render.background);
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
  if (render.blend == BlendMode::Ink) return;
  ImGui::SliderFloat("auto exposure", &render.auto_exposure_key, 0.0f, kMaxExposureKeySlider,
                     "%.2f", kClamp);
  ImGui::SliderFloat("local exposure", &render.local_exposure_key, 0.0f, kMaxExposureKeySlider,
                     "%.2f", kClamp);
  ImGui::TextColored(kDimColour, "exposure keys: 0 is off; local dims dense flocks");
}

bool camera_section(RenderSettings& render) {
  if (!section_header("Camera")) return false;
  ImGui::SliderFloat("zoom", &render.camera.zoom, kMinCameraZoom, kMaxCameraZoom, "%.2f",
                     kClamp | ImGuiSliderFlags_Logarithmic);
  if (render.camera.centre) {
    ImGui::Text("centre (%.1f, %.1f)", render.camera.centre->x, render.camera.centre->y);
  } else {
    ImGui::TextUnformatted("centre: the world's centre");
  }
  return ImGui::Button("Fit view (F)");
}

void key_help_section(std::span<const std::array<const char*, 2>> rows) {
  if (!section_header("Keys and mouse")) return;
  if (!ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg)) return;
  // A cell clips what passes its edge: a long key or action goes on to a second line instead.
  for (const auto& row : rows) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextWrapped("%s", row[0]);
    ImGui::TableSetColumnIndex(1);
    ImGui::TextWrapped("%s", row[1]);
  }
  ImGui::EndTable();
}

}  // namespace murmur::viewer
